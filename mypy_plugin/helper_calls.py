"""Calls of tensor helpers from kernels (``def core(x: pypto.Tensor, ...)`` or
``@pypto.frontend.function``): the helper is checked again with the caller's tensors when they
say more than its own annotations (the same copy as for host calls, :mod:`specialize`).

Only a module-level helper of the module being checked (its body is here: an edit of either
side rechecks this module). A finding names the helper's line; its note names the call, and
inside a kernel checked with a host call's tensors, that call too.
"""

from __future__ import annotations

from pathlib import Path

from mypy.nodes import CallExpr, Decorator, FuncDef, MypyFile, RefExpr
from mypy.plugin import FunctionContext
from mypy.types import CallableType, Type

from . import specialize
from .debug import degrade
from .host.call_check import fmt_binding
from .knowledge.values import TensorVal
from .tensor_types import tensor_val
from .kernels import is_helper_decorator


def tensor_helper(node: object) -> FuncDef | None:
    """The function of a helper with tensor parameters (not a jit kernel), if ``node`` is one."""
    if isinstance(node, Decorator):
        if not is_helper_decorator(node):
            return None
        node = node.func
    if not isinstance(node, FuncDef) or not isinstance(node.type, CallableType):
        return None
    return node if any(tensor_val(t) is not None for t in node.type.arg_types) else None


def helper_call_hook(ctx: FunctionContext) -> Type:
    try:
        _check(ctx)
    except Exception as err:  # never crash mypy
        degrade(err)
    return ctx.default_return_type


def _merge(declared: TensorVal, actual: TensorVal) -> TensorVal | None:
    """What the helper's parameter is at this call; None when the two disagree (the call is then
    not used: which one the helper works with is not provable here)."""
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


def _check(ctx: FunctionContext) -> None:
    call = ctx.context
    if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr):
        return
    func = tensor_helper(call.callee.node)
    module = getattr(ctx.api, "tree", None)
    if func is None or not func.body.body or not isinstance(module, MypyFile):
        return
    sym = module.names.get(func.name)
    if sym is None or sym.node not in (func, call.callee.node):
        return  # not a module-level helper of this module
    typ = func.type
    assert isinstance(typ, CallableType)
    replaced: dict[int, TensorVal] = {}
    for i, (declared_type, actuals) in enumerate(zip(typ.arg_types, ctx.arg_types)):
        declared = tensor_val(declared_type)
        actual = tensor_val(actuals[0]) if len(actuals) == 1 else None
        if declared is None or actual is None:
            continue
        merged = _merge(declared, actual)
        if merged is not None and merged != declared:
            replaced[i] = merged
    if not replaced:
        return
    names = [typ.arg_names[i] or f"#{i}" for i in replaced]
    path = getattr(ctx.api, "path", "") or ""
    note = (f"with the tensors of the call of {func.name} at {Path(path).name}:{call.line}: "
            f"{fmt_binding(names, tuple(replaced.values()))}")
    specialize.check(ctx.api, func, replaced, note)
