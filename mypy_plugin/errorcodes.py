"""The plugin's error codes: public API (``# type: ignore[pypto-...]``, disable_error_code).

Imports nothing but mypy.errorcodes, so a config that names these codes never pays
for more than this module.
"""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode

_CATEGORY: Final = "PyPTO"

TRANSPOSE: Final = ErrorCode("pypto-transpose", "`.T` on a PyPTO tensor (it has none)", _CATEGORY)
NO_METHOD: Final = ErrorCode("pypto-no-method", "A tensor member PyPTO does not have", _CATEGORY)
REDUCE_ALIGN: Final = ErrorCode(
    "pypto-reduce-align", "Last-axis reduction whose vec tile is not 32-byte aligned", _CATEGORY
)
MATMUL_K: Final = ErrorCode("pypto-matmul-k", "matmul operands whose K dims differ", _CATEGORY)
BROADCAST: Final = ErrorCode("pypto-broadcast", "Shapes that do not broadcast", _CATEGORY)
RESHAPE: Final = ErrorCode("pypto-reshape", "reshape/view that changes the element count or rank", _CATEGORY)
RESHAPE_ALIGN: Final = ErrorCode(
    "pypto-reshape-align", "A copying reshape/view whose vec tile's last entry is not 32-byte aligned", _CATEGORY
)
AXIS: Final = ErrorCode("pypto-axis", "Axis out of range", _CATEGORY)
TILE_MISSING: Final = ErrorCode("pypto-tile-missing", "An op with no vec/cube tile set before it", _CATEGORY)
TILE_RANK: Final = ErrorCode("pypto-tile-rank", "A vec tile with the wrong number of entries for an op", _CATEGORY)
CUBE_TILE: Final = ErrorCode("pypto-cube-tile", "Cube tile values the matmul rejects", _CATEGORY)
COMPARE_INT: Final = ErrorCode("pypto-compare-int", "A tensor compared with a Python int", _CATEGORY)
DYNAMIC_DIM: Final = ErrorCode(
    "pypto-dynamic-dim", "A whole-tensor op on a tensor with a DYNAMIC dim (traced as -1)", _CATEGORY
)
NOT_CONCRETE: Final = ErrorCode(
    "pypto-not-concrete", "A builtin that needs a Python int given a dynamic dim (a SymbolicScalar)", _CATEGORY
)
DTYPE_MISMATCH: Final = ErrorCode("pypto-dtype-mismatch", "Tensor operands of different dtypes", _CATEGORY)
MATMUL_DTYPE: Final = ErrorCode("pypto-matmul-dtype", "matmul input/output dtypes the compiler rejects", _CATEGORY)
MATMUL_DTYPE_DOC: Final = ErrorCode(
    "pypto-matmul-dtype-doc",
    "matmul dtypes outside the documented table (accepted by 0.2.0)",
    _CATEGORY,
    default_enabled=False,
)
MATMUL_RANK: Final = ErrorCode("pypto-matmul-rank", "matmul operand ranks or batch dims that do not fit", _CATEGORY)
OUT_SHAPE: Final = ErrorCode("pypto-out-shape", "A result written into an output of another shape", _CATEGORY)
OUT_DTYPE: Final = ErrorCode("pypto-out-dtype", "A result written into an output of another dtype", _CATEGORY)
USE_AFTER_MOVE: Final = ErrorCode("pypto-use-after-move", "A tensor read after it was moved into an output", _CATEGORY)
KERNEL_SIGNATURE: Final = ErrorCode("pypto-kernel-signature", "A jit kernel definition the frontend rejects", _CATEGORY)
KERNEL_SCOPE: Final = ErrorCode(
    "pypto-kernel-scope", "A name read inside a lambda or comprehension of a jit kernel, which cannot see it", _CATEGORY
)
JIT_KEYWORD: Final = ErrorCode(
    "pypto-jit-keyword", "A pypto.frontend.jit keyword that PyPTO 0.2.0 does not have", _CATEGORY
)
KERNEL_WHILE: Final = ErrorCode("pypto-kernel-while", "A while loop in a jit kernel (the parser has none)", _CATEGORY)
PARAM_REBIND: Final = ErrorCode(
    "pypto-param-rebind", "A tensor parameter rebound (= or +=) in a kernel: the tensor passed in is not written", _CATEGORY
)
VIEW_RANK: Final = ErrorCode(
    "pypto-view-rank", "view offsets or valid_shape with another number of entries than the shape", _CATEGORY
)
CUBE_TILE_ENTRIES: Final = ErrorCode(
    "pypto-cube-tile-entries", "set_cube_tile_shapes lists of the wrong length (m, n: 2; k: 2 or 3)", _CATEGORY
)
HOST_CREATION: Final = ErrorCode("pypto-host-creation", "pypto.zeros / ones / full outside a jit kernel", _CATEGORY)
# Host calls of a kernel (the same codes as the runtime guard's findings).
CALL_SHAPE: Final = ErrorCode("pypto-call-shape", "A kernel call whose tensor dims differ from the annotation", _CATEGORY)
CALL_DTYPE: Final = ErrorCode("pypto-call-dtype", "A kernel call whose tensor dtype differs from the annotation", _CATEGORY)
CALL_RANK: Final = ErrorCode("pypto-call-rank", "A kernel call whose tensor rank differs from the annotation", _CATEGORY)
CALL_SYMBOL: Final = ErrorCode("pypto-call-symbol", "A kernel call binding one shape symbol to two sizes", _CATEGORY)
CALL_LAYOUT: Final = ErrorCode("pypto-call-layout", "A kernel call with a non-contiguous tensor", _CATEGORY)
CALL_ARGS: Final = ErrorCode("pypto-call-args", "A kernel call whose arguments the frontend cannot bind", _CATEGORY)

BY_NAME: Final[dict[str, ErrorCode]] = {
    c.code: c
    for c in (
        TRANSPOSE, NO_METHOD, REDUCE_ALIGN, MATMUL_K, BROADCAST, RESHAPE, RESHAPE_ALIGN, AXIS, TILE_MISSING, TILE_RANK,
        CUBE_TILE, COMPARE_INT, DYNAMIC_DIM, NOT_CONCRETE, DTYPE_MISMATCH, MATMUL_DTYPE, MATMUL_DTYPE_DOC, MATMUL_RANK, OUT_SHAPE, OUT_DTYPE,
        KERNEL_SIGNATURE, KERNEL_SCOPE, JIT_KEYWORD, USE_AFTER_MOVE, KERNEL_WHILE, PARAM_REBIND,
        VIEW_RANK, CUBE_TILE_ENTRIES, HOST_CREATION, CALL_SHAPE, CALL_DTYPE, CALL_RANK, CALL_SYMBOL, CALL_LAYOUT,
        CALL_ARGS,
    )
}
