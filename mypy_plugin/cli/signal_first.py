"""Signal first: which mypy errors are about PyPTO (shown without a user config) and which are not.

Kernel code bases are mostly untyped, so mypy's own errors would bury the findings. Shown: the
``pypto-*`` findings, errors that name the ``pypto`` module or its ``Tensor`` (a member 0.2.0 does
not have, wrong arguments to a ``Tensor`` method), and call errors whose expression is a
``pypto.`` call (wrong arguments to a PyPTO function). Everything else is counted and hidden.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..fix.findings import Finding
from ..mypy_output import Record

# "pypto", "pypto.frontend", "pypto.Tensor[...]", "Tensor", "Tensor[...]" as mypy quotes them.
_NAMES_PYPTO = re.compile(r'"pypto(\.[\w.]+)?(\[.*?\])?"|Module "pypto[".]|"(pypto\.)?Tensor(\[[^"]*\])?"')
# Errors about a call or its arguments: shown when the call is a pypto one.
_CALL_CODES = frozenset({"call-arg", "arg-type", "call-overload", "misc", "operator", "index", "attr-defined"})
_PYPTO_CALL = re.compile(r"^\s*(?:await\s+)?pypto\s*\.")
# 'Argument 1 to "matmul" has ...', 'Too many arguments for "matmul"': the callee's name.
_CALLEE = re.compile(r'(?:to|for) "(?P<name>\w+)"')


def about_pypto(rec: Record, source_line: Callable[[str, int], str | None]) -> bool:
    if rec.severity != "error":
        return True  # notes on their own (reveal_type, ...) were asked for
    if rec.code is not None and rec.code.startswith("pypto-"):
        return True
    if rec.line is None:
        return True  # file-level errors (duplicate module, syntax) stop the check: never hidden
    if rec.code == "syntax":
        return True
    if _NAMES_PYPTO.search(rec.message) and "torch" not in rec.message:
        return True
    if rec.code in _CALL_CODES and rec.column is not None:
        text = source_line(rec.path, rec.line)
        if text is None:
            return False
        if _PYPTO_CALL.match(text[rec.column - 1:]):
            return True
        callee = _CALLEE.search(rec.message)
        if callee is not None and re.search(rf"\bpypto(\.\w+)*\.{callee['name']}\s*\(", text):
            return True
    return False


class SourceLines:
    """Lines of the checked files, read once each (paths as mypy printed them)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._cache: dict[str, list[str] | None] = {}

    def __call__(self, path: str, line: int) -> str | None:
        if path not in self._cache:
            try:
                self._cache[path] = (self._root / path).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                self._cache[path] = None
        lines = self._cache[path]
        if lines is None or not 1 <= line <= len(lines):
            return None
        return lines[line - 1]


def split(records: list[Record], source_line: Callable[[str, int], str | None]) -> tuple[list[Record], list[Record]]:
    shown: list[Record] = []
    hidden: list[Record] = []
    for rec in records:
        (shown if about_pypto(rec, source_line) else hidden).append(rec)
    return shown, hidden


def finding_shown(source_line: Callable[[str, int], str | None]) -> Callable[[Finding], bool]:
    """The same split for ``--fix``'s remaining findings."""
    def shown(f: Finding) -> bool:
        rec = Record(f.path, f.line, f.column, f.end_line, f.end_column, "error", f.message, f.code or None)
        return about_pypto(rec, source_line)
    return shown
