"""Stubs for ``pypto.experimental`` (PyPTO 0.2.0)."""

from collections.abc import Sequence

from pypto import AtomicType, DataType, SymbolicScalar, Tensor, _SymInts
from pypto.op.distributed import ShmemTensor
from typing_extensions import TypeAlias

_OptionValue: TypeAlias = str | int | list[int] | dict[int, int]

def gather_in_l1(
    src: Tensor,
    indices: Tensor,
    block_table: Tensor,
    block_size: int,
    size: int,
    is_b_matrix: bool,
    is_trans: bool,
) -> Tensor: ...
def gather_in_ub(param: Tensor, indices: Tensor, block_table: Tensor, block_size: int, axis: int) -> Tensor: ...
def transposed_batchmatmul(tensor_a: Tensor, tensor_b: Tensor, out_dtype: DataType) -> Tensor: ...
def set_operation_options(*, force_combine_axis: bool | None = None, combine_axis: bool | None = None) -> None: ...
def get_operation_options() -> dict[str, _OptionValue]: ...
def nop(in_tensors: Sequence[Tensor]) -> Tensor: ...
def shmem_store(
    src: Tensor,
    offsets: _SymInts,
    dst: ShmemTensor,
    dst_pe: int | SymbolicScalar,
    *,
    put_op: AtomicType = ...,
    pred: Sequence[Tensor] | None = None,
) -> Tensor: ...
def shmem_load(
    src: ShmemTensor,
    src_pe: int | SymbolicScalar,
    shape: Sequence[int] | None = None,
    offsets: _SymInts | None = None,
    *,
    pred: Sequence[Tensor] | None = None,
    valid_shape: _SymInts | None = None,
) -> Tensor: ...
