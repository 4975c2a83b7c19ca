"""One row of the code table: everything said about a ``pypto-*`` code, in one place."""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "pypto-"


@dataclass(frozen=True)
class Code:
    """A ``pypto-*`` error code. mypy's ErrorCode (``errorcodes``), ``pypto-check --explain`` and
    ``--list-codes``, SARIF rules and ``docs/codes.md`` are all made from these fields."""

    name: str  # "pypto-reduce-align": what # type: ignore[...] and disable_error_code name
    summary: str  # one line: mypy's description of the code, --list-codes
    catches: str  # what the checker reports
    compiler: str  # what PyPTO does with the bad code (its message, or "nothing: wrong data")
    bad: str  # a line or two that the checker reports
    fixed: str  # the same lines, fixed
    rules: tuple[str, ...] = ()  # the compiler facts it relies on: ``### rule: <name>`` in docs/rules.md
    enabled: bool = True  # off by default: a user enables it with enable_error_code

    def __str__(self) -> str:
        return self.name
