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
from mypy.types import CallableType, Type

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
    for site in sites_at(ctx.api, call.line, call.column):
        found = findings(params, site)
        for f in found:
            code = codes.BY_NAME.get(f.code)
            if code is not None:
                report(ctx.api, code, f.message, f.note, call)
        if found or not specialize.own_kernel(ctx.api, dec):
            continue
        vals = traced_with(params, site)
        if vals is not None:
            names = [p.name for p in params.spec.tensors]
            specialize.check(ctx.api, dec, names, vals, site.line, site.via)


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
    for site in HostEvaluator(tree, kernel_namer(module)).call_sites():
        out.setdefault((site.line, site.column), []).append(site)
    return out


def kernel_namer(module: MypyFile) -> Callable[[ast.expr], str | None]:
    """Which callees of the module's source are jit kernels: a module-level name (defined or
    imported) or ``mod.kernel`` of an imported module, as mypy bound them."""

    def name(callee: ast.expr) -> str | None:
        if isinstance(callee, ast.Name):
            sym = module.names.get(callee.id)
            return callee.id if sym is not None and jit_kernel(sym.node) is not None else None
        if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
            sym = module.names.get(callee.value.id)
            target = sym.node if sym is not None else None
            if isinstance(target, MypyFile):
                inner = target.names.get(callee.attr)
                if inner is not None and jit_kernel(inner.node) is not None:
                    return f"{callee.value.id}.{callee.attr}"
        return None

    return name
