"""Attributes of host values: a tensor's ``shape``, ``dtype``, ``T``, ``mT``, ``ndim``, a numpy
array's ``shape`` and ``T``, a ``pytest.param``'s ``values``, pytest's ``request.param``."""

from __future__ import annotations

from . import numpy_ops, torch_ops
from .values import UNKNOWN, HostTensor, NdArray, PytestParam, Request, Value


def attribute(base: Value, name: str) -> Value:
    if isinstance(base, NdArray):
        return numpy_ops.transposed(base) if name == "T" else (
            base.shape if name == "shape" and base.shape is not None else UNKNOWN)
    if isinstance(base, HostTensor):
        if name == "shape":
            return base.shape if base.shape is not None else UNKNOWN
        if name == "dtype":
            return base.dtype if base.dtype is not None else UNKNOWN
        if name in ("T", "mT") and (name == "T" or base.shape is not None and len(base.shape) == 2):
            return torch_ops.transpose_attr(base)
        if name == "ndim" and base.shape is not None:
            return len(base.shape)
        return UNKNOWN
    if isinstance(base, PytestParam) and name == "values":
        return base.values
    if isinstance(base, Request) and name == "param":
        return base.param
    return UNKNOWN
