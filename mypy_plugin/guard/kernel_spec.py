"""Reads a 0.2.0 jit kernel object (``JitCallableWrapper``) into a :class:`KernelSpec`.

Duck-typed: never imports pypto (the kernel object is already built when we see it).
"""

from __future__ import annotations

import inspect
from typing import Any

from ..knowledge.boundary.specs import Dim, KernelSpec, ParamSpec
from ..knowledge.frontend import DEBUG_MODE_CHECKS_CALLS

_SPEC_ATTR = "_pypto_guard_spec"


def kernel_spec(kernel: Any) -> KernelSpec | None:
    """The kernel's parameters as 0.2.0 sees them (its cached signature); None for an object this
    version of the guard does not know (then the guard stays out of the way). Cached on the kernel."""
    cached = getattr(kernel, _SPEC_ATTR, None)
    if isinstance(cached, KernelSpec):
        return cached
    try:
        defs, non_tensor = kernel._cached_signature
        func = kernel._original_func
        code = func.__code__
    except (AttributeError, TypeError, ValueError):
        return None
    names = code.co_varnames[:code.co_argcount]
    params = tuple(_param(str(n), d) for n, d in zip(names, defs))
    try:
        sig = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return None
    required = frozenset(n for n in non_tensor if n in sig and sig[n].default is inspect.Parameter.empty)
    options = getattr(kernel, "_debug_options", None)
    checked = isinstance(options, dict) and options.get("runtime_debug_mode") == DEBUG_MODE_CHECKS_CALLS
    spec = KernelSpec(str(getattr(func, "__qualname__", func.__name__)), params,
                      tuple(str(n) for n in non_tensor), required, checked)
    try:
        setattr(kernel, _SPEC_ATTR, spec)
    except AttributeError:
        pass
    return spec


def _param(name: str, tensor_def: Any) -> ParamSpec:
    """One ``pypto.Tensor`` definition (what ``annotation.to_tensor(name)`` made)."""
    shape = list(tensor_def.shape)
    dtype = getattr(tensor_def, "status_dtype", None)  # None when the annotation wrote no dtype
    dt = getattr(dtype, "name", None) if dtype is not None else None
    if not shape:
        return ParamSpec(name, None, False, dt, dtype_written=dt is not None)
    dims: list[Dim] = []
    open_tail = status = False
    for i, d in enumerate(shape):
        kind = type(d).__name__
        if d is Ellipsis and i == len(shape) - 1:
            open_tail = True
        elif isinstance(d, int) and not isinstance(d, bool) and kind != "StatusType":
            dims.append(d)
        elif kind == "StatusType":
            dims.append(None)
            status = True
        elif kind == "SymbolicScalar" and _is_symbol(d):
            dims.append(str(d))
        else:  # an expression of symbols, or something new: any size
            dims.append(None)
    return ParamSpec(name, tuple(dims), open_tail, dt, status, dtype_written=dt is not None)


def _is_symbol(d: Any) -> bool:
    try:
        return bool(d.is_symbol())
    except Exception:  # a native error must not take the call down: treat the dim as unknown
        return False
