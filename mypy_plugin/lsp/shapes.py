"""``pypto-lsp --shapes``: the shape and dtype the checker infers for each tensor parameter of a
kernel or helper and each tensor it assigns, one line each, for a terminal, a CI log or a coding
agent: what the language server shows on hover and as inlay hints (the same engine and hints).

    k.py:17: sq = x * x  ->  [8, 64] FP32

A dim or dtype the checker does not know is ``?``; a function checked again with the tensors of
its calls (a host call, a call from a kernel) gets one more line per call. Only the given files
are described; the modules they import are checked as usual.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from mypy.nodes import FuncDef, MypyFile

from .. import insight
from .engine import Engine
from .hover import describe
from .inlay import Hint, hints
from .lookup import functions

_STATEMENT_WIDTH: Final = 60  # the statement's text is cut to this many characters


def _python_files(paths: Sequence[str]) -> list[str]:
    """The files given and the ``.py`` files under the folders given, in a stable order."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
        else:
            found.append(path)
    return found


def _statement(lines: list[str], line: int) -> str:
    text = lines[line - 1].strip() if 1 <= line <= len(lines) else ""
    return text if len(text) <= _STATEMENT_WIDTH else text[:_STATEMENT_WIDTH - 3] + "..."


def _signature(shown: str, path: str, func: FuncDef, what: str) -> list[str]:
    """``k.py:9: kernel k(x [8, 64] FP32, out [8, 1] FP32)`` and, for each call the function was
    checked again for, the parameters' tensors at that call."""
    params = [(arg, insight.tensor_of(arg.variable.type)) for arg in func.arguments]
    tensors = [(arg, val) for arg, val in params if val is not None]
    if not tensors:
        return []
    head = ", ".join(f"{arg.variable.name} {describe(val, short=True)}" for arg, val in tensors)
    out = [f"{shown}:{func.line}: {what} {func.name}({head})"]
    for copy in insight.copies(path, func):
        seen = [(arg, copy.tensors.get(insight.span(arg))) for arg, _val in tensors]
        known_here = ", ".join(f"{arg.variable.name} {describe(val, short=True)}" for arg, val in seen
                               if val is not None)
        if known_here:
            out.append(f"{shown}:{func.line}:     with {copy.label}: {known_here}")
    return out


def describe_file(shown: str, path: str, lines: list[str], tree: MypyFile,
                  hints_of: Callable[[MypyFile, str], list[Hint]]) -> list[str]:
    """The lines for one file (``shown``: its path as the user gave it): each kernel's and helper's
    tensor parameters, then each tensor assignment; ``hints_of(tree, unknown)`` gives the inlay
    hints with the language server's ``inlayHints.unknown`` setting."""
    heads: dict[int, list[str]] = {}
    for func in functions(tree):
        what = insight.kind(tree, func)
        if what is not None:
            heads[func.line] = _signature(shown, path, func, what)
    at_calls = {(h.line, h.column): h for h in hints_of(tree, "callSites")}
    body: list[tuple[int, list[str]]] = []
    for hint in hints_of(tree, "show"):
        lines_of = [f"{shown}:{hint.line}: {_statement(lines, hint.line)}  ->  {hint.label}"]
        calls = at_calls.get((hint.line, hint.column))
        if calls is not None and calls.label != hint.label:  # checked again with its calls' tensors
            lines_of += [f"{shown}:{hint.line}:     {tip}" for tip in calls.tooltip.splitlines() if " with " in tip]
        body.append((hint.line, lines_of))
    ordered = sorted([*heads.items(), *body], key=lambda item: item[0])
    return [line for _at, group in ordered for line in group]


def _quiet(_line: str) -> None:
    pass


def _warn(line: str) -> None:
    sys.stderr.write(line + "\n")


def _hints_in(engine: Engine, path: str) -> Callable[[MypyFile, str], list[Hint]]:
    return lambda tree, unknown: hints(engine, path, tree, unknown)


def run(paths: Sequence[str], mypy_args: Sequence[str]) -> int:
    """Print the shapes of the files under ``paths``; 0, or 2 when nothing could be checked."""
    files = _python_files(paths)
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        sys.stderr.write(f"pypto-lsp: no such file: {missing[0]}\n")
        return 2
    engine = Engine(Path.cwd(), mypy_args, log=_quiet, warn=_warn)
    try:
        texts: dict[str, str] = {}
        for f in files:
            texts[f] = Path(f).read_text(encoding="utf-8", errors="replace")
            engine.set_text(os.path.abspath(f), texts[f])
        engine.check()
        if engine.fatal:
            sys.stderr.write("".join(line + "\n" for line in engine.fatal))
            return 2
        out: list[str] = []
        for f in files:
            path = os.path.abspath(f)
            tree = engine.tree(path)
            if tree is None:
                continue
            out += describe_file(os.path.normpath(f), path, texts[f].splitlines(), tree, _hints_in(engine, path))
        sys.stdout.write("".join(line + "\n" for line in out))
        return 0
    finally:
        engine.close()
