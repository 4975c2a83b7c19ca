"""Host calls of jit kernels: ``pypto-call-*`` at the call, then the kernel checked again with the
call's tensors (:mod:`specialize`).

Two ways in: the function hook on a call of a kernel mypy can see (module-level, imported, or
defined in the calling function), and the decorator hook of a kernel a factory defines and
returns (``k = make_kernel(64); k(x, out)``: mypy sees no kernel at that call). The tensors
come from :mod:`host_sites`. Unknown arguments stay unknown: no finding, no specialization.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Context, Decorator, Expression, FuncDef, MypyFile, RefExpr, Var
from mypy.plugin import FunctionContext
from mypy.types import CallableType, Type, UnionType, get_proper_type

from .. import config
from ..bridge.diagnostics import report
from ..debug import degrade
from ..host.call_check import at_call, checked_calls, findings, known_tensors, traced_with
from ..host.evaluate import CallSite
from ..kernel.decorators import checks_calls, jit_kernel
from ..knowledge.boundary.tensors import RAISES_AT_CALL
from ..knowledge.frontend import JIT_KERNEL_CHECKED_TYPE, JIT_KERNEL_TYPE
from ..kernel.parameters import call_parameters, kernel_parameters, written
from ..knowledge.values import TensorVal
from . import coverage, cross_module, specialize
from .host_sites import imported_modules, module_member, module_sites

# Fullnames of jit kernels defined inside functions (mypy names them by their bare name): the
# plugin cannot look those up, so their definitions register them for the call hook (which
# checks the callee again at each call: a stale name costs a lookup, never a wrong answer).
LOCAL_KERNELS: set[str] = set()
_KERNEL_MARKS = (JIT_KERNEL_TYPE, JIT_KERNEL_CHECKED_TYPE)


def kernel_call_hook(ctx: FunctionContext) -> Type:
    try:
        _check_call(ctx)
    except Exception as err:  # never crash mypy
        degrade(err)
    return ctx.default_return_type


def _check_call(ctx: FunctionContext) -> None:
    call = ctx.context
    if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr):
        return
    dec = jit_kernel(call.callee.node)
    if dec is None:
        return
    sites = module_sites(ctx.api).at.get((call.line, call.column), [])
    _check_sites(ctx.api, dec, sites, call)


def indirect_call_hook(ctx: FunctionContext) -> Type:
    """A call whose callee is an expression or a variable (``kernels["add"](...)``, ``f(...)`` in
    ``for f in kernels.values()``): mypy names the hook by a bare name. Another module's kernel called so is checked here, as a call by name
    would be (the kernel's own module checks its own: ``kernel_defined``)."""
    try:
        call = ctx.context
        callee = call.callee if isinstance(call, CallExpr) else None
        if callee is not None and (not isinstance(callee, RefExpr) or isinstance(callee.node, Var)) \
                and _may_hold_a_kernel(ctx.api, callee):
            sites = [s for s in module_sites(ctx.api).at.get((call.line, call.column), []) if s.indirect]
            for name in dict.fromkeys(s.kernel for s in sites):  # one callee may hold several kernels
                dec = _kernel_named(ctx.api, name)
                if dec is not None and not own_kernel(ctx.api, dec):
                    _check_sites(ctx.api, dec, [s for s in sites if s.kernel == name], call)
    except Exception as err:  # never crash mypy
        degrade(err)
    return ctx.default_return_type


def _may_hold_a_kernel(api: object, callee: Expression) -> bool:
    """Is the callee typed as a jit kernel (the decorator hook's mark, which mypy's cache keeps)?
    Other calls through a variable (callbacks everywhere) cost no host evaluation."""
    lookup = getattr(api, "lookup_type_or_none", None)
    t = get_proper_type(lookup(callee)) if lookup is not None else None
    items = t.items if isinstance(t, UnionType) else [t]
    return any(isinstance(p, CallableType) and p.fallback.type.fullname in _KERNEL_MARKS
               for p in map(get_proper_type, items) if p is not None)


def _kernel_named(api: object, text: str) -> Decorator | None:
    """The jit kernel a host site names (``add``, ``mod.add``), from this module's symbol table:
    the same answer whether the kernel's module was analyzed now or read from the cache."""
    module = getattr(api, "tree", None)
    if not isinstance(module, MypyFile):
        return None
    return jit_kernel(module_member(module, text, getattr(api, "modules", None), imported_modules(module)))


def kernel_defined(api: object, dec: Decorator) -> None:
    """From the decorator hook: remember a nested kernel's name, record coverage, and check the
    calls of the kernel when a factory of this module makes it."""
    if jit_kernel(dec) is None:
        return
    if "." not in dec.func.fullname and config.active().host_calls:
        LOCAL_KERNELS.add(dec.func.fullname)
        factory = _enclosing_function(api)
        if factory is not None:
            made = module_sites(api).of.get(f"{factory.name}.{dec.func.name}", [])
            if made:
                _check_sites(api, dec, made, None)
    elif config.active().host_calls and own_kernel(api, dec):
        # calls mypy sees no kernel at (a variable, functools.partial): checked from here
        indirect = [s for s in module_sites(api).of.get(dec.func.name, []) if s.indirect]
        if indirect:
            _check_sites(api, dec, indirect, None)
    if coverage.active() is None:
        return
    path = getattr(api, "path", None)
    if isinstance(path, str):
        params = kernel_parameters(dec.func)
        declared = None if params is None else list(zip((p.name for p in params.spec.tensors), params.declared))
        coverage.kernel_defined(path, dec.func.line, dec.func.name, declared, dec.func.fullname)


def _enclosing_function(api: object) -> FuncDef | None:
    """The module-level function being checked (TypeChecker internals; None if they move)."""
    scope = getattr(api, "scope", None)
    func = scope.current_function() if scope is not None else None
    module = getattr(api, "tree", None)
    if not isinstance(func, FuncDef) or not isinstance(module, MypyFile):
        return None
    sym = module.names.get(func.name)
    return func if sym is not None and sym.node is func else None


def _check_sites(api: object, dec: Decorator, sites: list[CallSite], call: Context | None) -> None:
    """Each site: boundary findings at the call (``call``, or the site's own position), then the
    kernel checked with the call's tensors when its body is in this module."""
    params = call_parameters(dec.func)
    if params is None:
        return
    own = own_kernel(api, dec)
    notes = written(dec.func, len(params.declared)) if own else None
    debug3 = checks_calls(dec)
    other = None if own else cross_module.other_module_function(api, dec)
    dtypes_written = None
    if other is not None:
        dtypes_written = cross_module.dtypes_written(api, *other, [p.name for p in params.spec.tensors])
    checked: set[tuple[object, ...]] = set()  # one check per tensor set (loops, helper calls)
    for site in sites:
        site_params, dtypes = at_call(params, notes, site.env) if notes is not None else (params, None)
        if debug3:
            site_params = checked_calls(site_params, True, dtypes if dtypes is not None else dtypes_written)
        found = findings(site_params, site)
        where = call if call is not None else _site_context(site)
        for f in found:  # from the decorator hook: maybe under an overload's watcher
            report(api, f, where, unwatched=call is None)  # type: ignore[arg-type]
        vals = traced_with(site_params, site, dtypes, found) if dtypes is not None else None
        raises = any(RAISES_AT_CALL in f.message for f in found)  # 0.2.0 stops at the call: not traced
        if raises:
            vals = None
        elif other is not None and dtypes_written is not None:
            vals = traced_with(site_params, site, dtypes_written, found)
            if vals is not None and vals != params.declared and vals not in checked:
                checked.add(vals)
                cross_module.kernel_call(api, dec, *other, params, vals, where, site.line)
        if not raises and other is None and vals is not None and vals != params.declared and vals not in checked:
            checked.add(vals)
            names = [p.name for p in params.spec.tensors]
            note = specialize.call_note(api, site.line, site.via, names, vals)
            specialize.check(api, dec.func, dict(enumerate(vals)), note)
        _record_call(api, dec, (site.line, site.via, vals) if vals is not None and _complete(vals) else None,
                     own or other is not None and vals is not None,
                     rejected=bool(found) and vals is None, known=not own and known_tensors(site_params, site),
                     why=f"line {site.line}: {site.unknown or 'tensors of unknown shape or dtype'}")
    if not sites:
        _record_call(api, dec, None, own)


def _site_context(site: CallSite) -> Context:
    """Where a site's findings go when mypy saw no kernel call there: the whole call expression."""
    where = Context(line=site.line, column=site.column)
    if site.end is not None:
        where.end_line, where.end_column = site.end
    return where


def _complete(vals: tuple[TensorVal, ...]) -> bool:
    """Every tensor's shape and dtype known: the kernel is checked with concrete shapes."""
    return all(coverage.concrete(v) for v in vals)


def _record_call(api: object, dec: Decorator, specialized: tuple[object, ...] | None, own: bool, *,
                 rejected: bool = False, known: bool = False, why: str = "") -> None:
    if coverage.active() is None:
        return
    path = kernel_path(api, dec)
    if path is not None:
        coverage.call_seen(path, dec.func.line, dec.func.name, specialized=specialized, same_module=own,
                           rejected=rejected, known=known, why=why)


def _module_level(api: object, dec: Decorator) -> MypyFile | None:
    """The module that has ``dec`` as a top-level name, if any."""
    module_name = dec.func.fullname.rpartition(".")[0]
    modules = getattr(api, "modules", {})
    module = modules.get(module_name) if module_name and isinstance(modules, dict) else None
    if isinstance(module, MypyFile):
        sym = module.names.get(dec.func.name)
        if sym is not None and sym.node is dec:
            return module
    return None


def own_kernel(api: object, dec: Decorator) -> bool:
    """Is the kernel's body checked in this module (a module-level kernel of the module being
    checked, or a kernel defined inside one of its functions)? Only those are checked again
    with a call's tensors: an edit of either side then rechecks this one module."""
    if not dec.func.body.body:
        return False  # from mypy's cache: no body
    home = _module_level(api, dec)
    return home is getattr(api, "tree", None) if home is not None else "." not in dec.func.fullname


def kernel_path(api: object, dec: Decorator) -> str | None:
    """The file of the module that defines the kernel."""
    home = _module_level(api, dec)
    if home is not None:
        return home.path
    path = getattr(api, "path", None)  # a nested kernel is called from its own module
    return path if isinstance(path, str) else None
