"""The checker's findings as records the fixer can act on: one mypy run, parsed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mypy import api

# path:line:col:end_line:end_col: severity: message  [code]  (--show-column-numbers --show-error-end)
_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+):(?P<end_line>\d+):(?P<end_column>\d+): "
    r"(?P<severity>error|note|warning): (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)
_FLAGS = ("--show-column-numbers", "--show-error-end", "--show-error-codes", "--no-pretty", "--no-error-summary")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int  # 1-based, as mypy prints it
    end_line: int
    end_column: int
    code: str
    message: str
    notes: tuple[str, ...] = field(default=())

    @property
    def key(self) -> tuple[str, int, str]:
        """What identifies a finding across two runs of the same file: not its message, which
        names inferred shapes that a fix elsewhere may make known."""
        return (self.resolved_path, self.line, self.code)

    @property
    def resolved_path(self) -> str:
        return str(Path(self.path).resolve())


def parse(text: str) -> list[Finding]:
    """mypy's error lines as findings; notes on the error's line belong to it."""
    found: list[Finding] = []
    for raw in text.splitlines():
        m = _LINE.match(raw)
        if m is None:
            continue
        if m["severity"] == "note":
            last = found[-1] if found else None
            if last is not None and (last.path, last.line) == (m["path"], int(m["line"])):
                found[-1] = Finding(**{**last.__dict__, "notes": (*last.notes, m["message"])})
            continue
        if m["severity"] != "error":
            continue
        found.append(Finding(
            path=m["path"], line=int(m["line"]), column=int(m["column"]),
            end_line=int(m["end_line"]), end_column=int(m["end_column"]),
            code=m["code"] or "", message=m["message"],
        ))
    return found


def collect(targets: Sequence[str], mypy_args: Sequence[str], shadows: Mapping[str, str] | None = None) -> list[Finding]:
    """Run the checker once; ``shadows`` maps a source path to a file whose text replaces it."""
    shadow_args = [arg for src, dst in (shadows or {}).items() for arg in ("--shadow-file", src, dst)]
    if shadow_args:
        # mypy 2.4 validates a cached module by hashing the original file, not its shadow: a
        # shadow of the same size would be taken for the cached original.
        shadow_args.append("--no-incremental")
    stdout, _stderr, _status = api.run([*_FLAGS, *mypy_args, *shadow_args, *targets])
    return parse(stdout)
