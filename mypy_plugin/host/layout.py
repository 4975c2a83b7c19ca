"""torch's memory layouts, as ATen computes them: which strides a copy, an ``*_like`` factory, an
elementwise result or a view gets (``None``: not followed, contiguity unknown)."""

from __future__ import annotations

from collections.abc import Sequence

from .values import row_major

Strides = tuple[int, ...]


def non_overlapping_and_dense(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """ATen's ``compute_non_overlapping_and_dense``: some order of the dims is row-major."""
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    perm = sorted(range(len(shape)), key=lambda d: (shape[d] < 2, strides[d] if shape[d] >= 2 else 0))
    need = 1
    for d in perm:
        if shape[d] < 2:
            return True
        if strides[d] != need:
            return False
        need *= shape[d]
    return True


def _perm(shape: Sequence[int], operands: Sequence[Sequence[int]]) -> list[int]:
    """TensorIterator's ``reorder_dimensions``: dims innermost first, by the operands' strides
    (a broadcast dim, stride 0, defers to the next operand; equal strides: the smaller dim first)."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0: int, d1: int) -> int:
        for strides in operands:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            cmp = should_swap(perm[d0], perm[d1])
            if cmp > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif cmp < 0:
                break
    return perm


def _dense_in_order(shape: Sequence[int], perm: Sequence[int]) -> Strides:
    strides = [0] * len(shape)
    step = 1
    for d in perm:  # innermost first
        strides[d] = step
        step *= max(shape[d], 1)
    return tuple(strides)


def preserved(shape: tuple[int, ...], strides: Strides | None) -> Strides | None:
    """``torch.empty_like`` / ``clone`` / a dtype or device copy (``preserve_format``): a dense
    tensor keeps its strides; any other gets dense strides in the order of its own."""
    if strides is None:
        return None
    if non_overlapping_and_dense(shape, strides):
        return strides
    return _dense_in_order(shape, _perm(shape, [strides]))


def elementwise(shape: tuple[int, ...], operands: Sequence[tuple[tuple[int, ...], Strides | None]]) -> Strides | None:
    """The strides of an elementwise result of ``shape`` (TensorIterator): all inputs of that
    shape and contiguous: contiguous; all dense with equal strides: those; else dense in the
    order of the inputs' strides (broadcast dims have stride 0)."""
    if any(s is None for _, s in operands):
        return None
    same = all(shp == shape for shp, _ in operands)
    if same and all(s is not None and _contiguous(shape, s) for _, s in operands):
        return row_major(shape)
    if same and operands:
        first = operands[0][1]
        assert first is not None
        if all(s == first for _, s in operands) and non_overlapping_and_dense(shape, first):
            return first
    expanded: list[Strides] = []
    for shp, s in operands:
        assert s is not None
        lead = len(shape) - len(shp)
        expanded.append(tuple(0 if i < lead or shp[i - lead] == 1 and shape[i] != 1 else s[i - lead]
                              for i in range(len(shape))))
    return _dense_in_order(shape, _perm(shape, expanded))


def _contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def view(shape: tuple[int, ...], strides: Strides, new: tuple[int, ...]) -> Strides | None:
    """ATen's ``computeStride``: the strides of a view of ``new`` shape, or None when no view
    exists (``view`` raises, ``reshape`` copies)."""
    numel = 1
    for d in shape:
        numel *= d
    if numel == 0:
        return strides if shape == new else row_major(new)
    if not shape:
        return row_major(new) if all(d == 1 for d in new) else None
    out = [0] * len(new)
    view_d = len(new) - 1
    chunk_base = strides[-1] if strides else 1
    tensor_numel = 1
    view_numel = 1
    for td in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[td]
        if td == 0 or shape[td - 1] != 1 and strides[td - 1] != tensor_numel * chunk_base:
            while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                out[view_d] = view_numel * chunk_base
                view_numel *= new[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if td > 0:
                chunk_base = strides[td - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(out)
