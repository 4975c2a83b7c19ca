"""Describes call arguments (torch tensors) for the boundary rules, without importing torch."""

from __future__ import annotations

import sys
from typing import Any

from ..knowledge.boundary.specs import TensorDesc


def is_tensor(x: Any) -> bool:
    torch = sys.modules.get("torch")  # a kernel call means pypto, hence torch, is loaded
    return torch is not None and isinstance(x, torch.Tensor)


def describe(x: Any) -> TensorDesc:
    return TensorDesc(tuple(int(d) for d in x.shape), str(x.dtype), int(x.element_size()),
                      bool(x.is_contiguous()))
