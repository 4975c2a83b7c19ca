"""One finding per root cause in a kernel's trace: when one fix removes several findings (no vec
tile before three ops: one ``set_vec_tile_shapes`` call fixes all), the first in program order is
reported and the others are named in its note.

A finding with a ``cause`` (``Finding.cause``) claims that cause in the pass of the function whose
check it is part of: the kernel, or a kernel copy checked with a host call's tensors; a helper copy
belongs to its caller's check, at the position of the call that entered it. The first claim is
reported; a later one is not, and its op is added to the first's note. When the first is silenced
(``# type: ignore[code]`` on its line, the code disabled) the later ones stay silent too: they are
its dependents, not causes of their own. When the first's error is not among mypy's errors (mypy
checked the later expression first, or dropped the first under one of its own error watchers),
the later one is reported: a second report, never a lost one. The pass is the tile-flow pass of
that check, made again whenever what it was read from changes, so cold, warm and daemon runs agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy.errors import ErrorInfo
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface

from ..bridge.diagnostics import at_level, error_levels, report, silenced
from ..knowledge.findings import Finding

# The note that names the dependents; each one adds "<op> (line N)".
ALSO: Final = "later ops with the same cause, fixed by the same call (not reported again): "


@dataclass(frozen=True)
class _First:
    path: tuple[int, ...]  # program order (a helper copy's ops at the call that entered it)
    info: ErrorInfo  # mypy's record of the reported error
    silenced: bool


def report_grouped(api: CheckerPluginInterface, causes: dict[str, object], path: tuple[int, ...] | None,
                   finding: Finding, ctx: Context, *, op: str, unwatched: bool, where: str) -> None:
    """Report ``finding`` (which has a ``cause``) unless an earlier finding of its cause in the same
    check stands for it. ``causes``: the check's pass keeps its first findings here; ``path``: the
    position of ``ctx`` (None: unknown, reported as it is); ``where``: how the note names this op."""
    cause = finding.cause
    first = causes.get(cause) if cause is not None and path is not None else None
    if isinstance(first, _First) and first.path < path:  # type: ignore[operator]
        if first.silenced:
            return
        out = _shown(api, first.info)
        if out is not None:
            _extend_note(api, out[0], out[1], f"{op} ({where})" if op else where)
            return
    info = report(api, finding, ctx, op=op, unwatched=unwatched, once=True)
    if info is None or cause is None or path is None:
        return
    if not isinstance(first, _First) or path <= first.path or _shown(api, first.info) is None:
        causes[cause] = _First(path, info, silenced(api, info))


def _shown(api: object, info: ErrorInfo) -> tuple[int, ErrorInfo] | None:
    """Where the error that is ``info`` is out in this check (the level of
    diagnostics.error_levels, and the error there: the same record, or the copy calls.specialize
    made of it for a helper's call), innermost first."""
    levels = error_levels(api)
    for level in range(len(levels) - 1, -1, -1):
        for e in levels[level]:
            if e is info or (e.severity == "error" and e.code is info.code and e.line == info.line
                             and e.column == info.column and e.message == info.message):
                return level, e
    return None


def _extend_note(api: CheckerPluginInterface, level: int, error: ErrorInfo, item: str) -> None:
    """Add ``item`` to the error's dependents note (made, at the error's level, on the first one)."""
    for e in error_levels(api)[level]:
        if e.parent_error is error and e.message.startswith(ALSO):
            if item not in e.message[len(ALSO):].split("; "):
                e.message = f"{e.message}; {item}"
            return
    ctx = Context(line=error.line, column=error.column)
    ctx.end_line, ctx.end_column = error.end_line, error.end_column
    with at_level(api, level):
        api.msg.note(ALSO + item, ctx, code=error.code, parent_error=error)
