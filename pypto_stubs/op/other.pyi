"""Stubs for ``pypto.op.other`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    Element as Element,
    Tensor as Tensor,
    expand_exp_dif as expand_exp_dif,
    fillpad as fillpad,
    one_hot as one_hot,
    pad as pad,
    where as where,
)
