"""``pypto-check --fix`` / ``--diff``: rewrite the findings that have one unambiguous fix.

Built on libcst, so comments and formatting survive; a fix is kept only when re-checking the
fixed text shows its finding gone and nothing new (see :mod:`.apply`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Sequence

from .findings import Finding
from .fixable import FIXABLE

STYLES = ("operators", "subscript")  # the keys of styles.STYLES, without importing mypy.build here

__all__ = ["FIXABLE", "STYLES", "fix_command"]


def fix_command(targets: Sequence[str], mypy_args: Sequence[str], *, write: bool, only: Collection[str] | None,
                styles: Sequence[str] = (), shown: Callable[[Finding], bool] | None = None,
                hidden_line: Callable[[int], str] | None = None) -> int:
    """Fix (``write``) or print the diff; exit 1 while findings remain, like a check run.
    ``shown``: the remaining findings a check run would show (signal first), the others counted
    in ``hidden_line``."""
    from .apply import run  # (libcst: imported when a fix runs, not for a plain check)

    outcome = run(targets, mypy_args, only)
    restyled = 0
    if styles:
        from .styles import restyle

        restyled = sum(restyle(targets, mypy_args, style, outcome) for style in styles)
    if write:
        outcome.write()
    else:
        sys.stdout.write(outcome.diff())
    verb = "Fixed" if write else "Would fix"
    left = [f for f in outcome.remaining if shown is None or shown(f)]
    hidden = len(outcome.remaining) - len(left)
    fixed, files, remaining = len(outcome.fixed), len(outcome.texts), len(left)
    if write:
        for f in left:  # as a check lists them: each with its notes
            sys.stdout.write(f"{f.path}:{f.line}: error: {f.message}  [{f.code}]\n")
            sys.stdout.write("".join(f"{f.path}:{f.line}: note: {n}\n" for n in f.notes))
        if hidden and hidden_line is not None:
            sys.stdout.write(hidden_line(hidden) + "\n")
    styled = f", restyled {restyled} expression{'s' * (restyled != 1)}" if styles else ""
    sys.stderr.write(
        f"{verb} {fixed} error{'s' * (fixed != 1)}{styled} in {files} file{'s' * (files != 1)}; {remaining} remaining\n"
    )
    return 1 if remaining else 0
