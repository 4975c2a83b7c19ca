"""A call's arguments as the body tracer's values (:mod:`..trace.values`), from mypy's types of
the call (and the caller's tile pass, for int lists its types do not carry); a parameter as the
callee's own signature declares it; and how the notes show them."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import (
    ARG_NAMED, ARG_POS, ARG_STAR, CallExpr, Expression, FuncDef, ListExpr, MemberExpr, NameExpr, OpExpr,
)
from mypy.types import CallableType, Instance, LiteralType, NoneType, TupleType, Type, get_proper_type

from ..bridge.folding import int_of_expr, int_of_type
from ..bridge.tensor_types import dtype_of_value, tensor_val
from ..host.call_check import fmt_binding
from ..kernel.copies import Entry
from ..knowledge.tiles import HELPER_ENTRY, NOT_SET, TileState, fmt_cube, fmt_vec
from ..knowledge.arith import fold
from ..knowledge.values import TensorVal, merge_tensors
from ..trace.arguments import Actual
from ..trace.values import NONE, UNKNOWN, DType, Num, Seq, Value


Lookup = Callable[[Expression], Type | None]


def value_of(t: Type | None, e: Expression | None = None, lookup: Lookup | None = None) -> Value:
    """What the tracer knows of an argument, from its type (and its expression, for a list of ints:
    ``[16, 16]``, ``[8] * 2``, ``[1] * (a.dim - 1) + [64]``)."""
    v = tensor_val(t)
    if v is not None:
        return v
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, LiteralType) and type(p.value) in (int, bool):
        return p.value  # type: ignore[return-value]
    if isinstance(p, NoneType):
        return NONE
    if isinstance(p, TupleType):
        return Seq(tuple(value_of(i) for i in p.items), False)
    if isinstance(p, Instance):
        if p.last_known_value is not None and type(p.last_known_value.value) in (int, bool):
            return p.last_known_value.value  # type: ignore[return-value]
        dtype = dtype_of_value(p)
        if dtype is not None:
            return DType(dtype)
        name = p.type.fullname
        if name == "builtins.int" and e is not None:  # a method's call has no tile-pass values: ``a.dim``
            n = _int(e, lookup)
            if n is not None:
                return n
        if name == "builtins.list" and e is not None:
            items = _int_list(e, lookup)
            known = [i for i in items if i is not None] if items is not None else []
            return Seq(tuple(known), True) if items is not None and len(known) == len(items) else UNKNOWN
        return {"builtins.int": Num("int"), "builtins.float": Num("float"),
                "pypto.SymbolicScalar": Num("symbolic")}.get(name, UNKNOWN)
    return UNKNOWN


def _int_list(e: Expression, lookup: Lookup | None, depth: int = 0) -> list[int | None] | None:
    """The items of a list expression of ints, through + and * (None: not such an expression).
    A method's call gives the tracer no tile-pass values: its list arguments are read here."""
    if isinstance(e, ListExpr):
        return [_int(i, lookup) for i in e.items]
    if not isinstance(e, OpExpr) or depth > 8:
        return None
    if e.op == "+":
        a, b = _int_list(e.left, lookup, depth + 1), _int_list(e.right, lookup, depth + 1)
        return None if a is None or b is None else a + b
    if e.op == "*":
        for items, count in ((e.left, e.right), (e.right, e.left)):
            found, n = _int_list(items, lookup, depth + 1), _int(count, lookup)
            if found is not None and n is not None and 0 <= n <= 64:
                return found * n
    return None


def _int(e: Expression, lookup: Lookup | None, depth: int = 0) -> int | None:
    """An int expression's value: folded, its type's literal, or a tensor's rank (``a.dim``,
    ``len(a.shape)``)."""
    v = int_of_expr(e)
    if v is None and lookup is not None:
        v = int_of_type(lookup(e))
        ranked = e.expr if isinstance(e, MemberExpr) and e.name == "dim" else None
        if isinstance(e, CallExpr) and isinstance(e.callee, NameExpr) and e.callee.fullname == "builtins.len" \
                and len(e.args) == 1 and isinstance(e.args[0], MemberExpr) and e.args[0].name == "shape":
            ranked = e.args[0].expr
        tensor = tensor_val(lookup(ranked)) if v is None and ranked is not None else None
        if tensor is not None and tensor.shape is not None:
            v = len(tensor.shape)
    if v is None and isinstance(e, OpExpr) and depth < 8:
        a, b = _int(e.left, lookup, depth + 1), _int(e.right, lookup, depth + 1)
        v = None if a is None or b is None else fold(e.op, a, b)
    return v


def from_flow(value: Value, entry: Entry | None, name: str) -> Value:
    """An argument the call's types leave unknown, as the caller's tile pass evaluated it (``[8] *
    2``, ``tile`` after ``tile[-1] = 4``): ints and int lists."""
    if value is not UNKNOWN and not isinstance(value, Num) or entry is None:
        return value  # (an int of unknown value: the pass may know it, ``a.dim``)
    given = entry.values.get(name)
    if isinstance(given, int):
        return given
    if isinstance(given, tuple):
        return Seq(tuple(i if i is not None else Num("int") for i in given), True)
    return value


def declared_params(func: FuncDef | None, names: list[str]) -> dict[str, Value]:
    """The parameters as the function's own signature gives them (what its module checks it with)."""
    typ = func.type if func is not None and isinstance(func.type, CallableType) else None
    out: dict[str, Value] = {}
    for i, n in enumerate(names):
        declared = typ.arg_types[i] if typ is not None and i < len(typ.arg_types) else None
        out[n] = value_of(declared) if declared is not None else UNKNOWN
    return out


def call_actuals(api: object, call: CallExpr) -> list[Actual] | None:
    lookup = getattr(api, "lookup_type_or_none", None)
    if lookup is None:
        return None
    out: list[Actual] = []
    for arg, kind, name in zip(call.args, call.arg_kinds, call.arg_names):
        t = lookup(arg)
        if kind == ARG_POS:
            out.append(Actual(value_of(t, arg, lookup), None))
        elif kind == ARG_NAMED and name is not None:
            out.append(Actual(value_of(t, arg, lookup), None, keyword=name))
        elif kind == ARG_STAR:
            out.append(Actual(value_of(t, arg, lookup), None, starred=True))
        else:
            return None  # **kwargs: which parameters it fills is not known
    return out


def merged(declared: Value, actual: Value) -> Value:
    """A parameter at this call: the call's value where it says more than the signature (a tensor
    whose declared shape or dtype the call's contradicts keeps the declared one)."""
    if isinstance(declared, TensorVal) and isinstance(actual, TensorVal):
        m = merge_tensors(declared, actual)
        return m if m is not None else declared
    if declared is UNKNOWN or isinstance(declared, Num) and not isinstance(actual, TensorVal):
        return actual if actual is not UNKNOWN else declared
    return declared


def fmt_params(params: dict[str, Value], names: list[str]) -> str:
    tensors = [(n, params[n]) for n in names if isinstance(params.get(n), TensorVal)]
    parts = [fmt_binding([n for n, _ in tensors], tuple(v for _, v in tensors))] if tensors else []  # type: ignore[misc]
    parts += [f"{n}={params[n]!r}" for n in names if type(params.get(n)) in (int, bool)]
    return "; ".join(parts)


def fmt_tiles(tiles: TileState) -> str:
    if tiles == HELPER_ENTRY:
        return ""
    vec = "no vec tile set" if tiles.vec is NOT_SET else f"vec tile {fmt_vec(tiles.vec)}" \
        if isinstance(tiles.vec, tuple) else ""
    cube = f"cube tile {fmt_cube(tiles.cube)}" if isinstance(tiles.cube, tuple) else ""
    text = ", ".join(p for p in (vec, cube) if p)
    return f"; entered with {text}" if text else ""
