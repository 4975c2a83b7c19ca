"""The ``--fix-style`` rewrites of one module: functional ops become operators (``operators``),
call-form annotations become subscripts (``subscript``). Each gives the new module and where its
rewritten expressions are, for :mod:`.styles` to check them; nothing that spans lines or holds
a comment is touched, so lines and comments stay."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import libcst as cst

from .locate import Located, dotted

_OPERATORS: Final[dict[str, cst.BaseBinaryOp]] = {
    "add": cst.Add(), "sub": cst.Subtract(), "mul": cst.Multiply(), "div": cst.Divide(),  # spaced " + "
}
# Python's binding strength of the binary operators (higher binds tighter).
_PRECEDENCE: Final[dict[type[cst.BaseBinaryOp], int]] = {
    cst.BitOr: 1, cst.BitXor: 2, cst.BitAnd: 3, cst.LeftShift: 4, cst.RightShift: 4,
    cst.Add: 5, cst.Subtract: 5,
    cst.Multiply: 6, cst.Divide: 6, cst.FloorDivide: 6, cst.Modulo: 6, cst.MatrixMultiply: 6,
    cst.Power: 8,
}
# Where an expression needs no parentheses, whatever it is.
_BARE_PARENTS: Final = (cst.Arg, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Return, cst.Element, cst.Expr)
# Operands that bind tighter than any binary operator here (and -x, +x, ~x; not `not x`).
_ATOMS: Final = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString)


@dataclass
class Rewritten:
    module: cst.Module
    calls: list[tuple[int, int]] = field(default_factory=list)  # 1-based line, 0-based column of each call
    outer: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)  # call -> new operation


def operators(loc: Located, pypto: str, skip: frozenset[tuple[int, int]] = frozenset()) -> Rewritten | None:
    """``pypto.add(a, b)`` -> ``a + b`` (sub ``-``, mul ``*``, div ``/``), nested ones too, with the
    parentheses the nesting needs (``pypto.sub(a, pypto.sub(b, c))`` -> ``a - (b - c)``)."""
    calls = {
        n: _OPERATORS[name]
        for n in loc.positions
        if isinstance(n, cst.Call) and (name := _op_name(n, pypto)) is not None and _plain(loc, n)
        and (loc.positions[n].start.line, loc.positions[n].start.column) not in skip
    }
    if not calls:
        return None
    found: list[tuple[int, int]] = []
    outer: list[tuple[tuple[int, int], tuple[int, int]]] = []

    class _Ops(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            op = calls.get(original)
            if op is None:
                return updated
            left, right = (a.value for a in updated.args)
            new = cst.BinaryOperation(_operand(left, op, right=False), op, _operand(right, op, right=True))
            where = loc.positions[original].start
            found.append((where.line, where.column))
            parent = loc.parents.get(original)
            if isinstance(parent, cst.Arg) and loc.parents.get(parent) in calls:
                return new  # the enclosing rewrite decides on parentheses
            if not isinstance(parent, _BARE_PARENTS):
                new = new.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            outer.append(((where.line, where.column), (where.line, where.column + _lead(new))))
            return new

    return Rewritten(loc.module.visit(_Ops()), found, outer)


def _lead(node: cst.BaseExpression) -> int:
    """How many "(" precede the leftmost operand: mypy places an operation at that operand."""
    count = len(node.lpar)
    while isinstance(node, cst.BinaryOperation):
        node = node.left
        count += len(node.lpar)
    return count


def _op_name(call: cst.Call, pypto: str) -> str | None:
    name = dotted(call.func)
    if name is None or not name.startswith(f"{pypto}.") or name[len(pypto) + 1:] not in _OPERATORS:
        return None
    args = call.args
    if len(args) != 2 or any(a.keyword is not None or a.star for a in args) or call.lpar:
        return None  # alpha=, *args, or a parenthesised call (its position would not be the operator's)
    return name[len(pypto) + 1:]


def _plain(loc: Located, node: cst.CSTNode) -> bool:
    """On one line and without a comment inside."""
    where = loc.positions[node]
    return where.start.line == where.end.line and "#" not in loc.module.code_for_node(node)


def _operand(node: cst.BaseExpression, op: cst.BaseBinaryOp, *, right: bool) -> cst.BaseExpression:
    """``node`` as an operand of ``op``: parenthesised unless it binds tighter (on the right, an
    equal binding is parenthesised too: ``a - (b - c)``, and ``a + (b + c)`` keeps its rounding)."""
    if node.lpar or isinstance(node, _ATOMS):
        return node
    if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
        return node
    if isinstance(node, cst.BinaryOperation):
        mine, theirs = _PRECEDENCE[type(op)], _PRECEDENCE.get(type(node.operator), 0)
        if theirs > mine or theirs == mine and not right:
            return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


# ---- subscript: pypto.Tensor([8, 16], pypto.DT_FP32) -> pypto.Tensor[[8, 16], pypto.DT_FP32] --------

def subscript(loc: Located, pypto: str, skip: frozenset[tuple[int, int]] = frozenset()) -> Rewritten | None:
    """The kernel parameters' call-form annotations whose forms 0.2.0 compiles as subscripts too:
    a list or tuple of int literals, ``pypto.STATIC`` or a last ``...`` (or empty), a
    ``pypto.DT_*`` dtype, an optional name string. A form without a dtype is left (the call form
    takes the tensor's dtype, the subscript form FP32), and so are dynamic dims."""
    found: list[tuple[int, int]] = []
    targets = {
        p.annotation.annotation: p
        for p in loc.positions
        if isinstance(p, cst.Param) and p.annotation is not None
        and isinstance(p.annotation.annotation, cst.Call) and _subscriptable(p.annotation.annotation, pypto)
        and _plain(loc, p.annotation.annotation) and _in_kernel(loc, p)
        and (loc.positions[p.annotation.annotation].start.line, loc.positions[p.annotation.annotation].start.column)
        not in skip
    }
    if not targets:
        return None

    class _Annotations(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            if original not in targets:
                return updated
            where = loc.positions[original].start
            found.append((where.line, where.column))
            items = [cst.SubscriptElement(cst.Index(a.value), comma=a.comma) for a in updated.args]
            return cst.Subscript(value=updated.func, slice=items)

    return Rewritten(loc.module.visit(_Annotations()), found)


def _in_kernel(loc: Located, param: cst.Param) -> bool:
    """A parameter of a ``@...jit`` / ``@...jit(...)`` function (the frontend reads those annotations)."""
    func = next((a for a in loc.ancestors(param) if isinstance(a, (cst.FunctionDef, cst.Lambda))), None)
    if not isinstance(func, cst.FunctionDef):
        return False
    for d in func.decorators:
        target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
        if (dotted(target) or "").rsplit(".", 1)[-1] == "jit":
            return True
    return False


def _subscriptable(call: cst.Call, pypto: str) -> bool:
    args = call.args
    if dotted(call.func) != f"{pypto}.Tensor" or not 2 <= len(args) <= 3:
        return False
    if any(a.keyword is not None or a.star for a in args):
        return False
    shape, dtype = args[0].value, args[1].value
    if not isinstance(shape, (cst.List, cst.Tuple)) or not (dotted(dtype) or "").startswith(f"{pypto}.DT_"):
        return False
    if len(args) == 3 and not isinstance(args[2].value, cst.SimpleString):
        return False
    items = [e.value for e in shape.elements if not isinstance(e, cst.StarredElement)]
    if len(items) != len(shape.elements):
        return False
    for i, item in enumerate(items):
        last = i == len(items) - 1
        if isinstance(item, cst.Integer) or last and isinstance(item, cst.Ellipsis) and isinstance(shape, cst.List):
            continue
        if dotted(item) == f"{pypto}.STATIC" and isinstance(shape, cst.List):
            continue
        return False
    return True
