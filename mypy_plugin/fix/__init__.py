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
    fixed, files, remaining = len(outcome.fixed), len(outcome.texts), len(outcome.remaining)
    if write:
        for f in outcome.remaining:
            sys.stdout.write(f"{f.path}:{f.line}: error: {f.message}  [{f.code}]\n")
    sys.stderr.write(
        f"{verb} {fixed} error{'s' * (fixed != 1)} in {files} file{'s' * (files != 1)}; {remaining} remaining\n"
    )
    return 1 if remaining else 0
