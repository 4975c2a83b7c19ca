"""Traced expressions, in Python's order: names, constants, attributes, operators, indexing and
displays. Calls are :mod:`.calls`' (a subclass); what an op does is the op table's
(:meth:`.calls.CallTracer.apply`)."""

from __future__ import annotations

import ast
from typing import Final

from ..knowledge.dtypes import DTYPES
from ..knowledge import member_findings
from ..knowledge.members import MISSING, torch_transpose
from ..knowledge.shapes import DYNAMIC
from ..knowledge.values import MAX_REPEAT, TensorVal
from .arguments import Actual
from .index_keys import KeyTracer
from .names import constant as _constant
from .numbers import BIN, number_op
from .values import (
    NONE, UNKNOWN, DType, Func, Method, ModuleRef, Num, Obj, Range, Ref, Seq, SymDim, Value, dims_of_shape, is_int,
    is_symbolic, join,
)

_CMP: Final[dict[type, tuple[str, str]]] = {  # comparison -> (its dunder, the reflected one)
    ast.Eq: ("eq", "eq"), ast.NotEq: ("ne", "ne"), ast.Lt: ("lt", "gt"), ast.Gt: ("gt", "lt"),
    ast.LtE: ("le", "ge"), ast.GtE: ("ge", "le"),
}


class ExpressionTracer(KeyTracer):
    def expr(self, node: ast.expr) -> Value:
        method = getattr(self, f"_e_{type(node).__name__}", None)
        if method is None:
            self.children(node)
            return UNKNOWN
        value: Value = method(node)
        self.seen(node, value)
        return value

    def children(self, node: ast.AST) -> None:
        """Evaluate what an expression we do not model holds (its ops still run and are checked)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) and not isinstance(child, (ast.Lambda,)):
                if isinstance(child, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                    continue  # their own scope: not traced
                self.expr(child)

    def _e_Constant(self, node: ast.Constant) -> Value:
        return _constant(node.value)

    def _e_Name(self, node: ast.Name) -> Value:
        return self.name(node)

    def _e_Attribute(self, node: ast.Attribute) -> Value:
        return self.attribute(self.expr(node.value), node.attr, node)

    def attribute(self, base: Value, attr: str, node: ast.expr) -> Value:
        if isinstance(base, TensorVal):
            if attr == "shape":
                return dims_of_shape(base.shape) if base.shape is not None else UNKNOWN
            if attr == "dtype":
                return DType(base.dtype) if base.dtype is not None else UNKNOWN
            if attr == "dim":  # a property: the rank
                return len(base.shape) if base.shape is not None else Num("int")
            if attr == "T":  # (its own module reports it where it knows a tensor): torch's meaning after
                expr = ast.unparse(node.value) if isinstance(node, ast.Attribute) else None
                rank = len(base.shape) if base.shape is not None else None
                self.report(node, member_findings.transpose(member_findings.describe(base), expr, rank, None))
                return torch_transpose(base)
            if attr in MISSING and MISSING[attr].attribute:
                expr = ast.unparse(node.value) if isinstance(node, ast.Attribute) else None
                self.report(node, member_findings.no_method(attr, member_findings.describe(base), expr, expr))
            return UNKNOWN
        if isinstance(base, Ref):
            full = f"{base.fullname}.{attr}"
            if full.startswith("pypto.") and attr in DTYPES:
                return DType(attr)
            if full in ("pypto.DYNAMIC", "pypto.DYN"):
                return SymDim(DYNAMIC)
            if full == "pypto.STATIC":
                return Num("int")
            return Ref(full)
        if isinstance(base, Obj):
            found = base.get(attr)
            if found is not None:
                return found
            member = self.class_attribute(base.cls, attr)
            return Method(member, base) if isinstance(member, Func) else member
        if isinstance(base, ModuleRef):
            other = self.load(base.name)
            if other is not None and other.bound(attr):
                return self.global_name(other, attr, 1)
            return ModuleRef(f"{base.name}.{attr}") if other is None or other.is_package else UNKNOWN
        if isinstance(base, Seq) and attr in ("append", "extend"):
            return UNKNOWN
        return UNKNOWN

    def _e_BinOp(self, node: ast.BinOp) -> Value:
        left, right = self.expr(node.left), self.expr(node.right)
        return self.binary(node, node.op, left, right, node.left, node.right)

    def binary(self, node: ast.AST, op: ast.operator, left: Value, right: Value,
               left_node: ast.expr, right_node: ast.expr, inplace: bool = False) -> Value:
        dunder, _ = BIN.get(type(op), ("", ""))
        if isinstance(left, TensorVal):
            name = f"__i{dunder}__" if inplace and self.has_op(f"__i{dunder}__") else f"__{dunder}__"
            return self.apply(name, True, [Actual(left, left_node), Actual(right, right_node)], node)
        if isinstance(right, TensorVal):
            if left is UNKNOWN:
                return UNKNOWN  # mypy gives up on an operator with an Any operand: so do we
            return self.apply(f"__r{dunder}__", True, [Actual(right, right_node), Actual(left, left_node)], node)
        if isinstance(left, Seq) and isinstance(right, Seq) and isinstance(op, ast.Add):
            return Seq(left.items + right.items, left.is_list)
        if isinstance(left, Seq) and is_int(right) and isinstance(op, ast.Mult) and 0 <= right <= MAX_REPEAT:  # type: ignore[operator]
            return Seq(left.items * right, left.is_list)  # type: ignore[operator]
        return number_op(op, left, right)

    def _e_UnaryOp(self, node: ast.UnaryOp) -> Value:
        v = self.expr(node.operand)
        if isinstance(v, TensorVal):
            if isinstance(node.op, ast.USub):
                return self.apply("__neg__", True, [Actual(v, node.operand)], node)
            return self.apply("__pos__", True, [Actual(v, node.operand)], node) if isinstance(node.op, ast.UAdd) \
                else UNKNOWN
        if isinstance(node.op, ast.USub) and (is_int(v) or type(v) is float):
            return -v  # type: ignore[operator]
        if isinstance(node.op, ast.Not) and type(v) is bool:
            return not v
        return v if isinstance(v, Num) and not isinstance(node.op, ast.Not) else UNKNOWN

    def _e_BoolOp(self, node: ast.BoolOp) -> Value:
        values = [self.expr(v) for v in node.values]
        if any(is_symbolic(v) for v in values):
            return Num("symbolic")
        if all(type(v) is bool for v in values):
            return all(values) if isinstance(node.op, ast.And) else any(values)
        return UNKNOWN

    def _e_Compare(self, node: ast.Compare) -> Value:
        left = self.expr(node.left)
        rights = [self.expr(c) for c in node.comparators]
        if len(rights) != 1:
            return UNKNOWN
        right, op = rights[0], node.ops[0]
        if isinstance(op, (ast.Is, ast.IsNot)):
            same = _identical(left, right)
            return UNKNOWN if same is None else same == isinstance(op, ast.Is)
        if isinstance(left, DType) and isinstance(right, DType) and isinstance(op, (ast.Eq, ast.NotEq)):
            return (left == right) == isinstance(op, ast.Eq)
        names = _CMP.get(type(op))
        if names is None:
            return UNKNOWN
        if isinstance(left, TensorVal):
            return self.apply(f"__{names[0]}__", True, [Actual(left, node.left), Actual(right, node.comparators[0])], node)
        if isinstance(right, TensorVal):
            if left is UNKNOWN:
                return UNKNOWN
            return self.apply(f"__{names[1]}__", True, [Actual(right, node.comparators[0]), Actual(left, node.left)], node)
        if is_symbolic(left) or is_symbolic(right):
            return Num("symbolic")
        if is_int(left) and is_int(right):
            return {"eq": left == right, "ne": left != right, "lt": left < right, "gt": left > right,  # type: ignore[operator]
                    "le": left <= right, "ge": left >= right}[names[0]]  # type: ignore[operator]
        return UNKNOWN

    def _e_IfExp(self, node: ast.IfExp) -> Value:
        test = self.expr(node.test)
        if type(test) is bool:
            return self.expr(node.body if test else node.orelse)
        silent = 0 if is_symbolic(test) else 1  # as an ``if`` statement (statements.py)
        self.silent += silent
        try:
            return join(self.expr(node.body), self.expr(node.orelse))
        finally:
            self.silent -= silent

    def _e_Tuple(self, node: ast.Tuple) -> Value:
        return self.display(node.elts, False)

    def _e_List(self, node: ast.List) -> Value:
        return self.display(node.elts, True)

    def display(self, elts: list[ast.expr], is_list: bool) -> Value:
        items: list[Value] = []
        known = True
        for e in elts:
            if isinstance(e, ast.Starred):
                v = self.expr(e.value)
                if isinstance(v, Seq):
                    items.extend(v.items)
                else:
                    known = False
            else:
                items.append(self.expr(e))
        return Seq(tuple(items), is_list) if known else UNKNOWN

    def _e_Subscript(self, node: ast.Subscript) -> Value:
        base = self.expr(node.value)
        if isinstance(base, TensorVal):
            keys = self.index_keys(node.slice)
            return self.apply("__getitem__", True, [Actual(base, node.value), Actual(UNKNOWN, node.slice)], node, keys=keys)
        index = self.expr(node.slice) if not isinstance(node.slice, ast.Slice) else UNKNOWN
        if isinstance(base, Seq) and is_int(index) and -len(base.items) <= index < len(base.items):  # type: ignore[operator]
            return base.items[index]  # type: ignore[index]
        if isinstance(node.slice, ast.Slice):
            self.children(node.slice)
        return UNKNOWN

    def _e_ListComp(self, node: ast.ListComp) -> Value:
        """``[128 for _ in range(rank)]``, ``[d * 2 for d in dims]``: one ``for`` over known items,
        no condition; anything else is unknown."""
        if len(node.generators) != 1 or node.generators[0].ifs or node.generators[0].is_async:
            return UNKNOWN
        gen = node.generators[0]
        it = self.expr(gen.iter)
        items = list(it.items) if isinstance(it, Seq) else list(it.items) if isinstance(it, Range) and \
            it.items is not None else None
        if items is None or not isinstance(gen.target, ast.Name) or len(items) > 64:
            return UNKNOWN
        name, saved = gen.target.id, self.env.get(gen.target.id)
        out: list[Value] = []
        try:
            for item in items:
                self.env[name] = item
                out.append(self.expr(node.elt))
        finally:
            if saved is None:
                self.env.pop(name, None)
            else:
                self.env[name] = saved
        return Seq(tuple(out), True)

    def _e_Starred(self, node: ast.Starred) -> Value:
        self.expr(node.value)
        return UNKNOWN

    def _e_NamedExpr(self, node: ast.NamedExpr) -> Value:
        v = self.expr(node.value)
        if isinstance(node.target, ast.Name):
            self.env[node.target.id] = v
        return v


def _identical(a: Value, b: Value) -> bool | None:
    """``a is b`` where one side is None and the other is known."""
    if a is NONE and b is NONE:
        return True
    for x, y in ((a, b), (b, a)):
        if x is NONE and y is not UNKNOWN and not isinstance(y, (Ref, ModuleRef)):
            return False
    return None
