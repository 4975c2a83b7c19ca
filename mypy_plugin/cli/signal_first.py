"""Signal first: which mypy errors are 0.2.0 failures in PyPTO code (shown without a user config)
and which are not.

Kernel code bases are mostly untyped, so mypy's own errors would bury the findings. Shown: the
``pypto-*`` findings, and the mypy errors that fail when the code runs on 0.2.0: a ``pypto`` module,
function or ``Tensor`` member that does not exist (ImportError, AttributeError), wrong arguments
to a PyPTO function, method or operator (TypeError), and a name not defined inside a kernel or a
function its trace runs (NameError at trace time: :mod:`.kernel_spans`). Not shown: typing
strictness that 0.2.0 never fails on (an assignment, return or list item of another declared
type, a union one item of which may not fit; ``None``-ness is not checked at all in this mode:
``strict_optional = False`` in the generated config) and errors in code that does not use PyPTO.
They are counted; ``--all`` shows them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..fix.findings import Finding
from ..mypy_output import Record
from .kernel_spans import TracedLines

# "pypto", "pypto.frontend", "pypto.Tensor[...]", "Tensor", "Tensor[...]" as mypy quotes them.
_NAMES_PYPTO = re.compile(r'"pypto(\.[\w.]+)?(\[.*?\])?"|Module "pypto[".]|"(pypto\.)?Tensor(\[[^"]*\])?"')
# Errors about a call or its arguments: shown when the call is a pypto one.
_CALL_CODES = frozenset({"call-arg", "arg-type", "call-overload", "misc", "operator", "index", "attr-defined"})
# The mypy codes whose errors about PyPTO are failures on 0.2.0 (the others are typing only:
# assignment, return-value, list-item, union-attr, valid-type, var-annotated ...).
_FAILURE_CODES = _CALL_CODES | {"name-defined", "import", "import-not-found", "import-untyped"}
# mypy's notes on an operator error with a union operand: some item fails, not provably the value's.
_UNION_OPERAND = ("Left operand is of type", "Right operand is of type", "Both left and right operands are unions")
# 'Name "scale" is not defined': a NameError; a dotted name ("cfg.in_dtype") is mypy's reading of an
# annotation, which Python evaluates as an attribute.
_PLAIN_NAME = re.compile(r'^Name "\w+" is not defined')
_ARG_TYPE = re.compile(r'has incompatible type "(?P<type>.*?)"; expected ')
_PYPTO_CALL = re.compile(r"^\s*(?:await\s+)?pypto\s*\.")
# 'Argument 1 to "matmul" has ...', 'Too many arguments for "matmul"': the callee's name.
_CALLEE = re.compile(r'(?:to|for) "(?P<name>\w+)"')


def _top_level_union(text: str) -> bool:
    """``A | B`` outside brackets: ``Tensor[Any, Any] | float``, not ``list[int | None]``."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif depth == 0 and text.startswith(" | ", i):
            return True
    return False


# A sequence whose items are a union (``list[int | SymbolicScalar]``): some item may not fit.
_SEQUENCE_OF = re.compile(r"^(?:list|tuple|Sequence|set)\[(?P<items>.*)\]$")


# 'No overload variant of "assemble" matches argument types "Tensor[Any, Any]", "list[int]", "object"'
_OVERLOAD_ARGS = re.compile(r'matches argument types? (?P<types>".*")$')


def _overload_arguments(message: str) -> list[str]:
    """The argument types a ``call-overload`` message lists (quoted, comma separated)."""
    m = _OVERLOAD_ARGS.search(message)  # (a record's message, without its code)
    return re.findall(r'"((?:[^"\\]|\\.)*)"', m["types"]) if m is not None else []


def _unprovable(rec: Record) -> bool:
    """A union operand or argument, or a sequence argument whose items are a union: mypy says
    that some item of it fails, not that the value does. An argument declared ``object`` (a field
    ``out_tensor: object`` holding a tensor): any value may be in it, the right one too."""
    if rec.code == "operator" and any(n.startswith(_UNION_OPERAND) for n in rec.notes):
        return True
    if rec.code == "call-overload":
        return "object" in _overload_arguments(rec.message)
    m = _ARG_TYPE.search(rec.message) if rec.code == "arg-type" else None
    if m is None:
        return False
    if m["type"] == "object":
        return True
    items = _SEQUENCE_OF.match(m["type"])
    return _top_level_union(m["type"]) or (items is not None and _top_level_union(items["items"]))


def about_pypto(rec: Record, source_line: Callable[[str, int], str | None],
                traced: Callable[[str, int], bool] | None = None) -> bool:
    """``traced``: is this line in a kernel or a function its trace runs (kernel_spans)?"""
    if rec.severity != "error":
        return True  # notes on their own (reveal_type, ...) were asked for
    if rec.code is not None and rec.code.startswith("pypto-"):
        return True
    if rec.line is None:
        return True  # file-level errors (duplicate module, syntax) stop the check: never hidden
    if rec.code == "syntax":
        return True
    if rec.code not in _FAILURE_CODES or _unprovable(rec):
        return False
    if rec.code == "name-defined" and _PLAIN_NAME.match(rec.message) and traced is not None and traced(rec.path, rec.line):
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


def traced_lines(root: Path) -> TracedLines:
    """:class:`TracedLines` of the files under ``root`` (paths as mypy printed them)."""
    def read(path: str) -> str:
        try:
            return (root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
    return TracedLines(read)


def split(records: list[Record], source_line: Callable[[str, int], str | None],
          traced: Callable[[str, int], bool] | None = None) -> tuple[list[Record], list[Record]]:
    shown: list[Record] = []
    hidden: list[Record] = []
    for rec in records:
        (shown if about_pypto(rec, source_line, traced) else hidden).append(rec)
    return shown, hidden


def finding_shown(root: Path) -> Callable[[Finding], bool]:
    """The same split for ``--fix``'s remaining findings."""
    source_line, traced = SourceLines(root), traced_lines(root)

    def shown(f: Finding) -> bool:
        rec = Record(f.path, f.line, f.column, f.end_line, f.end_column, "error", f.message, f.code or None,
                     list(f.notes))
        return about_pypto(rec, source_line, traced)
    return shown
