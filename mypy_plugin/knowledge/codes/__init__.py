"""The code table: every ``pypto-*`` code once, with its summary, what it catches, what the
compiler says, a bad and a fixed example, and the rules it relies on (``docs/rules.md``)."""

from __future__ import annotations

from typing import Final

from . import call_codes, kernel_codes, op_codes
from .table import PREFIX, Code

# The order of --list-codes and docs/codes.md: op calls, whole kernels, host calls.
TABLE: Final[tuple[Code, ...]] = tuple(
    row for module in (op_codes, kernel_codes, call_codes) for row in vars(module).values() if isinstance(row, Code)
)
BY_NAME: Final[dict[str, Code]] = {row.name: row for row in TABLE}


def lookup(name: str) -> Code | None:
    """``pypto-axis``, ``axis`` or ``[pypto-axis]``."""
    name = name.strip().strip("[]")
    return BY_NAME.get(name) or BY_NAME.get(PREFIX + name)


__all__ = ["BY_NAME", "PREFIX", "TABLE", "Code", "lookup"]
