"""``pypto-check --fix`` / ``--diff``: rewrite the findings that have one unambiguous fix.

Built on libcst, so comments and formatting survive; a fix is kept only when re-checking the
fixed text shows its finding gone and nothing new (see :mod:`.apply`).
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence

from .apply import run
from .edits import EDITS

FIXABLE = tuple(sorted(EDITS))

__all__ = ["FIXABLE", "fix_command"]


def fix_command(targets: Sequence[str], mypy_args: Sequence[str], *, write: bool, only: Collection[str] | None) -> int:
    """Fix (``write``) or print the diff; exit 1 while findings remain, like a check run."""
    outcome = run(targets, mypy_args, only)
    if write:
        outcome.write()
    else:
        sys.stdout.write(outcome.diff())
    verb = "Fixed" if write else "Would fix"
    remaining = len(outcome.remaining)
    sys.stderr.write(
        f"{verb} {len(outcome.fixed)} error{'s' * (len(outcome.fixed) != 1)} in "
        f"{len(outcome.texts)} file{'s' * (len(outcome.texts) != 1)}; {remaining} remaining\n"
    )
    for f in outcome.remaining:
        sys.stdout.write(f"{f.path}:{f.line}: error: {f.message}  [{f.code}]\n") if write else None
    return 1 if remaining else 0
