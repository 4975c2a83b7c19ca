"""An expression as the code writes it, from mypy's tree, for messages and notes that quote it
(``pypto.transpose(h * 2.0, 0, 1)`` for ``(h * 2.0).T``); None for a form it does not spell.

mypy keeps no source text in its tree, so the text is rebuilt: the same names, operators and
literals, with the parentheses Python's precedence needs (redundant ones the author wrote are
dropped, and a float may print in another spelling: ``1e-6`` as ``1e-06``).
"""

from __future__ import annotations

from typing import Final

from mypy.nodes import (
    ARG_NAMED,
    ARG_STAR,
    ARG_STAR2,
    CallExpr,
    ComparisonExpr,
    ConditionalExpr,
    EllipsisExpr,
    Expression,
    FloatExpr,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    SliceExpr,
    StrExpr,
    TupleExpr,
    UnaryExpr,
)

# Python's binding strength: a higher number binds tighter.
_CONDITIONAL: Final = 1
_BINARY: Final = {
    "or": 2, "and": 3, "|": 6, "^": 7, "&": 8, "<<": 9, ">>": 9, "+": 10, "-": 10,
    "*": 11, "@": 11, "/": 11, "//": 11, "%": 11, "**": 13,
}
_NOT: Final = 4
_COMPARISON: Final = 5
_UNARY: Final = 12
_PRIMARY: Final = 15
_MAX_DEPTH: Final = 40  # deeper trees are not quoted (and never recursed into)


def expr_text(e: Expression) -> str | None:
    """``e`` as written (without outer parentheses), or None."""
    found = _render(e, 0)
    return found[0] if found is not None else None


def operand_text(e: Expression) -> str | None:
    """``e`` as it reads as the receiver of an attribute or an operand: parenthesized unless it is
    a name, a literal, a call, an attribute or a subscript (``(h * 2.0)``, ``x.shape``)."""
    return _at_least(e, _PRIMARY, 0)


def _at_least(e: Expression, strength: int, depth: int) -> str | None:
    found = _render(e, depth + 1)
    if found is None:
        return None
    text, own = found
    return text if own >= strength else f"({text})"


def _render(e: Expression, depth: int) -> tuple[str, int] | None:
    """(text, binding strength of its outermost operator)."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(e, NameExpr):
        return e.name, _PRIMARY
    if isinstance(e, (IntExpr, FloatExpr)):
        return repr(e.value), _PRIMARY if e.value >= 0 else _UNARY
    if isinstance(e, StrExpr):
        return repr(e.value), _PRIMARY
    if isinstance(e, EllipsisExpr):
        return "...", _PRIMARY
    if isinstance(e, MemberExpr):
        base = _at_least(e.expr, _PRIMARY, depth)
        return (f"{base}.{e.name}", _PRIMARY) if base is not None else None
    if isinstance(e, IndexExpr):
        base, index = _at_least(e.base, _PRIMARY, depth), _subscript(e.index, depth)
        return (f"{base}[{index}]", _PRIMARY) if base is not None and index is not None else None
    if isinstance(e, CallExpr):
        return _call(e, depth)
    if isinstance(e, OpExpr) and e.op in _BINARY:
        return _binary(e, depth)
    if isinstance(e, UnaryExpr):
        strength = _NOT if e.op == "not" else _UNARY
        operand = _at_least(e.expr, strength, depth)
        sep = " " if e.op == "not" else ""
        return (f"{e.op}{sep}{operand}", strength) if operand is not None else None
    if isinstance(e, ComparisonExpr):
        parts = [_at_least(o, _COMPARISON + 1, depth) for o in e.operands]
        if any(p is None for p in parts):
            return None
        text = str(parts[0]) + "".join(f" {op} {p}" for op, p in zip(e.operators, parts[1:]))
        return text, _COMPARISON
    if isinstance(e, ConditionalExpr):
        then, cond = _at_least(e.if_expr, _CONDITIONAL + 1, depth), _at_least(e.cond, _CONDITIONAL + 1, depth)
        other = _at_least(e.else_expr, _CONDITIONAL, depth)
        if then is None or cond is None or other is None:
            return None
        return f"{then} if {cond} else {other}", _CONDITIONAL
    if isinstance(e, (ListExpr, TupleExpr)):
        items = _items(e.items, depth)
        if items is None:
            return None
        if isinstance(e, ListExpr):
            return f"[{items}]", _PRIMARY
        return f"({items}{',' if len(e.items) == 1 else ''})", _PRIMARY
    return None


def _binary(e: OpExpr, depth: int) -> tuple[str, int] | None:
    strength = _BINARY[e.op]
    # Left-associative operators: the right operand needs parentheses at the same strength;
    # ** is right-associative, and its right operand may be a unary minus (2 ** -1).
    left_min, right_min = (strength + 1, _UNARY) if e.op == "**" else (strength, strength + 1)
    left, right = _at_least(e.left, left_min, depth), _at_least(e.right, right_min, depth)
    return (f"{left} {e.op} {right}", strength) if left is not None and right is not None else None


def _call(e: CallExpr, depth: int) -> tuple[str, int] | None:
    callee = _at_least(e.callee, _PRIMARY, depth)
    if callee is None:
        return None
    args = []
    for arg, kind, name in zip(e.args, e.arg_kinds, e.arg_names):
        text = _at_least(arg, _CONDITIONAL, depth)
        if text is None:
            return None
        prefix = "*" if kind == ARG_STAR else "**" if kind == ARG_STAR2 else f"{name}=" if kind == ARG_NAMED else ""
        args.append(prefix + text)
    return f"{callee}({', '.join(args)})", _PRIMARY


def _items(items: list[Expression], depth: int) -> str | None:
    parts = [_at_least(i, _CONDITIONAL, depth) for i in items]
    return None if any(p is None for p in parts) else ", ".join(str(p) for p in parts)


def _subscript(index: Expression, depth: int) -> str | None:
    if isinstance(index, TupleExpr) and index.items:
        parts = [_slice(i, depth) for i in index.items]
        return None if any(p is None for p in parts) else ", ".join(str(p) for p in parts)
    return _slice(index, depth)


def _slice(e: Expression, depth: int) -> str | None:
    if not isinstance(e, SliceExpr):
        return _at_least(e, _CONDITIONAL, depth)
    parts = []
    for part in (e.begin_index, e.end_index, e.stride):
        text = _at_least(part, _CONDITIONAL, depth) if part is not None else ""
        if text is None:
            return None
        parts.append(text)
    return ":".join(parts if e.stride is not None else parts[:2])
