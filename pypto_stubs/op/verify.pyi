"""Stubs for ``pypto.op.verify`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    SymbolicScalar as SymbolicScalar,
    Tensor as Tensor,
    pass_verify_print as pass_verify_print,
    pass_verify_save as pass_verify_save,
)
