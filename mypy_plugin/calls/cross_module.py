"""Helpers and kernels of other modules, entered from the module being checked: traced from their
source (:mod:`..trace`, through :mod:`module_sources`) with the call's tensors and values and the
tiles in force at the call (rule: helper-runs-in-the-trace). What depends on the call (a finding
the body does not give when traced with its own declared parameters and unknown tiles, which its
own module reports) is reported here, at the call, with a note that names the line of the other
module and the call chain; the helper's result flows back into the caller.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Final

from mypy.nodes import FUNC_NO_INFO, ARG_NAMED, ARG_POS, ARG_STAR, CallExpr, Context, Decorator, Expression, FuncDef, MypyFile
from mypy.types import CallableType, Instance, LiteralType, NoneType, TupleType, Type, get_proper_type

from .. import config
from ..bridge import diagnostics
from ..bridge.folding import int_of_expr
from ..bridge.tensor_types import dtype_of_value, tensor_type, tensor_val
from ..host.call_check import fmt_binding
from ..knowledge.findings import Finding
from ..knowledge.tiles import HELPER_ENTRY, NOT_SET, TileState, fmt_cube, fmt_vec
from ..knowledge.values import TensorVal
from ..trace.arguments import Actual
from ..trace.run import Outcome, trace_function
from ..trace.state import Options, Shared, Traced
from ..trace.values import NONE, UNKNOWN, DType, Num, Seq, Value
from . import module_sources

_MEMO_SIZE: Final = 512
# (module, digest, function, parameters, tiles, vec set, options) -> (the trace, the (module,
# digest) of every other module it read): digests key it, so it stays right across daemon updates
_MEMO: OrderedDict[tuple[object, ...], tuple[Outcome | None, tuple[tuple[str, str], ...]]] = OrderedDict()


def other_module_function(api: object, node: object) -> tuple[str, str] | None:
    """(module, name) of a module-level function of another module of this build."""
    func = node.func if isinstance(node, Decorator) else node
    tree = getattr(api, "tree", None)
    if not isinstance(func, FuncDef) or not isinstance(tree, MypyFile) or func.info is not FUNC_NO_INFO:
        return None
    module, _, name = func.fullname.rpartition(".")
    modules = getattr(api, "modules", {})
    if not module or module == tree.fullname or module not in modules:
        return None
    other = modules[module]
    sym = other.names.get(name) if isinstance(other, MypyFile) else None
    return (module, name) if sym is not None and sym.node is node else None


def may_be_helper(node: object) -> bool:
    """A module-level function (its body may be in mypy's cache only: the trace reads the source),
    not a jit kernel (that is a host call)."""
    func = node.func if isinstance(node, Decorator) else node
    return isinstance(func, FuncDef) and func.info is FUNC_NO_INFO and "." in func.fullname


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


def options() -> Options:
    c = config.active()
    return Options(c.has_reduce_align_rule, c.reduce_align_fallback, c.has_dynamic_dim_rules)


def trace(api: object, module: str, name: str, params: dict[str, Value], tiles: TileState,
          vec_set: bool | None) -> Outcome | None:
    """``module``'s function ``name`` traced with ``params`` and entered with ``tiles`` (memoised
    while none of the sources it read changed)."""
    source = module_sources.load(api, module)
    if source is None:
        return None
    key = (module, source.digest, name, tuple(sorted(params.items(), key=lambda kv: kv[0])), tiles, vec_set, options())
    try:
        hash(key)
    except TypeError:
        return None
    memo = _MEMO.get(key)
    if memo is not None and all(_digest(api, m) == d for m, d in memo[1]):  # (and records what it read)
        _MEMO.move_to_end(key)
        return memo[0]
    shared = Shared(options(), lambda other: module_sources.load(api, other))
    found = trace_function(source, name, params, tiles, vec_set, shared)
    _MEMO[key] = (found, tuple((m, t.digest) for m, t in sorted(shared.loaded.items()) if t is not None))
    if len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return found


def _digest(api: object, module: str) -> str | None:
    found = module_sources.load(api, module)
    return found.digest if found is not None else None


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


def merge_tensors(declared: TensorVal, actual: TensorVal) -> TensorVal | None:
    if declared.dtype is not None and actual.dtype is not None and declared.dtype != actual.dtype:
        return None
    dtype = declared.dtype or actual.dtype
    if declared.shape is None or actual.shape is None:
        return TensorVal(declared.shape or actual.shape, dtype)
    if len(declared.shape) != len(actual.shape):
        return None
    dims = []
    for d, a in zip(declared.shape, actual.shape):
        if isinstance(d, int) and isinstance(a, int) and d != a:
            return None
        dims.append(d if isinstance(d, int) else a if isinstance(a, int) else d)
    return TensorVal(tuple(dims), dtype)


def report_new(api: object, ctx: Context, found: Outcome, baseline: Outcome | None, where: str) -> None:
    """The findings of ``found`` that ``baseline`` does not have, at ``ctx``; ``where`` says which
    call of what, for the note."""
    seen = {_key(f) for f in baseline.findings} if baseline is not None else set()
    msg = getattr(api, "msg")
    path = getattr(api, "path", "")
    existing = {(e.line, e.message) for e in msg.errors.error_info_map.get(path, ())}
    for f in found.findings:
        if _key(f) in seen or (ctx.line, f.message) in existing:
            continue
        existing.add((ctx.line, f.message))
        info = diagnostics.report(api, Finding(f.finding.code, f.message, f.finding.note), ctx)  # type: ignore[arg-type]
        if info is not None:
            chain = "".join(f", through {v}" for v in f.via)
            msg.note(f"at {_display(f.path)}:{f.line}{chain}, {where}", ctx, code=info.code, parent_error=info)


def _key(f: Traced) -> tuple[object, ...]:
    return (f.module, f.line, f.column, f.finding.code.name, f.message)


def _display(path: str) -> str:
    p = Path(path)
    try:
        return str(p.relative_to(Path.cwd())) if p.is_absolute() else path
    except ValueError:
        return path


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

