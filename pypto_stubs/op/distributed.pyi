"""Stubs for ``pypto.op.distributed`` (PyPTO 0.2.0), also reachable as ``pypto.distributed``:
the shared-memory (shmem) communication ops."""

from collections.abc import Sequence
from typing import Any

from pypto import AtomicType, DataType, OpType, SymbolicScalar, Tensor, _SymInts

class ShmemTensor:
    """A tensor in symmetric (shared) memory (``pypto.tensor.ShmemTensor`` at runtime)."""
    def __init__(self) -> None: ...
    @classmethod
    def from_base(cls, base: Any) -> ShmemTensor: ...
    def base(self) -> Any: ...

def create_shmem_tensor(group_name: str, n_pes: int, dtype: DataType, shape: Sequence[int]) -> ShmemTensor: ...
def create_shmem_signal(group_name: str, n_pes: int) -> ShmemTensor: ...
def shmem_view(
    src: ShmemTensor,
    shape: Sequence[int],
    offsets: _SymInts,
    *,
    valid_shape: _SymInts | None = None,
) -> ShmemTensor: ...
def shmem_put(
    src: Tensor,
    offsets: _SymInts,
    dst: ShmemTensor,
    dst_pe: int | SymbolicScalar,
    *,
    put_op: AtomicType = ...,
    pred: Sequence[Tensor] | None = None,
) -> Tensor: ...
def shmem_get(
    src: ShmemTensor,
    src_pe: int | SymbolicScalar,
    shape: Sequence[int] | None = None,
    offsets: _SymInts | None = None,
    *,
    valid_shape: _SymInts | None = None,
    pred: Sequence[Tensor] | None = None,
) -> Tensor: ...
def shmem_signal(
    src: ShmemTensor,
    src_pe: int | SymbolicScalar,
    signal: int,
    shape: Sequence[int] | None = None,
    offsets: _SymInts | None = None,
    *,
    target_pe: int | SymbolicScalar,
    sig_op: AtomicType = ...,
    pred: Sequence[Tensor] | None = None,
) -> Tensor: ...
def shmem_wait_until(
    src: ShmemTensor,
    src_pe: int | SymbolicScalar,
    cmp_value: int = 0,
    shape: Sequence[int] | None = None,
    offsets: _SymInts | None = None,
    *,
    cmp: OpType = ...,
    clear_signal: bool = False,
    pred: Sequence[Tensor] | None = None,
) -> Tensor: ...
def shmem_barrier_all(src: ShmemTensor, pred: Sequence[Tensor] | None = None) -> Tensor: ...
def shmem_clear_data(
    src: ShmemTensor,
    shape: Sequence[int] | None = None,
    offsets: _SymInts | None = None,
    *,
    pred: Sequence[Tensor] | None = None,
) -> Tensor: ...
def shmem_clear_signal(src: ShmemTensor, *, pred: Sequence[Tensor] | None = None) -> Tensor: ...
def my_symbolic_pe(group_name: str) -> SymbolicScalar: ...
