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
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from mypy.errors import ErrorInfo
from mypy.nodes import (
    FUNC_NO_INFO, CallExpr, Context, Decorator, FuncDef, MypyFile, RefExpr,
)

from .. import config, insight
from ..bridge import diagnostics
from ..bridge.tensor_types import tensor_val
from ..host.call_check import fmt_binding
from ..knowledge.codes import op_codes
from ..knowledge.findings import Finding
from ..host.call_check import Parameters
from ..knowledge.tiles import HELPER_ENTRY, KERNEL_ENTRY, TileState
from ..knowledge.values import TensorVal
from ..trace.arguments import Actual
from ..kernel.copies import Entry
from ..kernel.local_buffers import LocalBuffers
from ..kernel.root_causes import ALSO
from ..trace.modules import TracedModule
from ..trace.run import Outcome, module_value, parameter_names, parameters, trace_function
from ..trace.state import OpRecord, Options, Shared, Traced
from ..trace.values import UNKNOWN, Value
from . import coverage, module_sources, op_coverage
from .call_values import call_actuals, declared_params, fmt_params, fmt_tiles, from_flow, merged

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


def options() -> Options:
    c = config.active()
    return Options(c.has_reduce_align_rule, c.reduce_align_fallback, c.has_dynamic_dim_rules)


def trace(api: object, module: str, name: str, params: dict[str, Value], tiles: TileState,
          vec_set: bool | None, mirror: bool = False, into: tuple[bool, str | None] | None = None
          ) -> Outcome | None:
    """``module``'s function ``name`` traced with ``params`` and entered with ``tiles`` (memoised
    while none of the sources it read changed); ``mirror``: as its own module's check sees it;
    ``into``: the caller writes the result whole into an output."""
    return trace_and_reads(api, module, name, params, tiles, vec_set, mirror, into)[0]


def trace_and_reads(api: object, module: str, name: str, params: dict[str, Value], tiles: TileState,
                    vec_set: bool | None, mirror: bool = False, into: tuple[bool, str | None] | None = None
                    ) -> tuple[Outcome | None, tuple[tuple[str, str], ...]]:
    """:func:`trace`, and the (module, digest) of every source the trace read."""
    source = module_sources.load(api, module)
    if source is None:
        return None, ()
    recording, observing = coverage.active() is not None, insight.is_recording()
    key = (module, source.digest, name, tuple(sorted(params.items(), key=lambda kv: kv[0])), tiles, vec_set, options(),
           mirror, into, recording, observing)
    try:
        hash(key)
    except TypeError:
        return None, ()
    memo = _MEMO.get(key)
    if memo is not None and all(digest(api, m) == d for m, d in memo[1]):  # (and records what it read)
        _MEMO.move_to_end(key)
        return memo
    shared = _shared(api, [] if recording else None)
    seen: dict[tuple[int, int, int, int], tuple[TensorVal, TileState]] = {}
    if observing:  # for the language server: the tensors and tiles of the function's own module
        def observe(traced: TracedModule, node: ast.expr, value: Value, at: TileState) -> None:
            end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
            if traced.name == module and isinstance(value, TensorVal) and end_line is not None and end_col is not None:
                seen[(node.lineno, node.col_offset, end_line, end_col)] = (value, at)
        shared.observe = observe
    found = trace_function(source, name, params, tiles, vec_set, shared, mirror=mirror, returns_into=into)
    if found is not None and seen:
        found = replace(found, seen=tuple((where, v, at) for where, (v, at) in seen.items()))
    answer = _MEMO[key] = (found, tuple((m, t.digest) for m, t in sorted(shared.loaded.items()) if t is not None))
    if len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return answer


def _shared(api: object, ops: list[OpRecord] | None = None) -> Shared:
    """A trace's state, reading other modules through the sources of ``api``'s build."""
    return Shared(options(), lambda other: module_sources.load(api, other), ops=ops)


def bind(api: object, source: TracedModule, name: str, actuals: list[Actual]) -> dict[str, Value] | None:
    """What a call with ``actuals`` binds the parameters of ``source``'s function ``name`` to (None:
    not a helper, or the call does not fit it)."""
    return parameters(source, name, actuals, _shared(api))


def digest(api: object, module: str) -> str | None:
    """The digest of ``module``'s source as mypy analyzed it now (None: not readable)."""
    found = module_sources.load(api, module)
    return found.digest if found is not None else None


@dataclass(frozen=True)
class HelperTrace:
    found: Outcome
    baseline: Outcome | None  # the body with its own declared parameters and unknown tiles
    where: str  # "in rows called here with x [8, 64] DT_FP32; entered with vec tile (8, 4)"


def helper_trace(api: object, call: CallExpr, module: str, name: str, entry_at: Callable[[], Entry | None],
                 in_kernel: Callable[[], bool], bound: Value | None = None,
                 func: FuncDef | None = None) -> HelperTrace | None:
    """The helper ``module.name`` traced for this call (None: not traced: a call from host code
    with no tensor, an unreadable source, not a helper, arguments that do not fit). A method
    (``name`` is ``Class.method``) gets its object as ``bound`` and its definition as ``func``.
    ``in_kernel`` (is the call in a kernel's trace) and ``entry_at`` (what the call enters the
    helper with: the caller's tile pass) are asked only when needed, so a call from code that
    never uses PyPTO costs neither."""
    tensors = _passes_a_tensor(api, call)
    if not tensors and not in_kernel():
        return None  # host code with no tensor (told from the arguments' types, no value read)
    actuals = call_actuals(api, call)
    if actuals is None:
        return None
    source = module_sources.load(api, module)
    if source is None:
        return None
    if bound is not None:
        actuals = [Actual(bound, None), *actuals]
    given = bind(api, source, name, actuals)
    if given is None:
        return None
    entry = entry_at()
    names = parameter_names(source, name)
    node = call.callee.node if isinstance(call.callee, RefExpr) else None
    declared = declared_params(func if func is not None else node.func if isinstance(node, Decorator) else
                               node if isinstance(node, FuncDef) else None, names)
    if bound is not None and names:
        declared[names[0]] = bound  # the object is the object, whatever the call
    params = {n: merged(declared.get(n, UNKNOWN), from_flow(v, entry, n)) for n, v in given.items()}
    tiles = entry.tiles if entry is not None else HELPER_ENTRY
    vec_set = entry.vec_set_in_kernel if entry is not None else True
    into = _into_output(api, call)
    found = trace(api, module, name, params, tiles, vec_set, into=into)
    if found is None:
        return None
    same = params == declared and tiles == HELPER_ENTRY and vec_set and into is None
    # what the helper's own module reports (a call its check does not enter is the caller's);
    # only what the call's trace finds is taken from it: none needed when it finds nothing
    baseline = found if same or not found.findings else trace(api, module, name, declared, HELPER_ENTRY, True,
                                                              mirror=True)
    shown = [n for n in names if bound is None or n != names[0]]
    return HelperTrace(found, baseline, f"in {name} called here with {fmt_params(params, shown)}{fmt_tiles(tiles)}")


def _passes_a_tensor(api: object, call: CallExpr) -> bool:
    """Is an argument of the call a PyPTO tensor (its type; an argument's value is a tensor exactly
    when its type is, :func:`call_values.value_of`)? True when the types cannot be read."""
    lookup = getattr(api, "lookup_type_or_none", None)
    return lookup is None or any(tensor_val(lookup(a)) is not None for a in call.args)


def _into_output(api: object, call: CallExpr) -> tuple[bool, str | None] | None:
    """(True, the output's dtype) when the caller writes the call's result whole into an output
    (``out[:] = rows(x)``, or through a name): a copy the helper returns is then that output."""
    scope = getattr(api, "scope", None)
    func = scope.current_function() if scope is not None else None
    if not isinstance(func, FuncDef):
        return None
    if not _BUFFERS or _BUFFERS[0].func is not func:
        _BUFFERS[:] = [LocalBuffers(func)]  # the hooks come one function at a time
    buffers = _BUFFERS[0]
    return (True, buffers.output_dtype(call)) if buffers.moved_into_output(call) else None


_BUFFERS: list[LocalBuffers] = []


def module_object(api: object, module: str, name: str) -> Value:
    """What a module-level name of a module of the build holds, as the tracer reads it (an object
    built by a class whose body it reads: ``LAYOUT = HeadLayout(HEADS, HEAD_DIM)``)."""
    source = module_sources.load(api, module)
    if source is None:
        return UNKNOWN
    key = (module, source.digest, name, options())
    found = _OBJECTS.get(key)
    if found is None or not all(digest(api, m) == d for m, d in found[1]):  # (and records what it read)
        shared = _shared(api)
        value = module_value(source, name, shared)
        found = _OBJECTS[key] = (value, tuple((m, t.digest) for m, t in sorted(shared.loaded.items()) if t is not None))
        if len(_OBJECTS) > _MEMO_SIZE:
            _OBJECTS.pop(next(iter(_OBJECTS)))
    return found[0]


# (module, digest, name, options) -> (the value, what it read): as _MEMO
_OBJECTS: dict[tuple[object, ...], tuple[Value, tuple[tuple[str, str], ...]]] = {}


def dtypes_written(api: object, module: str, name: str, tensors: list[str]) -> list[str] | None:
    """What each tensor parameter's annotation writes for the dtype, read from the kernel's source
    (kernel.parameters.written reads mypy's parse, which a cached kernel lacks): "" none, the
    ``DT_*`` name, or a variable's name."""
    written = module_sources.kernel_dtypes(api, module, name)
    return None if written is None else [written.get(t, "") for t in tensors]


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
    # The declared tensors' trace only takes away what the kernel's own check reports: no need
    # (nor any source to depend on) when the call's trace finds nothing.
    baseline = trace(api, module, name, declared, KERNEL_ENTRY, None) if found.findings else None
    op_coverage.record_traced(op_coverage.function_key(source.path, dec.func), found.ops)
    note = f"in kernel {name}, traced with the tensors of this call: {fmt_binding(tensor_names, vals)}"
    report_new(api, where, found, baseline, note)
    if insight.is_recording():
        _for_tools(api, dec, source.path, fdef, given, found, f"the call at {_display(getattr(api, 'path', ''))}:{line}", note)


def _for_tools(api: object, dec: Decorator, path: str, fdef: ast.FunctionDef | ast.AsyncFunctionDef,
               params: dict[str, Value], found: Outcome, label: str, note: str) -> None:
    """What the trace saw in the kernel (its parameters and tensor expressions), for the language
    server's hover (``insight.copies``). A parameter's place is mypy's (the rewrite of annotations
    may move its end), an expression's the source's (the rewrite leaves bodies as they are)."""
    tensors: dict[insight.Span, TensorVal] = {}
    tiles: dict[insight.Span, TileState] = {}
    for arg in dec.func.arguments:
        val = params.get(arg.variable.name)
        if isinstance(val, TensorVal) and arg.line > 0:
            tensors[insight.span(arg)], tiles[insight.span(arg)] = val, KERNEL_ENTRY
    for (line, column, end_line, end_column), val, at in found.seen:
        where = insight.Span(line, column, end_line, end_column)
        tensors[where], tiles[where] = val, at
    insight.traced_call(getattr(api, "path", ""), path, (fdef.name, fdef.lineno), label, note, tensors, tiles)


def report_new(api: object, ctx: Context, found: Outcome, baseline: Outcome | None, where: str) -> None:
    """The findings of ``found`` that ``baseline`` does not have, at ``ctx``; ``where`` says which
    call of what, for the note. One per root cause (kernel.root_causes): the first finding of a
    cause is reported, the later ones are named in its note."""
    seen = {_key(f) for f in baseline.findings} if baseline is not None else set()
    msg = getattr(api, "msg")
    path = getattr(api, "path", "")
    existing = {(e.line, e.message) for e in msg.errors.error_info_map.get(path, ())}
    firsts: dict[str, tuple[ErrorInfo, list[str]]] = {}
    for f in found.findings:
        if _key(f) in seen or (ctx.line, f.message) in existing:
            continue
        cause = f.finding.cause
        at = f"{_display(f.path)}:{f.line}"
        if cause is not None and cause in firsts:
            firsts[cause][1].append(f"{f.label or f.finding.code.name} ({at})")
            continue
        existing.add((ctx.line, f.message))
        info = diagnostics.report(api, Finding(f.finding.code, f.message, f.finding.note), ctx)  # type: ignore[arg-type]
        if info is not None:
            chain = "".join(f", through {v}" for v in f.via)
            msg.note(f"at {at}{chain}, {where}", ctx, code=info.code, parent_error=info)
            if cause is not None:
                firsts[cause] = (info, [])
    for info, later in firsts.values():
        if later:
            msg.note(ALSO + "; ".join(later), ctx, code=info.code, parent_error=info)


# A missing member is one whatever the receiver's shape (the message names the shape it knows).
_ANY_SHAPE: Final = frozenset(c.name for c in (op_codes.NO_METHOD, op_codes.TRANSPOSE))


def _key(f: Traced) -> tuple[object, ...]:
    code = f.finding.code.name
    return (f.module, f.line, f.column, code, "" if code in _ANY_SHAPE else f.message)


def _display(path: str) -> str:
    p = Path(path)
    try:
        return str(p.relative_to(Path.cwd())) if p.is_absolute() else path
    except ValueError:
        return path


