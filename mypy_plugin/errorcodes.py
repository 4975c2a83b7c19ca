"""The plugin's error codes as mypy ErrorCodes (``# type: ignore[pypto-...]``, disable_error_code),
made from the code table (``knowledge/codes``): one per row, nothing written here.

Imports nothing but mypy.errorcodes and the table, so a config that names these codes (and
dmypy's start-up registration) never pays for more than this module.
"""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode

from .knowledge.codes import TABLE, Code

_CATEGORY: Final = "PyPTO"

BY_NAME: Final[dict[str, ErrorCode]] = {
    row.name: ErrorCode(row.name, row.summary, _CATEGORY, default_enabled=row.enabled) for row in TABLE
}


def error_code(row: Code) -> ErrorCode | None:
    """mypy's ErrorCode for a row; None for a code that is not in the table (a bug: the caller
    fails loudly in debug mode)."""
    return BY_NAME.get(row.name)
