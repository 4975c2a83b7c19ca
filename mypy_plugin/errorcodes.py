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
AXIS: Final = ErrorCode("pypto-axis", "Axis out of range", _CATEGORY)
TILE_MISSING: Final = ErrorCode("pypto-tile-missing", "An op with no vec/cube tile set before it", _CATEGORY)
ANNOTATION: Final = ErrorCode("pypto-annotation", "A tensor annotation the plugin cannot read", _CATEGORY)

BY_NAME: Final[dict[str, ErrorCode]] = {
    c.code: c for c in (TRANSPOSE, NO_METHOD, REDUCE_ALIGN, MATMUL_K, BROADCAST, RESHAPE, AXIS, TILE_MISSING, ANNOTATION)
}
