"""A call's arguments as the body tracer's values (:mod:`..trace.values`), from mypy's types of
the call (and the caller's tile pass, for int lists its types do not carry); a parameter as the
callee's own signature declares it; and how the notes show them."""

from __future__ import annotations

from mypy.nodes import ARG_NAMED, ARG_POS, ARG_STAR, CallExpr, Expression, FuncDef
from mypy.types import CallableType, Instance, LiteralType, NoneType, TupleType, Type, get_proper_type

from ..bridge.folding import int_of_expr
from ..bridge.tensor_types import dtype_of_value, tensor_val
from ..host.call_check import fmt_binding
from ..kernel.copies import Entry
from ..knowledge.tiles import HELPER_ENTRY, NOT_SET, TileState, fmt_cube, fmt_vec
from ..knowledge.values import TensorVal, merge_tensors
from ..trace.arguments import Actual
from ..trace.values import NONE, UNKNOWN, DType, Num, Seq, Value


def value_of(t: Type | None, e: Expression | None = None) -> Value:
    """What the tracer knows of an argument, from its type (and its expression, for a list of ints)."""
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
        if name == "builtins.list" and e is not None and hasattr(e, "items"):
            items = [int_of_expr(i) for i in getattr(e, "items")]
            return Seq(tuple(i if i is not None else Num("int") for i in items), True) if None not in items else UNKNOWN
        return {"builtins.int": Num("int"), "builtins.float": Num("float"),
                "pypto.SymbolicScalar": Num("symbolic")}.get(name, UNKNOWN)
    return UNKNOWN


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
            out.append(Actual(value_of(t, arg), None))
        elif kind == ARG_NAMED and name is not None:
            out.append(Actual(value_of(t, arg), None, keyword=name))
        elif kind == ARG_STAR:
            out.append(Actual(value_of(t, arg), None, starred=True))
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
