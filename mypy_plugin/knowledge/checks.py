"""The checks beyond shape inference, and which op kinds they run for.

A check sees one call (:class:`Call`: op, arguments, tiles in force, options, inferred result)
and returns a :class:`ShapeError` to report, or None. The op's result is inferred either way.
Every check stays silent on anything unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .ops import Args, Result
from .shapes import ShapeError
from .tiles import UNKNOWN, CubeTile, VecTile


@dataclass(frozen=True)
class Env:
    vec: VecTile
    cube: CubeTile
    reduce_align_rule: bool  # False for PyPTO versions after 0.2 (rule deleted upstream)
    reduce_align_fallback: str  # "tile" (silent when the tile is unknown) or "dim"
    # False only when no path through the kernel ever sets a vec tile (reshape/view copies take
    # their tile from the kernel, wherever it is set).
    vec_set_in_kernel: bool = True


UNKNOWN_TILES: Final = (UNKNOWN, UNKNOWN)


@dataclass(frozen=True)
class Call:
    op: str  # the op's name in the table ("sum", "__add__")
    kind: str  # its kind in the table ("elementwise", "compare", ...)
    label: str  # how messages name it ("Tensor.sum", "operator +")
    args: Args
    env: Env
    result: Result


Check = Callable[[Call], "ShapeError | None"]


def kind_checks() -> dict[str, tuple[Check, ...]]:
    """Which checks run for which kind of op (the kinds are in the op table)."""
    from . import elementwise_checks as ew
    from . import matmul_checks as mm
    from . import tile_checks as tc

    return {
        "elementwise": (tc.vec_tile_missing, tc.vec_tile_rank, ew.dtype_mismatch),
        # Comparisons of different dtypes compile in 0.2.0 (oracle regressions cmp_mixed_dtype_*).
        "compare": (tc.vec_tile_missing, tc.vec_tile_rank),
        "unary": (tc.vec_tile_missing, tc.vec_tile_rank),
        "cast": (tc.vec_tile_missing, tc.vec_tile_rank),
        "reduction": (tc.reduce_tile_missing, tc.vec_tile_rank, tc.reduce_align),
        "transpose": (tc.transpose_tile_rank,),
        # reshape/view copy (REGISTER_COPY): F21004 without a vec tile (oracle regression
        # reshape_no_tile), unless the shape stays the same (no copy: differential cases 55, 547).
        "reshape": (tc.reshape_tile_missing,),
        "concat": (ew.concat_dtypes,),
        "matmul": (mm.matmul_rank, mm.matmul_dtypes, mm.matmul_doc_dtypes, tc.cube_tile_missing, mm.cube_tile_values),
    }
