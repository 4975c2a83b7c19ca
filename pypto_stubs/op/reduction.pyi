"""Stubs for ``pypto.op.reduction`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    Element as Element,
    Tensor as Tensor,
    amax as amax,
    amin as amin,
    maximum as maximum,
    minimum as minimum,
    prod as prod,
    sum as sum,
)
