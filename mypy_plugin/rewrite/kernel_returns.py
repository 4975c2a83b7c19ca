"""The return annotation the source rewrite gives each ``@pypto.frontend.jit`` kernel: None.

The frontend rejects any return annotation, even ``-> None`` (``pypto-kernel-signature``), while
mypy's ``disallow_untyped_defs`` (``--strict``) asks every function for one. The plugin accepts
the frontend's rule: ``def k(x: ...):`` is read as ``def k(x: ...) -> _PyptoStubsKernelReturn:``,
which ``rewrite_markers.py`` types as None; the signature check knows this annotation was not
written. Done in the source rewrite because that runs on every parse (cold, warm, a stale
module re-parsed, the daemon); a repair of the parsed tree in ``get_additional_deps`` missed
the warm re-parse of an unchanged module. Only functions with at least one annotated parameter
(an unannotated function follows mypy's rules for untyped functions) and no type comment.
"""

from __future__ import annotations

import ast
from typing import Final

from ..knowledge.frontend import JIT
from .edit_proof import RETURN
from ..ast_fields import dotted
from .reparse_guard import ALIAS_PREFIX
from .source_text import EditError, SourceText

KERNEL_RETURN_ALIAS: Final = ALIAS_PREFIX + "KernelReturn"
_BETWEEN_PARAMS: Final = frozenset(b" \t\f\r\n,/")
_BLANK: Final = frozenset(b" \t\f\r\n")


def jit_spellings(nodes: list[ast.AST]) -> set[str]:
    """How this module writes ``pypto.frontend.jit`` through its imports (any nesting)."""
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "pypto" or a.name.startswith("pypto."):
                    if a.asname is None:
                        out.add(JIT)  # ``import pypto.frontend`` binds ``pypto``
                    elif JIT.startswith(a.name + "."):
                        out.add(a.asname + JIT[len(a.name):])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if full == JIT or JIT.startswith(full + "."):
                    out.add((a.asname or a.name) + JIT[len(full):])
    return out


def _is_jit(decorator: ast.expr, spellings: set[str]) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return dotted(target) in spellings


def _needs_return(func: ast.FunctionDef | ast.AsyncFunctionDef, spellings: set[str]) -> bool:
    if func.returns is not None or func.type_comment is not None:
        return False
    a = func.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []), *([a.kwarg] if a.kwarg else [])]
    if not any(p.annotation is not None for p in params):
        return False
    return any(_is_jit(d, spellings) for d in func.decorator_list)


def _last_param_end(src: SourceText, func: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = func.args
    parts: list[ast.AST] = [*a.posonlyargs, *a.args, *a.kwonlyargs, *a.defaults]
    parts += [d for d in a.kw_defaults if d is not None]
    parts += [p for p in (a.vararg, a.kwarg) if p is not None]
    parts += [p.annotation for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if p and p.annotation]
    ends = [src.offset(n.end_lineno, n.end_col_offset) for n in parts  # type: ignore[attr-defined]
            if getattr(n, "end_lineno", None) is not None and getattr(n, "end_col_offset", None) is not None]
    if not ends:
        raise EditError("a kernel with annotated parameters has parameter positions")
    return max(ends)


def header_close(src: SourceText, func: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The offset just after the ``)`` that closes the parameter list, checked to be followed
    by the header's ``:`` (raises :class:`EditError` when the text does not confirm it)."""
    close = src.skip(_last_param_end(src, func), _BETWEEN_PARAMS)
    src.expect(close, b")")
    src.expect(src.skip(close + 1, _BLANK), b":")
    return close + 1


def add_kernel_returns(src: SourceText, nodes: list[ast.AST]) -> bool:
    """Insert the None return annotation into each jit kernel that has none; True if any.
    ``nodes``: the module's imports and function definitions, in the binding walk's order
    (others are passed over; the order does not change which kernels get the annotation)."""
    spellings = jit_spellings(nodes)
    if not spellings:
        return False
    added = False
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _needs_return(node, spellings):
            try:
                close = header_close(src, node)
            except EditError:
                continue  # a header the scan does not confirm: that kernel keeps mypy's rule
            src.insert(close, f" -> {KERNEL_RETURN_ALIAS}", RETURN)
            added = True
    return added
