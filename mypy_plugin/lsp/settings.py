"""The server's settings: from ``initializationOptions`` and ``workspace/didChangeConfiguration``,
either as they are or under a ``"pypto"`` key (``{"pypto": {"inlayHints": {"unknown": "show"}}}``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

UNKNOWN_HINTS: Final = ("hide", "show", "callSites")
_HERE = Path(__file__).resolve().parent


def _codes_doc() -> str | None:
    """docs/codes.md as installed with the server (a copy the wheel ships), or in a source tree."""
    for candidate in (_HERE / "codes.md", _HERE.parents[1] / "docs" / "codes.md"):
        if candidate.is_file():
            return candidate.as_uri()
    return None


@dataclass(frozen=True)
class Settings:
    debounce_ms: int = 100  # an unsaved change is checked this long after the last keystroke
    unknown_hints: str = "hide"  # inlay hints of tensors of unknown shape: hide, show, callSites
    show_all: bool = False  # as pypto-check --all: mypy's errors that are not about PyPTO too
    mypy_args: tuple[str, ...] = ()  # more mypy options, as after pypto-check's "--"
    codes_url: str | None = _codes_doc()  # where a code's link points (its section: #pypto-...)

    def merged(self, data: object) -> tuple[Settings, list[str]]:
        """These settings with what ``data`` sets; the problems with it, to log."""
        if isinstance(data, Mapping) and isinstance(data.get("pypto"), Mapping):
            data = data["pypto"]
        if data is None:
            return self, []
        if not isinstance(data, Mapping):
            return self, [f"settings: expected an object, got {data!r}"]
        out, problems = self, []
        debounce = data.get("debounceMs")
        if debounce is not None:
            if isinstance(debounce, int) and not isinstance(debounce, bool) and 0 <= debounce <= 10_000:
                out = replace(out, debounce_ms=debounce)
            else:
                problems.append(f"debounceMs: expected milliseconds (0-10000), got {debounce!r}")
        hints = data.get("inlayHints")
        unknown = hints.get("unknown") if isinstance(hints, Mapping) else None
        if unknown is not None:
            if unknown in UNKNOWN_HINTS:
                out = replace(out, unknown_hints=str(unknown))
            else:
                problems.append(f"inlayHints.unknown: expected one of {', '.join(UNKNOWN_HINTS)}, got {unknown!r}")
        show_all = data.get("showAll")
        if show_all is not None:
            if isinstance(show_all, bool):
                out = replace(out, show_all=show_all)
            else:
                problems.append(f"showAll: expected true or false, got {show_all!r}")
        args = data.get("mypyArgs")
        if args is not None:
            if isinstance(args, list) and all(isinstance(a, str) for a in args):
                out = replace(out, mypy_args=tuple(args))
            else:
                problems.append(f"mypyArgs: expected a list of strings, got {args!r}")
        url = data.get("codesUrl")
        if url is not None:
            if isinstance(url, str):
                out = replace(out, codes_url=url or None)
            else:
                problems.append(f"codesUrl: expected a URL, got {url!r}")
        return out, problems
