"""Stubs for ``pypto.op.indexing`` (PyPTO 0.2.0): ops declared in ``pypto`` and re-exported."""

from pypto import (
    Element as Element,
    ScatterMode as ScatterMode,
    Tensor as Tensor,
    gather as gather,
    gathermask as gathermask,
    index_add as index_add,
    index_add_ as index_add_,
    index_put_ as index_put_,
    index_select as index_select,
    scatter as scatter,
    scatter_ as scatter_,
    scatter_update as scatter_update,
)

def get_scatter_mode(reduce: str | None) -> ScatterMode: ...
