"""Helpers and kernels of other modules, entered from the module being checked: traced from their
source (:mod:`..trace`, through :mod:`module_sources`) with the call's tensors and values and the
tiles in force at the call (rule: helper-runs-in-the-trace). What depends on the call (a finding
the body does not give when traced with its own declared parameters and unknown tiles, which its
own module reports) is reported here, at the call, with a note that names the line of the other
module and the call chain; the helper's result flows back into the caller.
"""

from __future__ import annotations

import ast
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mypy.nodes import (
    ARG_NAMED, ARG_POS, ARG_STAR, FUNC_NO_INFO, CallExpr, Context, Decorator, Expression, FuncDef, MypyFile, RefExpr,
)
from mypy.types import CallableType, Instance, LiteralType, NoneType, TupleType, Type, get_proper_type

from .. import config
from ..bridge import diagnostics
from ..bridge.folding import int_of_expr
from ..bridge.tensor_types import dtype_of_value, tensor_type, tensor_val
from ..host.call_check import fmt_binding
from ..knowledge.findings import Finding
from ..host.call_check import Parameters
from ..knowledge.tiles import HELPER_ENTRY, KERNEL_ENTRY, NOT_SET, TileState, fmt_cube, fmt_vec
from ..knowledge.values import TensorVal
from ..trace.arguments import Actual
from ..kernel.copies import Entry
from ..trace.run import Outcome, module_value, parameter_names, parameters, trace_function
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


@dataclass(frozen=True)
class HelperTrace:
    found: Outcome
    baseline: Outcome | None  # the body with its own declared parameters and unknown tiles
    where: str  # "in rows called here with x [8, 64] DT_FP32; entered with vec tile (8, 4)"


def helper_trace(api: object, call: CallExpr, module: str, name: str, entry: Entry | None,
                 in_kernel: bool, bound: Value | None = None, func: FuncDef | None = None) -> HelperTrace | None:
    """The helper ``module.name`` traced for this call (None: not traced: a call from host code
    with no tensor, an unreadable source, not a helper, arguments that do not fit). A method
    (``name`` is ``Class.method``) gets its object as ``bound`` and its definition as ``func``."""
    actuals = call_actuals(api, call)
    if actuals is None or not in_kernel and not any(isinstance(a.value, TensorVal) for a in actuals):
        return None
    source = module_sources.load(api, module)
    if source is None:
        return None
    if bound is not None:
        actuals = [Actual(bound, None), *actuals]
    given = parameters(source, name, actuals, Shared(options(), lambda other: module_sources.load(api, other)))
    if given is None:
        return None
    names = parameter_names(source, name)
    node = call.callee.node if isinstance(call.callee, RefExpr) else None
    declared = declared_params(func if func is not None else node.func if isinstance(node, Decorator) else
                               node if isinstance(node, FuncDef) else None, names)
    if bound is not None and names:
        declared[names[0]] = bound  # the object is the object, whatever the call
    params = {n: merged(declared.get(n, UNKNOWN), _from_flow(v, entry, n)) for n, v in given.items()}
    tiles = entry.tiles if entry is not None else HELPER_ENTRY
    vec_set = entry.vec_set_in_kernel if entry is not None else True
    found = trace(api, module, name, params, tiles, vec_set)
    if found is None:
        return None
    same = params == declared and tiles == HELPER_ENTRY and vec_set
    baseline = found if same else trace(api, module, name, declared, HELPER_ENTRY, True)
    shown = [n for n in names if bound is None or n != names[0]]
    return HelperTrace(found, baseline, f"in {name} called here with {fmt_params(params, shown)}{fmt_tiles(tiles)}")


def module_object(api: object, module: str, name: str) -> Value:
    """What a module-level name of a module of the build holds, as the tracer reads it (an object
    built by a class whose body it reads: ``LAYOUT = HeadLayout(HEADS, HEAD_DIM)``)."""
    source = module_sources.load(api, module)
    if source is None:
        return UNKNOWN
    return module_value(source, name, Shared(options(), lambda other: module_sources.load(api, other)))


def _from_flow(value: Value, entry: Entry | None, name: str) -> Value:
    """An argument the call's types leave unknown, as the caller's tile pass evaluated it (``[8] *
    2``, ``tile`` after ``tile[-1] = 4``): ints and int lists."""
    if value is not UNKNOWN or entry is None:
        return value
    given = entry.values.get(name)
    if isinstance(given, int):
        return given
    if isinstance(given, tuple):
        return Seq(tuple(i if i is not None else Num("int") for i in given), True)
    return value


def dtypes_written(api: object, module: str, name: str, tensors: list[str]) -> list[str] | None:
    """What each tensor parameter's annotation writes for the dtype, read from the kernel's source
    (kernel.parameters.written reads mypy's parse, which a cached kernel lacks): "" none, the
    ``DT_*`` name, or a variable's name."""
    source = module_sources.load(api, module)
    fdef = source.functions.get(name) if source is not None else None
    if fdef is None:
        return None
    args = {a.arg: a.annotation for a in [*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs]}
    return [_dtype_written(args.get(t)) for t in tensors]


def _dtype_written(annotation: ast.expr | None) -> str:
    if isinstance(annotation, ast.Call):
        items = list(annotation.args[1:2]) + [k.value for k in annotation.keywords if k.arg == "dtype"]
    elif isinstance(annotation, ast.Subscript):
        s = annotation.slice
        items = list(s.elts[1:2]) if isinstance(s, ast.Tuple) else []
    else:
        items = []
    if not items:
        return ""
    item = items[-1]
    if isinstance(item, ast.Attribute):
        return item.attr
    return item.id if isinstance(item, ast.Name) else "?"


def kernel_call(api: object, dec: Decorator, module: str, name: str, params: Parameters,
                vals: tuple[TensorVal, ...], where: Context, line: int) -> None:
    """A jit kernel of another module, called here with ``vals``: traced from its source as the
    frontend traces it at this call (rule: traced-with-call-tensors); what the call's tensors
    change is reported at the call."""
    source = module_sources.load(api, module)
    fdef = source.functions.get(name) if source is not None else None
    if source is None or fdef is None:
        return
    names = [a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs]]
    declared = declared_params(dec.func, names)
    tensor_names = [p.name for p in params.spec.tensors]
    given = dict(declared)
    given.update({n: v for n, v in zip(tensor_names, vals)})
    declared.update({n: v for n, v in zip(tensor_names, params.declared)})
    found = trace(api, module, name, given, KERNEL_ENTRY, None)
    if found is None:
        return
    baseline = trace(api, module, name, declared, KERNEL_ENTRY, None)
    report_new(api, where, found, baseline,
               f"in kernel {name}, traced with the tensors of this call: {fmt_binding(tensor_names, vals)}")


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

