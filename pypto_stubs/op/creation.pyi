"""Stubs for ``pypto.op.creation`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from typing import Any

from pypto import (
    DataType as DataType,
    Element as Element,
    SymbolicScalar as SymbolicScalar,
    Tensor as Tensor,
    arange as arange,
    full as full,
    ones as ones,
    zeros as zeros,
)

def convert_to_element(value: int | float | Element) -> Any: ...
