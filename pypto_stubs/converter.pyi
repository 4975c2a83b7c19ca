"""Stubs for ``pypto.converter`` (PyPTO 0.2.0): ``from_torch`` is declared in ``pypto`` and re-exported."""

from pypto import from_torch as from_torch
