"""What an op-call check sees: the call (:class:`Call`) and the tiles and options in force (:class:`Env`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .ops import OPS, Args, Op, Result
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
    dynamic_dim_rule: bool = True  # False for PyPTO versions after 0.2 (probed on 0.2.0 only)


UNKNOWN_TILES: Final = (UNKNOWN, UNKNOWN)


@dataclass(frozen=True)
class Call:
    op: str  # the op's name in the table ("sum", "__add__")
    kind: str  # its kind in the table ("elementwise", "compare", ...)
    label: str  # how messages name it ("Tensor.sum", "operator +")
    args: Args
    env: Env
    result: Result
    into_output: bool = False  # the result is written whole into an output (out[:] = call, or via one name)
    # Names a whole write re-types somewhere in the function (``a[:] = v`` gives ``a`` v's shape:
    # rule move-retypes-local), so their declared shape is not provably theirs at this call.
    retyped: frozenset[str] = frozenset()
    out_dtype: str | None = None  # the dtype of the output the result is stored in whole (out[:] = call)

    @property
    def row(self) -> Op:
        """The op's row: every fact about the op a check may need."""
        return OPS[self.op]
