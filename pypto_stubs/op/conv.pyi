"""Stubs for ``pypto.op.conv`` (PyPTO 0.2.0): ``conv`` is declared in ``pypto`` and re-exported."""

from dataclasses import dataclass
from typing import Any

from pypto import (
    DataType as DataType,
    SymbolicScalar as SymbolicScalar,
    Tensor as Tensor,
    conv as conv,
)

@dataclass
class ConvParams:
    out_dtype: Any
    input_conv: Tensor
    weight: Tensor
    strides: list[Any]
    paddings: list[Any]
    dilations: list[Any]
    groups: int
    transposed: bool
    output_paddings: list[Any]
    extend_params: Any
