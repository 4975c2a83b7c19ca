"""The int and int-list values a function's locals hold, for the tile pass: ``rank = x.dim``,
``tile = [8] * len(a.shape)``, ``tile = [1] * (rank - 1) + [64]``, ``t = [128 for _ in range(rank)]``
then ``t[-1] = 2048``, and a helper's parameter that received ``[16, 128]`` from its caller.

A local is followed only while every binding of it is a plain ``name = value`` (or an item
assignment of a list), in program order (the tile pass carries the values with the tiles); any
other binding (a loop target, ``with ... as``, a walrus, ``+=``, ``del``, an unpacking) and any
nested definition or lambda in the function leave it unknown. A list that escapes (passed to a
call that could change it, a method call) is forgotten from that point on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, Union

from mypy.nodes import (
    AssignmentExpr,
    AssignmentStmt,
    CallExpr,
    ClassDef,
    Decorator,
    DelStmt,
    Expression,
    ForStmt,
    FuncDef,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    RefExpr,
    StarExpr,
    TupleExpr,
    UnaryExpr,
    Var,
    WithStmt,
)
from mypy.types import Type

from ..bridge.folding import Read, int_of_expr, int_of_type
from ..bridge.tensor_types import tensor_val
from ..knowledge.arith import fold
from .body_walk import expressions, statements

Ints = tuple[Union[int, None], ...]
SHAPE: Final = ".shape"  # a given value's key suffix: the dims of the tensor a parameter receives
Value = Union[int, Ints]
# id(Var) -> value; a frozen, sorted tuple so a flow state stays hashable and comparable.
Locals = tuple[tuple[int, Value], ...]

_MAX_LEN: Final = 16  # a tile has one entry per dim: a longer list is not a tile


def followed_var_nodes(func: FuncDef) -> tuple[frozenset[Var], frozenset[Var]]:
    """The locals (and parameters) of ``func`` whose every binding is ``name = value`` (the only
    ones the pass may give a value; none when ``func`` defines a function or lambda: a closure
    could rebind or change them), and every local of ``func`` (a copy of ``func`` maps them to its
    own: ``copies.followed_vars_of``)."""
    bound: set[Var] = {a.variable for a in func.arguments}
    spoiled: set[Var] = set()
    closure = False
    for s in statements(func.body.body):
        if isinstance(s, (FuncDef, Decorator, ClassDef)):
            closure = True
        if isinstance(s, AssignmentStmt):
            plain = len(s.lvalues) == 1 and (isinstance(s.lvalues[0], NameExpr) or unpacked_names(s.lvalues[0]))
            for lv in s.lvalues:
                for name in _bound_names(lv):
                    if isinstance(name.node, Var):
                        (bound if plain else spoiled).add(name.node)
        elif isinstance(s, (ForStmt, WithStmt, OperatorAssignmentStmt, DelStmt)):
            targets: list[Expression] = (
                [s.index] if isinstance(s, ForStmt) else [t for t in s.target if t is not None]
                if isinstance(s, WithStmt) else [s.lvalue] if isinstance(s, OperatorAssignmentStmt) else [s.expr])
            spoiled.update(n.node for t in targets for n in _bound_names(t) if isinstance(n.node, Var))
        for e in expressions(s):
            if isinstance(e, LambdaExpr):
                closure = True
            if isinstance(e, AssignmentExpr) and isinstance(e.target.node, Var):
                spoiled.add(e.target.node)
    every = frozenset(bound | spoiled)
    return (frozenset() if closure else frozenset(bound - spoiled)), every


def _bound_names(target: Expression) -> list[NameExpr]:
    """The names a binding target binds (not the base of ``t[i] = v``: that changes ``t``)."""
    if isinstance(target, NameExpr):
        return [target]
    if isinstance(target, (TupleExpr, ListExpr)):
        return [n for item in target.items for n in _bound_names(item)]
    if isinstance(target, StarExpr):
        return _bound_names(target.expr)
    return []


def unpacked_names(target: Expression) -> list[NameExpr] | None:
    """``b, s, h = ...``: the names of a flat tuple target (no star, no nesting); None otherwise."""
    if not isinstance(target, (TupleExpr, ListExpr)) or not target.items:
        return None
    names = [t for t in target.items if isinstance(t, NameExpr)]
    return names if len(names) == len(target.items) else None


def with_value(state: Locals, var: int, value: Value | None) -> Locals:
    kept = [(k, v) for k, v in state if k != var]
    if value is not None:
        kept.append((var, value))
    return tuple(sorted(kept))


def lookup(state: Locals, var: int) -> Value | None:
    for k, v in state:
        if k == var:
            return v
    return None


def set_item(value: Ints, index: int, item: int | None) -> Ints | None:
    if not -len(value) <= index < len(value):
        return None
    items = list(value)
    items[index] = item
    return tuple(items)


class Evaluator:
    """Values of expressions in one function, given the locals' values at that point."""

    def __init__(self, func: FuncDef, followed: frozenset[int], local: frozenset[int], read: Read,
                 given_shapes: Mapping[str, Ints], reader: str | None = None) -> None:
        self.followed = followed
        self.local = local
        # (a copy's parameters are not marked ``is_argument``: TransformVisitor leaves that out)
        self.params = frozenset(id(a.variable) for a in func.arguments)
        self.read = read
        self.reader = reader  # whose values these are (coverage names the constants it could not read)
        # parameter name -> the dims of the tensor the call passes (the helper's walk for its
        # effect on the caller: an unannotated parameter's type says nothing)
        self.given_shapes = given_shapes

    def int_(self, e: Expression, state: Locals) -> int | None:
        v = self.value(e, state)
        return v if isinstance(v, int) else None

    def ints(self, e: Expression, state: Locals) -> Ints | None:
        v = self.value(e, state)
        return v if isinstance(v, tuple) else None

    def value(self, e: Expression, state: Locals, depth: int = 0) -> Value | None:
        if depth > 32:
            return None
        if isinstance(e, IntExpr):
            return e.value
        if isinstance(e, NameExpr) and isinstance(e.node, Var) and self._is_local(e.node):
            return lookup(state, id(e.node))
        # (built after the commonest cases, a literal or a local name, are answered)
        sub: Callable[[Expression], Value | None] = lambda x: self.value(x, state, depth + 1)  # noqa: E731
        if isinstance(e, (ListExpr, TupleExpr)):
            return self._display(e.items, sub)
        if isinstance(e, UnaryExpr) and e.op == "-":
            inner = sub(e.expr)
            return -inner if isinstance(inner, int) else None
        if isinstance(e, OpExpr):
            return _binary(e.op, sub(e.left), sub(e.right))
        if isinstance(e, CallExpr):
            return self._call(e, sub)
        if isinstance(e, MemberExpr) and e.name in ("dim", "ndim", "shape"):
            dims = self._shape(e.expr)
            return None if dims is None else dims if e.name == "shape" else len(dims)
        if isinstance(e, IndexExpr):
            base, index = sub(e.base), sub(e.index)
            if isinstance(base, tuple) and isinstance(index, int) and -len(base) <= index < len(base):
                return base[index]
            return None
        if isinstance(e, ListComprehension):
            return self._repeat(e, sub)
        if isinstance(e, RefExpr) and isinstance(e.node, Var) and not self._is_local(e.node):
            return int_of_expr(e, self.read, reader=self.reader)  # a module constant
        return None

    def _is_local(self, var: Var) -> bool:
        # Locals are followed (or unknown); anything else is a constant int_of_expr may read.
        return id(var) in self.local or id(var) in self.params

    @staticmethod
    def _display(items: list[Expression], sub: Callable[[Expression], Value | None]) -> Ints | None:
        out: list[int | None] = []
        for item in items:
            if isinstance(item, StarExpr):
                spread = sub(item.expr)
                if not isinstance(spread, tuple):
                    return None
                out.extend(spread)
            else:
                v = sub(item)
                out.append(v if isinstance(v, int) else None)
        return tuple(out) if len(out) <= _MAX_LEN else None

    def _call(self, e: CallExpr, sub: Callable[[Expression], Value | None]) -> Value | None:
        callee = e.callee
        if not isinstance(callee, RefExpr) or len(e.args) != 1:
            return None
        arg = sub(e.args[0])
        if callee.fullname == "builtins.len":
            return len(arg) if isinstance(arg, tuple) else None
        if callee.fullname in ("builtins.list", "builtins.tuple"):
            return arg if isinstance(arg, tuple) else None
        return None

    def _repeat(self, e: ListComprehension, sub: Callable[[Expression], Value | None]) -> Ints | None:
        """``[c for _ in range(n)]`` with ``c`` not depending on the loop variable."""
        g = e.generator
        if len(g.indices) != 1 or any(g.condlists) or not isinstance(g.indices[0], NameExpr):
            return None
        seq = g.sequences[0]
        if not (isinstance(seq, CallExpr) and isinstance(seq.callee, RefExpr)
                and seq.callee.fullname == "builtins.range" and len(seq.args) == 1):
            return None
        n = sub(seq.args[0])
        index = g.indices[0].node
        if any(isinstance(x, NameExpr) and x.node is index for x in expressions(g.left_expr)):
            return None
        item = sub(g.left_expr)
        if not isinstance(n, int) or not 0 <= n <= _MAX_LEN:
            return None
        return (item if isinstance(item, int) else None,) * n

    def _shape(self, e: Expression) -> Ints | None:
        """The dims of a parameter's tensor (its declared type, or the call's tensors in a copy)."""
        if not (isinstance(e, NameExpr) and isinstance(e.node, Var) and id(e.node) in self.params):
            return None
        declared = self.read(e.node, "type")
        tensor = tensor_val(declared) if isinstance(declared, Type) else None
        if tensor is None or tensor.shape is None:
            return self.given_shapes.get(e.node.name)
        return tuple(d if isinstance(d, int) else None for d in tensor.shape)

    def shape_of(self, e: Expression) -> Ints | None:
        return self._shape(e)


def _binary(op: str, a: Value | None, b: Value | None) -> Value | None:
    if isinstance(a, int) and isinstance(b, int):
        return fold(op, a, b)
    if op == "+" and isinstance(a, tuple) and isinstance(b, tuple):
        joined = a + b
        return joined if len(joined) <= _MAX_LEN else None
    if op == "*":
        seq, n = (a, b) if isinstance(a, tuple) else (b, a)
        if isinstance(seq, tuple) and isinstance(n, int) and 0 <= n * len(seq) <= _MAX_LEN:
            return seq * max(n, 0)
    return None


def param_value(declared: Type | None) -> int | None:
    """A parameter's value from its type: an int the call passed (``int`` with a known value)."""
    return int_of_type(declared) if declared is not None else None


def shapes_given(given: Mapping[str, Value]) -> dict[str, Ints]:
    """Parameter name -> the dims of the tensor the call passes (the ``SHAPE`` keys of ``given``)."""
    return {k[:-len(SHAPE)]: v for k, v in given.items() if k.endswith(SHAPE) and isinstance(v, tuple)}


def entry_locals(func: FuncDef, followed: frozenset[int], given: Mapping[str, Value], read: Read) -> Locals:
    """The parameters' values when the function is entered: ints from their types, lists the
    caller passed."""
    state: Locals = ()
    for arg in func.arguments:
        var = arg.variable
        if id(var) not in followed:
            continue
        declared = read(var, "type")
        value: Value | None = given.get(var.name)
        if value is None and isinstance(declared, Type):
            value = param_value(declared)
        state = with_value(state, id(var), value)
    return state
