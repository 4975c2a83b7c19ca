"""Stubs for the module ``pypto.tensor`` (PyPTO 0.2.0). ``Tensor`` and the dtypes are declared in
``pypto`` (one fullname, ``pypto.Tensor``, which the mypy plugin hooks) and re-exported. As an
attribute, ``pypto.tensor`` is the alias of ``pypto.Tensor`` (the package's name shadows the module)."""

from typing import Any

from pypto import (
    AtomicType as AtomicType,
    CachePolicy as CachePolicy,
    CastMode as CastMode,
    DT_BF16 as DT_BF16,
    DT_BOOL as DT_BOOL,
    DT_BOTTOM as DT_BOTTOM,
    DT_DOUBLE as DT_DOUBLE,
    DT_FP16 as DT_FP16,
    DT_FP32 as DT_FP32,
    DT_FP4_E1M2X2 as DT_FP4_E1M2X2,
    DT_FP4_E2M1X2 as DT_FP4_E2M1X2,
    DT_FP8 as DT_FP8,
    DT_FP8E4M3 as DT_FP8E4M3,
    DT_FP8E5M2 as DT_FP8E5M2,
    DT_FP8E8M0 as DT_FP8E8M0,
    DT_HF4 as DT_HF4,
    DT_HF8 as DT_HF8,
    DT_INT16 as DT_INT16,
    DT_INT32 as DT_INT32,
    DT_INT4 as DT_INT4,
    DT_INT64 as DT_INT64,
    DT_INT8 as DT_INT8,
    DT_UINT16 as DT_UINT16,
    DT_UINT32 as DT_UINT32,
    DT_UINT64 as DT_UINT64,
    DT_UINT8 as DT_UINT8,
    DYN as DYN,
    DYNAMIC as DYNAMIC,
    DataType as DataType,
    Element as Element,
    OpType as OpType,
    OutType as OutType,
    ReLuType as ReLuType,
    ReduceMode as ReduceMode,
    STATIC as STATIC,
    SaturationMode as SaturationMode,
    ScatterMode as ScatterMode,
    StatusType as StatusType,
    SymbolicScalar as SymbolicScalar,
    Tensor as Tensor,
    TileOpFormat as TileOpFormat,
    TransMode as TransMode,
)
from pypto.op.distributed import ShmemTensor as ShmemTensor

class TensorAnnotation:
    """What ``pypto.Tensor[...]`` builds at runtime (the stubs read that form as a type instead)."""
    def __init__(
        self, shape: Any = None, dtype: Any = None, name: str = "", format: Any = ..., data_ptr: Any = None,
        device: Any = None, ori_shape: Any = None,
    ) -> None: ...
    def to_tensor(self, name: str = "") -> Tensor: ...
