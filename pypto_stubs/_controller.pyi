"""Stubs for ``pypto._controller`` (PyPTO 0.2.0), a private module PyPTO's own tests import (``dump``,
``reset``, ``_loop_range``). The tile setters and loops are declared in ``pypto`` and re-exported."""

from typing import Any

from pypto import SymInt

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
    cond as cond,
    function as function,
    get_conv_tile_shapes as get_conv_tile_shapes,
    get_cube_tile_shapes as get_cube_tile_shapes,
    get_vec_tile_shapes as get_vec_tile_shapes,
    is_loop_begin as is_loop_begin,
    is_loop_end as is_loop_end,
    loop as loop,
    loop_unroll as loop_unroll,
    set_conv_tile_shapes as set_conv_tile_shapes,
    set_cube_tile_shapes as set_cube_tile_shapes,
    set_matrix_size as set_matrix_size,
    set_vec_tile_shapes as set_vec_tile_shapes,
)

__all__ = [
    "set_vec_tile_shapes",
    "get_vec_tile_shapes",
    "set_cube_tile_shapes",
    "get_cube_tile_shapes",
    "set_conv_tile_shapes",
    "get_conv_tile_shapes",
    "set_matrix_size",
    "function",
    "loop",
    "loop_unroll",
    "is_loop_begin",
    "is_loop_end",
    "cond",
]

class Controller:
    in_function: bool
    @classmethod
    def next_loop_idx(cls) -> int: ...
    @classmethod
    def begin_function(cls) -> None: ...
    @classmethod
    def end_function(cls) -> None: ...

class LoopRange:
    def __init__(self, start: SymInt, stop: SymInt | None = None, step: SymInt = 1) -> None: ...
    def begin(self) -> SymbolicScalar: ...
    def end(self) -> SymbolicScalar: ...
    def step(self) -> SymbolicScalar: ...
    def base(self) -> Any: ...

_loop_range = LoopRange

def set_build_static(static: bool) -> None: ...
def begin_function(name: str, graph_type: Any, func_type: Any, *args: Any) -> Any: ...
def end_function(name: str, generate_call: bool = True) -> None: ...
def dump() -> str: ...
def reset() -> None: ...
