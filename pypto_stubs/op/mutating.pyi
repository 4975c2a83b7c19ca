"""Stubs for ``pypto.op.mutating`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    CastMode as CastMode,
    DataType as DataType,
    SaturationMode as SaturationMode,
    SymbolicScalar as SymbolicScalar,
    Tensor as Tensor,
    cast as cast,
    expand_clone as expand_clone,
    transpose as transpose,
)
