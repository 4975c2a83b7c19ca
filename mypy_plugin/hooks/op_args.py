"""The arguments of one op call, read from mypy's call context as plain values.

Implements :class:`knowledge.ops.Args`. A method call puts its receiver first, so index 0
is the first tensor for free functions, methods and operators alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Union, cast

from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    ArgKind,
    CallExpr,
    ComparisonExpr,
    Expression,
    IndexExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    TupleExpr,
)
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Instance, LiteralType, TupleType, Type, get_proper_type

from ..bridge.expr_text import expr_text
from ..bridge.folding import bool_of_expr, int_of_expr, int_of_type, number_kind
from ..bridge.tensor_types import dtype_of_value, is_scalar_type, tensor_val
from ..kernel.local_linear import HasLinearNames
from ..kernel.local_lists import ShapeLists
from ..kernel.local_numbers import HasLocalNumbers
from ..kernel.loop_defs import HasLoopDefs
from .operand_facts import is_number_operand, operand_type
from ..knowledge.ops import Key, TensorVal
from ..knowledge.shapes import Dim, is_dynamic
from .index_keys import key_of
from .shape_args import dim_of, dims_of, is_shape_attr
from .tensor_lists import tensor_list_of

_Slot = tuple[Union[Type, None], Union[Expression, None]]


class CallArgs:
    def __init__(
        self,
        names: list[str | None],
        slots: list[list[_Slot]],
        stars: list[list[bool]],
        receiver: Type | None,
        receiver_expr: Expression | None,
        expr_type: Callable[[Expression], Type] | None,
        recorded_type: Callable[[Expression], Type | None] | None = None,
    ) -> None:
        self.expr_type = expr_type
        self.recorded_type = recorded_type  # mypy's type map: an expression's type where it was checked
        self._tensors: dict[tuple[Key, int], TensorVal | None] = {}  # the checks ask repeatedly
        self.names = names
        self.slots = slots
        self.stars = stars
        self.receiver = receiver
        self.receiver_expr = receiver_expr
        self.lists: ShapeLists | None = None  # the function's shape lists, read as their displays
        self.linear: HasLinearNames | None = None  # its index names bound to int arithmetic
        self.numbers: HasLocalNumbers | None = None  # its names bound once to number arithmetic
        self.loops: HasLoopDefs | None = None  # the values a name may hold at a read (pypto.loop runs)

    def local_dim(self, e: NameExpr) -> Dim:
        """A name bound once to a dim of a shape (``b, s, h = x.shape``, ``n = x.shape[1]``): that
        dim of the tensor's type where ``.shape`` is read (None: unknown, or dynamic)."""
        found = self.lists.dim_source(e) if self.lists is not None else None
        if found is None:
            return None
        member, i, rank = found
        shape = self._shape_of(member)
        if shape is None or (rank is not None and len(shape) != rank) or not -len(shape) <= i < len(shape):
            return None
        return shape[i]

    def expand(self, e: NameExpr) -> Expression | None:
        return self.linear.linear_names.expand(e) if self.linear is not None else None

    def local_int(self, e: NameExpr) -> int | None:
        d = self.local_dim(e)
        return d if isinstance(d, int) else None

    def _shown(self, s: _Slot) -> _Slot:
        """A slot whose name stands for a shape list: the list display instead."""
        shown = self.lists.display(s[1]) if self.lists is not None else None
        return s if shown is None else (None, shown)

    @classmethod
    def of_function(cls, ctx: FunctionContext) -> CallArgs:
        return cls(
            list(ctx.callee_arg_names),
            _slots(ctx.arg_types, ctx.args),
            _kinds(ctx.arg_kinds),
            None,
            None,
            _expr_typer(ctx),
            _recorded(ctx),
        )

    @classmethod
    def of_method(cls, ctx: MethodContext) -> CallArgs:
        receiver_expr = None
        context = ctx.context
        if isinstance(context, CallExpr) and isinstance(context.callee, MemberExpr):
            receiver_expr = context.callee.expr
        elif isinstance(context, (OpExpr, IndexExpr)):
            receiver_expr = context.left if isinstance(context, OpExpr) else context.base
        return cls(
            [None, *ctx.callee_arg_names],
            [[(ctx.type, receiver_expr)], *_slots(ctx.arg_types, ctx.args)],
            [[False], *_kinds(ctx.arg_kinds)],
            ctx.type,
            receiver_expr,
            _expr_typer(ctx),
            _recorded(ctx),
        )

    @classmethod
    def of_reflected(cls, ctx: MethodContext, other_name: str) -> CallArgs | None:
        """``2.0 == t``: ``float.__eq__`` gives way to ``t.__eq__(2.0)``, so the tensor (the one
        argument) is the receiver and the number the other operand. None unless the context is a
        two-operand comparison with one argument."""
        context = ctx.context
        if not isinstance(context, ComparisonExpr) or len(context.operands) != 2:
            return None
        if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
            return None
        left, right = context.operands
        tensor = ctx.arg_types[0][0]
        return cls(
            [None, other_name],
            [[(tensor, right)], [(ctx.type, left)]],
            [[False], [False]],
            tensor,
            right,
            _expr_typer(ctx),
            _recorded(ctx),
        )

    @classmethod
    def of_torch_method(cls, ctx: MethodContext, params: tuple[str, ...]) -> CallArgs | None:
        """A missing member, declared ``(*args, **kwargs)`` in the stubs: its arguments put on
        torch's parameters ``params``. None when they do not fit (an unpacked ``*xs``, an
        unknown keyword, too many): then nothing is founded."""
        slots: list[list[_Slot]] = [[] for _ in params]
        pos = 0
        for kinds, names, types, exprs in zip(ctx.arg_kinds, ctx.arg_names, ctx.arg_types, ctx.args):
            for kind, name, typ, expr in zip(kinds, names, types, exprs):
                if kind in (ARG_STAR, ARG_STAR2):
                    return None
                if name is None:
                    i, pos = pos, pos + 1
                elif name in params:
                    i = params.index(name)
                else:
                    return None
                if i >= len(params) or slots[i]:
                    return None
                slots[i] = [(typ, expr)]
        method = cls.of_method(ctx)
        return cls(
            [None, *params], [method.slots[0], *slots], [[False], *[[False] * len(s) for s in slots]],
            method.receiver, method.receiver_expr, method.expr_type, method.recorded_type,
        )

    # --- lookup ---------------------------------------------------------------------
    def _slot(self, key: Key, pos: int) -> _Slot | None:
        if isinstance(key, str) and key in self.names:
            i = self.names.index(key)
            if self.slots[i] and not self.stars[i][0]:
                return self.slots[i][0]
        if pos < len(self.slots) and self.slots[pos] and not self.stars[pos][0]:
            return self.slots[pos][0]
        return None

    def operand_types(self) -> list[Type | None]:
        """The receiver's and every argument's type (for op coverage: are the tensors known?); None
        for an ``Any`` operand that is provably a number."""
        return [self.receiver, *(None if self._number(s) else self._type(s) for slot in self.slots for s in slot)]

    def _type(self, s: _Slot) -> Type | None:
        return operand_type(s[0], s[1], self.loops, self.recorded_type)

    def _number(self, s: _Slot) -> bool:
        return is_number_operand(s[0], s[1], self.numbers, self.recorded_type)

    def given(self, key: Key, pos: int) -> bool:
        return self._slot(key, pos) is not None

    def tensor(self, key: Key, pos: int) -> TensorVal | None:
        if (key, pos) not in self._tensors:
            s = self._slot(key, pos)
            self._tensors[(key, pos)] = tensor_val(self._type(s)) if s is not None else None
        return self._tensors[(key, pos)]

    def scalar(self, key: Key, pos: int) -> bool:
        """A Python number, SymbolicScalar or Element: never a tensor. (An ``Any`` may be one.)"""
        s = self._slot(key, pos)
        return s is not None and s[0] is not None and (is_scalar_type(s[0]) or self._number(s))

    def python_int(self, key: Key, pos: int) -> bool:
        s = self._slot(key, pos)
        p = get_proper_type(s[0]) if s is not None and s[0] is not None else None
        if isinstance(p, LiteralType):
            p = p.fallback
        return isinstance(p, Instance) and p.type.fullname == "builtins.int"

    def number_kind(self, key: Key, pos: int) -> str | None:
        s = self._slot(key, pos)
        return number_kind(s[1], s[0]) if s is not None else None

    def int_value(self, key: Key, pos: int) -> int | None:
        s = self._slot(key, pos)
        if s is None:
            return None
        v = int_of_expr(s[1], local=self.local_int)
        return v if v is not None else int_of_type(s[0])

    def bool_value(self, key: Key, pos: int, default: bool) -> bool | None:
        s = self._slot(key, pos)
        return default if s is None else bool_of_expr(s[1])

    def dtype(self, key: Key, pos: int) -> str | None:
        s = self._slot(key, pos)
        return dtype_of_value(s[0]) if s is not None else None

    def dims(self, key: Key, pos: int) -> list[Dim] | None:
        s = self._slot(key, pos)
        if s is None:
            return None
        t, e = self._shown(s)
        shape = self._shape_of(e) if is_shape_attr(e) else None
        return shape if shape is not None else dims_of(e, t, self.local_dim)

    def _shape_of(self, e: Expression | None) -> list[Dim] | None:
        """``t.shape`` of a tensor of known rank: its dims, from the type mypy recorded for ``t``
        where ``.shape`` is read (a name bound to it earlier: there, not the name's type now). A
        dynamic dim is a SymbolicScalar at trace time, not the -1 an annotation's DYNAMIC stands
        for: unknown here."""
        if not isinstance(e, MemberExpr) or self.recorded_type is None:
            return None
        t = self.recorded_type(e.expr)
        val = tensor_val(t) if t is not None else None
        if val is None or val.shape is None:
            return None
        return [None if is_dynamic(d) else d for d in val.shape]

    def varargs_dims(self, pos: int) -> list[Dim] | None:
        """``zeros(*size)``: ints, or one sequence."""
        if pos >= len(self.slots) or not self.slots[pos]:
            return None
        slots = self.slots[pos]
        if len(slots) == 1:
            t, e = self._shown(slots[0])
            shape = self._shape_of(e) if is_shape_attr(e) else None
            if shape is not None:
                return shape
            seq = dims_of(e, t, self.local_dim)
            if seq is not None and isinstance(e, (ListExpr, TupleExpr)):
                return seq
        return [dim_of(e, t, self.local_dim) for t, e in slots]

    def tensor_list(self, key: Key, pos: int) -> list[TensorVal] | None:
        s = self._slot(key, pos)
        if s is None or self.expr_type is None:
            return None
        return tensor_list_of(s[1], self.expr_type, self.local_int)

    def source(self, key: Key, pos: int) -> str | None:
        s = self._slot(key, pos)
        e = s[1] if s is not None else None
        if isinstance(e, NameExpr):
            return e.name
        if isinstance(e, MemberExpr):
            parts = [e.name]
            base: Expression = e.expr
            while isinstance(base, MemberExpr):
                parts.append(base.name)
                base = base.expr
            if isinstance(base, NameExpr):
                return ".".join([base.name, *reversed(parts)])
        return None

    def text(self, key: Key, pos: int) -> str | None:
        s = self._slot(key, pos)
        return expr_text(s[1]) if s is not None and s[1] is not None else None

    def index_keys(self) -> list[object]:
        s = self._slot("key", 1) or self._slot("index", 1)
        e = s[1] if s is not None else None
        if e is None:
            return [None]
        # The key's type is already known (mypy checked it before this hook): use its items.
        key_type = get_proper_type(s[0]) if s is not None and s[0] is not None else None
        if isinstance(e, TupleExpr):
            types: list[Type | None] = (
                list(key_type.items) if isinstance(key_type, TupleType) and len(key_type.items) == len(e.items)
                else [None] * len(e.items)
            )
            return [key_of(i, t, self.local_int, self.expand) for i, t in zip(e.items, types)]
        return [key_of(e, key_type, self.local_int, self.expand)]


def _slots(types: list[list[Type]], exprs: list[list[Expression]]) -> list[list[_Slot]]:
    return [list(zip(ts, es)) for ts, es in zip(types, exprs)]


def _kinds(kinds: list[list[ArgKind]]) -> list[list[bool]]:
    """Per formal: is each actual a ``*args`` spread (its position is then unknown)."""
    return [[k is ARG_STAR for k in ks] for ks in kinds]


def _recorded(ctx: FunctionContext | MethodContext) -> Callable[[Expression], Type | None] | None:
    lookup = getattr(ctx.api, "lookup_type_or_none", None)
    if lookup is None:
        return None

    def recorded(e: Expression) -> Type | None:
        return cast("Type | None", lookup(e))

    return recorded


def _expr_typer(ctx: FunctionContext | MethodContext) -> Callable[[Expression], Type] | None:
    get = getattr(ctx.api, "get_expression_type", None)
    if get is None:
        return None

    def typer(e: Expression) -> Type:
        return cast(Type, get(e))

    return typer
