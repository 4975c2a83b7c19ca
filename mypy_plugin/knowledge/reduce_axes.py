"""Which axes a reduction reduces (a row's ``Reduce``), for the tile checks."""

from __future__ import annotations

from .shapes import normalize_axis
from .values import Args


def axes_of_dim(a: Args, rank: int) -> list[int] | None:
    """The ``dim`` argument (an int, or a list of ints)."""
    dim = a.int_value("dim", 1)
    if dim is not None and dim < -rank:
        # 0.2.0 does not reject a negative out-of-range axis: it goes on to the last-axis
        # alignment check (FC1001 when unaligned, oracle regression) and crashes otherwise
        # (rule: reduce-negative-axis).
        return [rank - 1]
    if dim is None:
        dims = a.dims("dim", 1)
        if dims is None or any(not isinstance(d, int) for d in dims):
            return None
        return [normalize_axis(d, rank) or 0 for d in dims if isinstance(d, int)]
    ax = normalize_axis(dim, rank)
    return None if ax is None else [ax]


def var_axes(a: Args, rank: int) -> list[int] | None:
    """``var()`` with no ``dim`` reduces every axis."""
    return list(range(rank)) if not a.given("dim", 1) else axes_of_dim(a, rank)


def last_axis(a: Args, rank: int) -> list[int] | None:
    """``rms_norm`` normalises over the last axis."""
    return [rank - 1]
