"""What a jit kernel's body may define and see in nested scopes (rules: kernel-no-nested-def,
kernel-nested-scope).

The 0.2.0 frontend does not run the kernel as Python: it walks its tree and evaluates each
expression with ``eval(code, {}, kernel_names)`` (parser/evaluator.py). A nested scope (a lambda,
a generator expression, and before Python 3.12 also a list/set/dict comprehension) looks names up
in the empty globals, so it sees only builtins and its own names: reading anything else raises
``NameError`` at trace time. The first ``for`` clause's iterable and a lambda's defaults are
evaluated outside, so they may read anything. A nested ``def`` is rejected outright.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.nodes import (
    AssignmentExpr,
    Decorator,
    DictionaryComprehension,
    Expression,
    FuncDef,
    GeneratorExpr,
    LambdaExpr,
    ListComprehension,
    NameExpr,
    Node,
    OverloadedFuncDef,
    SetComprehension,
)
from mypy.plugin import CheckerPluginInterface

from ..bridge.diagnostics import report
from ..knowledge.codes import kernel_codes as codes
from ..knowledge.findings import Finding
from .body_walk import child_exprs, comprehension_names, expressions, generator_of, statements

_INLINED_FROM: Final = (3, 12)  # PEP 709: list/set/dict comprehensions run in the enclosing scope
_KIND: Final = {ListComprehension: "list comprehension", SetComprehension: "set comprehension",
                DictionaryComprehension: "dict comprehension", GeneratorExpr: "generator expression",
                LambdaExpr: "lambda"}


def _own_scope(e: Expression, inlined: bool) -> bool:
    """Does ``e`` open a scope of its own at run time?"""
    if isinstance(e, (LambdaExpr, GeneratorExpr)):
        return True
    return isinstance(e, (ListComprehension, SetComprehension, DictionaryComprehension)) and not inlined


def _parts(e: Expression) -> tuple[list[Expression], list[Expression], frozenset[str]]:
    """A scope's parts evaluated outside it (the first iterable, a lambda's defaults), those
    evaluated inside it, and the names it binds inside."""
    if isinstance(e, LambdaExpr):
        defaults = [a.initializer for a in e.arguments if a.initializer is not None]
        return defaults, [e.expr()], frozenset(a.variable.name for a in e.arguments)
    g = generator_of(e)
    if g is None:
        return [], [], frozenset()
    first = g.sequences[0] if g.sequences else None
    inner = [c for c in child_exprs(g) if c is not first]
    walrus = frozenset(w.target.name for c in inner for w in expressions(c) if isinstance(w, AssignmentExpr))
    return ([first] if first is not None else []), inner, comprehension_names(g) | walrus


def _is_scope(n: Node) -> bool:
    """A lambda or a comprehension (a list/set comprehension's generator is part of it)."""
    return isinstance(n, (LambdaExpr, ListComprehension, SetComprehension, DictionaryComprehension, GeneratorExpr))


def _unseen_reads(scope: Expression, known: frozenset[str]) -> Iterator[NameExpr]:
    """Names read inside ``scope`` (nested scopes included) that are neither bound there (or in
    ``known``) nor builtins."""
    _, inner, bound = _parts(scope)
    stack: list[tuple[Node, frozenset[str]]] = [(c, known | bound) for c in reversed(inner)]
    while stack:
        n, own = stack.pop()
        if isinstance(n, NameExpr):
            if n.name not in own and n.fullname and not n.fullname.startswith("builtins."):
                yield n
            continue
        if isinstance(n, Expression) and _is_scope(n):
            outside, more, names = _parts(n)
            stack.extend((c, own | names) for c in reversed(more))
            stack.extend((c, own) for c in reversed(outside))
            continue
        stack.extend((c, own) for c in reversed(child_exprs(n)))


def _outermost_scopes(root: Node, inlined: bool) -> Iterator[tuple[Expression, frozenset[str]]]:
    """The scopes opened in the kernel's own scope (nested ones are walked with them), with the
    names of the inlined comprehensions around them."""
    stack: list[tuple[Node, frozenset[str]]] = [(root, frozenset())]
    while stack:
        n, known = stack.pop()
        if isinstance(n, Expression) and _is_scope(n):
            outside, inside, names = _parts(n)
            if _own_scope(n, inlined):
                yield n, known
            else:  # inlined (PEP 709): runs in the kernel's scope, with its own loop names
                stack.extend((c, known | names) for c in reversed(inside))
            stack.extend((c, known) for c in reversed(outside))
            continue
        stack.extend((c, known) for c in reversed(child_exprs(n)))


def check_scope(api: CheckerPluginInterface, deco: Decorator) -> None:
    func = deco.func
    inlined = api.options.python_version >= _INLINED_FROM
    seen: set[tuple[str, int]] = set()  # one report per name and line
    for s in statements(func.body.body):
        if isinstance(s, (FuncDef, Decorator, OverloadedFuncDef)):
            inner = s.func if isinstance(s, Decorator) else s
            report(api, Finding(
                codes.KERNEL_SIGNATURE,
                f'jit kernel "{func.name}" defines the function "{inner.name}" in its body; the frontend rejects '
                "any nested def (RuntimeError: function nested is not allowed)",
                f'define "{inner.name}" at module level (with @pypto.frontend.function if it builds PyPTO ops) '
                "and call it from the kernel",
            ), inner)
            continue
        if not any(_is_scope(e) for e in expressions(s)):  # (kept per statement: most hold no scope)
            continue
        for scope, known in _outermost_scopes(s, inlined):
            for name in _unseen_reads(scope, known):
                if (name.name, name.line) in seen:
                    continue
                seen.add((name.name, name.line))
                report(api, Finding(
                    codes.KERNEL_SCOPE,
                    f'"{name.name}" is read inside a {_KIND[type(scope)]} in jit kernel "{func.name}"; the 0.2.0 '
                    "frontend evaluates kernel code with eval(..., {}, kernel names), so a nested scope sees only "
                    f"builtins and its own names: NameError: name '{name.name}' is not defined at trace time",
                    f"give it as a default: lambda ..., {name.name}={name.name}: ..." if isinstance(scope, LambdaExpr)
                    else "write a for loop instead (only the first for clause's iterable is evaluated outside "
                    "the comprehension)",
                ), name)
