"""Stubs for ``pypto.symbolic_scalar`` (PyPTO 0.2.0): declared in ``pypto`` and re-exported."""

from pypto import (
    SymbolicScalar as SymbolicScalar,
)
from pypto import SymInt as SymInt
