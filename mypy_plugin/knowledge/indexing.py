"""Indexing a tensor (``t[i, 2:6, ...]``): the index keys and the shape they give (rule: slices-unchecked)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .shapes import Dim, Shape


class _IntKey:
    """An index that is a scalar of unknown value (``a[i]`` with a loop variable): drops the dim."""

    def __repr__(self) -> str:
        return "INT_KEY"


INT_KEY = _IntKey()


class _MaybeIntKey:
    """An index of unknown type (an unannotated parameter): an int or a tensor, we cannot tell."""

    def __repr__(self) -> str:
        return "MAYBE_INT_KEY"


MAYBE_INT_KEY = _MaybeIntKey()


def is_int_key(k: object) -> bool:
    return (isinstance(k, int) and not isinstance(k, bool)) or k is INT_KEY


@dataclass(frozen=True)
class Span:
    """A slice whose bounds are not known but whose length may be (``a[i*8:(i+1)*8]``)."""

    length: int | None


def index(shape: Shape, keys: Sequence[object]) -> Shape:
    """Tensor.__getitem__: keys are ``int`` (drops the dim), ``slice`` with int/None bounds,
    :class:`Span`, ``Ellipsis``, or ``None`` for an unknown key (result unknown)."""
    if shape is None:
        return None
    if any(k is None or k is MAYBE_INT_KEY for k in keys):
        return None
    n_ell = sum(1 for k in keys if k is Ellipsis)
    if n_ell > 1:
        return None
    real = [k for k in keys if k is not Ellipsis]
    if len(real) > len(shape):
        return None
    if n_ell:
        pos = list(keys).index(Ellipsis)
        fill = len(shape) - len(real)
        expanded: list[object] = list(keys[:pos]) + [slice(None)] * fill + list(keys[pos + 1:])
    else:
        expanded = list(keys) + [slice(None)] * (len(shape) - len(real))
    out: list[Dim] = []
    for d, k in zip(shape, expanded):
        if is_int_key(k):
            continue
        if isinstance(k, Span):
            ok = k.length is not None and (not isinstance(d, int) or k.length <= d)
            out.append(k.length if ok else None)
            continue
        assert isinstance(k, slice)
        out.append(_slice_len(d, k))
    return tuple(out)


def _slice_len(d: Dim, k: slice) -> Dim:
    start, stop = k.start, k.stop
    if start is None and stop is None:
        return d
    if not isinstance(d, int):
        # Without the dim we can still size [a:b] with known bounds of the same sign.
        if isinstance(start, int) and isinstance(stop, int) and (start >= 0) == (stop >= 0):
            return max(stop - start, 0)
        if start is None and isinstance(stop, int) and stop >= 0:
            return stop
        return None
    if (start is not None and not isinstance(start, int)) or (stop is not None and not isinstance(stop, int)):
        return None
    lo = 0 if start is None else start + d if start < 0 else start
    hi = d if stop is None else stop + d if stop < 0 else stop
    if not 0 <= lo <= hi <= d:
        # Out-of-range slices are not checked by 0.2.0 (rule: slices-unchecked): their size is not provable.
        return None
    return hi - lo
