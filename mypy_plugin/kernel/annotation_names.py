"""A bare ``@pypto.frontend.jit`` on a kernel defined in a function (rule: jit-annotation-names).

The 0.2.0 frontend evaluates a kernel's annotations again when it traces the kernel, with the
kernel's globals and the variables its closure captured. Python captures a variable of the
enclosing function only when the body reads it: a factory's ``rows`` that only the annotations
read (``x: pypto.Tensor([rows, 64], ...)``) is in neither, and the first call raises
``NameError: name 'rows' is not defined`` (probed). ``@pypto.frontend.jit()`` -- called, with or
without options -- captures the enclosing frame's variables and compiles.
"""

from __future__ import annotations

import ast

from mypy.nodes import (
    CallExpr,
    Decorator,
    FuncDef,
    MypyFile,
    NameExpr,
    RefExpr,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import RawExpressionType, Type, TypeList, UnboundType

from ..bridge.diagnostics import report
from ..knowledge.codes import kernel_codes as codes
from ..knowledge.findings import Finding
from ..knowledge.frontend import KERNEL_DECORATORS
from ..rewrite.transform import EXPR_PREFIX
from .body_walk import assignment_counts, expressions, statements


def _bare_jit(dec: Decorator) -> bool:
    return any(isinstance(d, RefExpr) and not isinstance(d, CallExpr) and d.fullname in KERNEL_DECORATORS
               for d in dec.original_decorators)


def _names_in(t: Type, out: list[str]) -> None:
    """The names an annotation reads as written (after the source rewrite: dims kept as text too),
    in the order Python evaluates them."""
    if isinstance(t, UnboundType):
        out.append(t.name.split(".", 1)[0])
        for a in t.args:
            _names_in(a, out)
    elif isinstance(t, TypeList):
        for item in t.items:
            _names_in(item, out)
    elif isinstance(t, RawExpressionType) and isinstance(t.literal_value, str) and t.literal_value.startswith(EXPR_PREFIX):
        try:
            tree = ast.parse(t.literal_value[len(EXPR_PREFIX):], mode="eval")
        except SyntaxError:
            return
        out.extend(n.id for n in sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)),
                                        key=lambda n: (n.lineno, n.col_offset)))


def _bound_in(func: FuncDef) -> set[str]:
    """The enclosing function's parameters and the names its own statements bind."""
    return {a.variable.name for a in func.arguments} | set(assignment_counts(func, augmented=False))


def _read_in(func: FuncDef) -> set[str]:
    """Every name the kernel's body reads, nested scopes included (what its closure captures)."""
    return {e.name for s in statements(func.body.body) for e in expressions(s) if isinstance(e, NameExpr)}


def check_annotation_names(api: CheckerPluginInterface, dec: Decorator) -> None:
    if not _bare_jit(dec):
        return
    scope = getattr(api, "scope", None)
    enclosing = scope.current_function() if scope is not None else None
    sig = dec.func.unanalyzed_type
    module = getattr(api, "tree", None)
    if not isinstance(enclosing, FuncDef) or sig is None or not hasattr(sig, "arg_types"):
        return
    read: list[str] = []
    for t in sig.arg_types:
        _names_in(t, read)
    candidates = _bound_in(enclosing)
    body = _read_in(dec.func)
    # a module global of the same name is what the frontend finds instead: no NameError
    missing = [n for n in dict.fromkeys(read) if n in candidates and n not in body
               and not (isinstance(module, MypyFile) and n in module.names)]
    if not missing:
        return
    # One finding per kernel (one fix removes them all); 0.2.0 names the first it evaluates.
    quoted = [f'"{n}"' for n in missing]
    names = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"
    what = "a variable" if len(missing) == 1 else "variables"
    report(api, Finding(
        codes.KERNEL_SCOPE,
        f'jit kernel "{dec.func.name}": its annotations read {names}, {what} of the enclosing function '
        f'"{enclosing.name}" that the kernel body does not use; with a bare @pypto.frontend.jit the frontend '
        f"cannot see {'it' if len(missing) == 1 else 'them'} when it evaluates the annotations again at the first "
        f"call (NameError: name '{missing[0]}' is not defined)",
        "decorate with @pypto.frontend.jit() (called, it captures the enclosing function's variables)",
    ), dec.func)
