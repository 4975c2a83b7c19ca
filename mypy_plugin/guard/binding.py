"""Translates a kernel's annotations into jaxtyping array types and lets jaxtyping bind the
named dims across one call (symbols shared by several parameters)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..knowledge.boundary.specs import KernelSpec, ParamSpec, torch_dtypes_for

_TYPES_ATTR = "_pypto_guard_jaxtyping"


def dims_string(p: ParamSpec, names: dict[str, str]) -> str:
    """jaxtyping's shape string: ints stay, symbols get a safe name (``s0``), other dims are ``_``."""
    if p.dims is None:
        return "..."
    items = [str(d) if isinstance(d, int) else "_" if d is None else names.setdefault(d, f"s{len(names)}")
             for d in p.dims]
    return " ".join(items + (["..."] if p.open_tail else []))


def _dtype_class(pypto_dtype: str | None) -> Any:
    import jaxtyping

    if pypto_dtype is None:
        return jaxtyping.Shaped
    # jaxtyping names a torch dtype without its "torch." prefix. A pypto dtype that no torch dtype
    # maps to matches nothing (the knowledge layer says why).
    names = [t.removeprefix("torch.") for t in torch_dtypes_for(pypto_dtype)] or ["<no torch dtype>"]
    return type(pypto_dtype, (jaxtyping.AbstractDtype,), {"dtypes": names})


def array_types(kernel: Any, spec: KernelSpec, tensor_cls: type) -> list[Any]:
    """One jaxtyping type per tensor parameter (cached on the kernel, per tensor class)."""
    cache: dict[type, list[Any]] | None = getattr(kernel, _TYPES_ATTR, None)
    if cache is not None and tensor_cls in cache:
        return cache[tensor_cls]
    names: dict[str, str] = {}
    types = [_dtype_class(spec.expected_dtype(p))[tensor_cls, dims_string(p, names)] for p in spec.tensors]
    try:
        if cache is None:
            cache = {}
            setattr(kernel, _TYPES_ATTR, cache)
        cache[tensor_cls] = types
    except AttributeError:
        pass
    return types


def rejected(types: Sequence[Any], tensors: Sequence[Any]) -> list[int]:
    """Indices of the tensors jaxtyping rejects, binding named dims across the whole call."""
    from jaxtyping import jaxtyped

    with jaxtyped("context"):
        return [i for i, (tp, t) in enumerate(zip(types, tensors)) if not isinstance(t, tp)]
