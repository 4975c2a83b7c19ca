"""Stubs for ``pypto.op.matmul`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    DataType as DataType,
    SymbolicScalar as SymbolicScalar,
    Tensor as Tensor,
    matmul as matmul,
    scaled_mm as scaled_mm,
)
