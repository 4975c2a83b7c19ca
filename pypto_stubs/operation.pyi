"""Stubs for ``pypto.operation`` (PyPTO 0.2.0): shape ops declared in ``pypto`` and re-exported, and
the ``op_wrapper`` decorator PyPTO's own models import from here."""

from pypto import (
    DataType as DataType,
    SymbolicScalar as SymbolicScalar,
    Tensor as Tensor,
    assemble as assemble,
    clone as clone,
    max as max,
    min as min,
    reshape as reshape,
    unsqueeze as unsqueeze,
    view as view,
)
from pypto._op_wrapper import op_wrapper as op_wrapper
