"""Stubs for ``pypto.operator`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    Tensor as Tensor,
    cos as cos,
    rms_norm as rms_norm,
    sigmoid as sigmoid,
    sin as sin,
    softmax as softmax,
)

__all__ = ["sin", "cos", "sigmoid", "softmax", "rms_norm"]
