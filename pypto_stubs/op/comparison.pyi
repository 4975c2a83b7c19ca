"""Stubs for ``pypto.op.comparison`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    Element as Element,
    OpType as OpType,
    OutType as OutType,
    Tensor as Tensor,
    argsort as argsort,
    eq as eq,
    ge as ge,
    greater as greater,
    gt as gt,
    le as le,
    lt as lt,
    mrgsort as mrgsort,
    ne as ne,
    sort32 as sort32,
    topk as topk,
)
