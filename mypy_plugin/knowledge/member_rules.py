"""What torch gives for the Tensor members PyPTO 0.2.0 lacks (:mod:`.members`), read through :class:`Args`."""

from __future__ import annotations

from typing import Final

from .shapes import normalize_axis
from .values import Args, Result, TensorVal

# Their arguments come on the parameters the member's row names: ``DIMS`` for a ``*dims`` list.

DIMS: Final = tuple(f"d{i}" for i in range(8))


def _int_args(a: Args) -> list[int] | None:
    """``x.permute(1, 0)`` or ``x.permute([1, 0])``: the ints, or None if any is not known."""
    if not a.given(DIMS[0], 1):
        return []
    if a.int_value(DIMS[0], 1) is None:
        listed = a.dims(DIMS[0], 1)
        return [d for d in listed if isinstance(d, int)] if listed and all(isinstance(d, int) for d in listed) else None
    out: list[int] = []
    for i, key in enumerate(DIMS):
        if not a.given(key, i + 1):
            break
        v = a.int_value(key, i + 1)
        if v is None:
            return None
        out.append(v)
    return out


def torch_permute(a: Args) -> Result:
    """``x.permute(*dims)``: the dims in that order (a list that is not a permutation: unknown)."""
    x, dims = a.tensor("input", 0), _int_args(a)
    if x is None:
        return None
    if x.shape is None or dims is None:
        return TensorVal(None, x.dtype)
    axes = [normalize_axis(d, len(x.shape)) for d in dims]
    if sorted(ax for ax in axes if ax is not None) != list(range(len(x.shape))) or len(axes) != len(x.shape):
        return TensorVal(None, x.dtype)
    return TensorVal(tuple(x.shape[ax] for ax in axes if ax is not None), x.dtype)


def torch_squeeze(a: Args) -> Result:
    """``x.squeeze()`` drops every dim of 1, ``x.squeeze(d)`` that one if it is 1; a dim that may
    be 1 (unknown) leaves the shape unknown."""
    x = a.tensor("input", 0)
    if x is None:
        return None
    if x.shape is None:
        return TensorVal(None, x.dtype)
    if not a.given("dim", 1):
        if any(not isinstance(d, int) for d in x.shape):
            return TensorVal(None, x.dtype)
        return TensorVal(tuple(d for d in x.shape if d != 1), x.dtype)
    dim = a.int_value("dim", 1)
    ax = None if dim is None else normalize_axis(dim, len(x.shape))
    if ax is None or not isinstance(x.shape[ax], int):
        return TensorVal(None, x.dtype)
    return TensorVal(x.shape[:ax] + x.shape[ax + 1:] if x.shape[ax] == 1 else x.shape, x.dtype)


def torch_expand(a: Args) -> Result:
    """``x.expand(*sizes)``: the sizes, -1 keeping the (right-aligned) dim of ``x``."""
    x, sizes = a.tensor("input", 0), _int_args(a)
    if x is None:
        return None
    if x.shape is None or not sizes or len(sizes) < len(x.shape):
        return TensorVal(None, x.dtype)
    pad = (None,) * (len(sizes) - len(x.shape)) + x.shape
    return TensorVal(tuple(p if s == -1 else s for s, p in zip(sizes, pad)), x.dtype)
