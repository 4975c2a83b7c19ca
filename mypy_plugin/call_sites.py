"""The hook on a call of a jit kernel in host code: ``pypto-call-*`` at the call, then the kernel
checked again with the call's tensors (:mod:`specialize`).

The tensors come from :mod:`host.evaluate`, run once per module over its source with :mod:`ast`
(torch is recognised by its imported names, never analysed); a mypy call expression finds its
evaluated call sites by line and column. A call through a host helper gives one site per helper
call. Unknown arguments stay unknown: no finding, no specialization.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Final

from mypy.nodes import ARG_NAMED, ARG_POS, CallExpr, Decorator, FuncDef, MypyFile, RefExpr
from mypy.plugin import FunctionContext
from mypy.types import CallableType, Type, UnboundType

from . import coverage
from . import errorcodes as codes
from . import specialize
from .debug import degrade
from .diagnostics import report
from .host.call_check import Parameters, findings, parameters, traced_with
from .host.evaluate import CallSite, HostEvaluator
from .knowledge.values import TensorVal
from .tensor_types import tensor_val
from .tile_flow import KERNEL_DECORATORS, decorated_with

_CACHE_SIZE: Final = 64
Sites = dict[tuple[int, int], list[CallSite]]
_sites: dict[str, tuple[MypyFile, Sites]] = {}  # module path -> (the tree they were read for, sites)


def jit_kernel(node: object) -> Decorator | None:
    return node if isinstance(node, Decorator) and decorated_with(node, KERNEL_DECORATORS) else None


def kernel_call_hook(ctx: FunctionContext) -> Type:
    try:
        _check_call(ctx)
    except Exception as err:  # never crash mypy
        degrade(err)
    return ctx.default_return_type


def kernel_parameters(func: FuncDef) -> Parameters | None:
    """The kernel's parameters from its checked type (the same from mypy's cache)."""
    typ = func.type
    if not isinstance(typ, CallableType):
        return None
    tensors: list[tuple[str, TensorVal]] = []
    others: list[str] = []
    required: set[str] = set()
    for name, kind, arg_type in zip(typ.arg_names, typ.arg_kinds, typ.arg_types):
        if name is None or not (kind.is_positional() or kind.is_named()):
            return None  # *args / **kwargs: the frontend's binding is not modelled
        val = tensor_val(arg_type)
        if val is not None:
            if others:
                return None  # a tensor after a non-tensor: pypto-kernel-signature says so
            tensors.append((name, val))
        else:
            others.append(name)
            if kind in (ARG_POS, ARG_NAMED):
                required.add(name)
    return parameters(func.name, tensors, others, frozenset(required))


def dtypes_written(func: FuncDef, count: int) -> list[str] | None:
    """What each of the first ``count`` parameters' annotations, as written, says of the dtype:
    "" (nothing: the tensor's dtype), "DT_..." (a dtype name), or "var" (a variable). From the
    parse (a kernel whose body is checked here has one); None when it is not there."""
    typ = func.unanalyzed_type
    if not isinstance(typ, CallableType) or len(typ.arg_types) < count:
        return None
    out = []
    for t in typ.arg_types[:count]:
        items = t.args if isinstance(t, UnboundType) else ()
        names = [i.name for i in items if isinstance(i, UnboundType) and not i.args and i.original_str_expr is None
                 and i.name != "None" and "TileOpFormat." not in i.name]
        last = names[-1].rpartition(".")[2] if names else ""
        out.append("" if not names else last if last.startswith("DT_") else "var")
    return out


def _check_call(ctx: FunctionContext) -> None:
    call = ctx.context
    if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr):
        return
    dec = jit_kernel(call.callee.node)
    if dec is None:
        return
    params = kernel_parameters(dec.func)
    if params is None:
        return
    own = own_kernel(ctx.api, dec)
    sites = sites_at(ctx.api, call.line, call.column)
    for site in sites:
        found = findings(params, site)
        for f in found:
            code = codes.BY_NAME.get(f.code)
            if code is not None:
                report(ctx.api, code, f.message, f.note, call)
        vals = None
        if not found and own:
            written = dtypes_written(dec.func, len(params.declared))
            vals = traced_with(params, site, written) if written is not None else None
        if vals is not None:
            names = [p.name for p in params.spec.tensors]
            specialize.check(ctx.api, dec, names, vals, site.line, site.via)
        complete = vals is not None and all(v.dtype is not None and v.shape is not None
                                            and all(isinstance(d, int) for d in v.shape) for v in vals)
        _record_call(ctx.api, dec, (site.line, site.via) if complete else None, own)
    if not sites:
        _record_call(ctx.api, dec, None, own)


def _record_call(api: object, dec: Decorator, specialized: tuple[int, tuple[str, ...]] | None, own: bool) -> None:
    if coverage.active() is None:
        return
    path = kernel_path(api, dec)
    if path is not None:
        coverage.call_seen(path, dec.func.line, dec.func.name, specialized=specialized, same_module=own)


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


# Fullnames of jit kernels defined inside functions (mypy names them by their bare name): the
# plugin cannot look those up, so their definitions register them for the call hook (which
# checks the callee again at each call: a stale name costs a lookup, never a wrong answer).
LOCAL_KERNELS: set[str] = set()


def kernel_defined(api: object, dec: Decorator) -> None:
    """From the decorator hook: remember a nested kernel's name; record coverage."""
    if jit_kernel(dec) is None:
        return
    if "." not in dec.func.fullname:
        LOCAL_KERNELS.add(dec.func.fullname)
    if coverage.active() is None:
        return
    path = getattr(api, "path", None)
    if isinstance(path, str):
        params = kernel_parameters(dec.func)
        declared = None if params is None else list(zip((p.name for p in params.spec.tensors), params.declared))
        coverage.kernel_defined(path, dec.func.line, dec.func.name, declared)


def sites_at(api: object, line: int, column: int) -> list[CallSite]:
    module = getattr(api, "tree", None)
    path = getattr(api, "path", None)
    if not isinstance(module, MypyFile) or not isinstance(path, str):
        return []
    entry = _sites.get(path)
    if entry is None or entry[0] is not module:
        if len(_sites) >= _CACHE_SIZE:
            _sites.clear()
        entry = _sites[path] = (module, _evaluate(module, path))
    return entry[1].get((line, column), [])


def _evaluate(module: MypyFile, path: str) -> Sites:
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return {}
    out: Sites = {}
    for site in HostEvaluator(tree, kernel_namer(module, _nested_kernels(tree))).call_sites():
        out.setdefault((site.line, site.column), []).append(site)
    return out


def _nested_kernels(tree: ast.Module) -> frozenset[str]:
    """Names of functions defined inside functions with a ``...jit`` / ``...jit(...)`` decorator
    (the mypy hook checks each such call's callee again)."""
    top = {id(stmt) for stmt in tree.body}
    return frozenset(
        node.name for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and id(node) not in top and any(_names_jit(d) for d in node.decorator_list)
    )


def _names_jit(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, (ast.Name, ast.Attribute)) and (
        target.id if isinstance(target, ast.Name) else target.attr) == "jit"


def kernel_namer(module: MypyFile, nested: frozenset[str] = frozenset()) -> Callable[[ast.expr], str | None]:
    """Which callees of the module's source are jit kernels: a module-level name (defined or
    imported) or ``mod.kernel`` of an imported module, as mypy bound them, or the name of a
    kernel defined inside a function (``nested``)."""

    def name(callee: ast.expr) -> str | None:
        if isinstance(callee, ast.Name):
            sym = module.names.get(callee.id)
            if sym is None:
                return callee.id if callee.id in nested else None
            return callee.id if jit_kernel(sym.node) is not None else None
        if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
            sym = module.names.get(callee.value.id)
            target = sym.node if sym is not None else None
            if isinstance(target, MypyFile):
                inner = target.names.get(callee.attr)
                if inner is not None and jit_kernel(inner.node) is not None:
                    return f"{callee.value.id}.{callee.attr}"
        return None

    return name
