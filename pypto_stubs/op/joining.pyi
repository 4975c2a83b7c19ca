"""Stubs for ``pypto.op.joining`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    Tensor as Tensor,
    concat as concat,
)
