"""Tile state: the vec and cube tiles in force at a point of a kernel (rules: vec-tile-required, cube-tile-required; docs/rules.md).

``set_vec_tile_shapes`` is global state; the value in force when an op is traced is the one
used. ``NOT_SET`` means provably never set in this kernel; ``UNKNOWN`` means it may be
anything (a helper's entry, a merge of different values, non-constant arguments).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Union


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NOT_SET: Final = _Marker("NOT_SET")
UNKNOWN: Final = _Marker("UNKNOWN")

# A vec tile: one entry per dim (None = that entry is not a constant).
VecTile = Union[tuple[Union[int, None], ...], _Marker]
# A cube tile: (m, k, n) lists of [L0, L1(, L1b)].
CubeTile = Union[tuple[tuple[Union[int, None], ...], ...], _Marker]


@dataclass(frozen=True)
class TileState:
    vec: VecTile
    cube: CubeTile

    def join(self, other: TileState) -> TileState:
        """Two paths meet: equal values survive, different ones become UNKNOWN."""
        return TileState(
            self.vec if self.vec == other.vec else UNKNOWN,
            self.cube if self.cube == other.cube else UNKNOWN,
        )


KERNEL_ENTRY: Final = TileState(NOT_SET, NOT_SET)  # a jit kernel starts with no tiles
HELPER_ENTRY: Final = TileState(UNKNOWN, UNKNOWN)  # anything else may be called after a set


def _entries(dims: tuple[Union[int, None], ...]) -> str:
    return ", ".join("?" if d is None else str(d) for d in dims)


def fmt_vec(vec: tuple[Union[int, None], ...]) -> str:
    """``(8, 4)``, as messages name a vec tile (``?`` for an entry that is not a constant)."""
    return f"({_entries(vec)})"


def fmt_cube(cube: tuple[tuple[Union[int, None], ...], ...]) -> str:
    """``[16, 16], [32, 32], [16, 16]``: a cube tile's m, k and n lists."""
    return ", ".join(f"[{_entries(part)}]" for part in cube)
