"""Writes into outputs: ``out[:] = t`` (every key an empty slice) and ``out.move(t)`` are a plain
move, anything else (``out[a:b, ...] = t``, ``out[...] = t``) an assemble; 0.2.0 checks neither the
dtype nor, in a move, the shape (rule: write-unchecked). An assemble needs a value of the
destination's rank: ``CHECK FAILED ... Assemble: src and dest requires same shape`` at trace time
(rule: assemble-rank; its dims are not compared). A key mixing int indices and slices
(``out[i] = row``, ``out[i, :] = row``) first reshapes the value, putting a 1 at each int position;
that reshape asserts that the value has one dim per slice, so a ``[1, 64]`` row written through
``out[i]`` fails at trace time while a ``[64]`` row is assembled (the regression kernels
``out_row_*`` were run through the compiler)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..codes.op_codes import OUT_DTYPE, OUT_SHAPE
from ..findings import Finding
from ..indexing import index, is_int_key
from ..ops import TensorVal
from ..shapes import Shape, differ, fmt_shape, numel

_SILENT = "PyPTO 0.2.0 does not check this: the kernel compiles and writes wrong data"


def is_whole(keys: Sequence[object]) -> bool:
    """``[:]`` or ``[:, :]``: the write replaces the whole tensor (a move). ``[...]`` is an
    assemble (``Tensor._is_empty_slice``: probed, it neither empties the value nor skips the rank
    check)."""
    return bool(keys) and all(isinstance(k, slice) and k.start is None and k.stop is None for k in keys)


def _provably_different(a: Shape, b: Shape) -> bool:
    if a is None or b is None:
        return False
    if len(a) != len(b):
        return all(isinstance(d, int) for d in (*a, *b))
    return any(differ(x, y) for x, y in zip(a, b))


def _shape_fix(region: Shape, value: Shape, target: str, whole: bool) -> str:
    """The note for one out-shape error: only the fix that fits these two shapes."""
    if region is not None and value is not None and len(value) + 1 == len(region):
        for axis, dim in enumerate(region):
            if dim == 1 and not _provably_different(region[:axis] + region[axis + 1:], value):
                # The result lost a size-1 axis: a reduction without keepdim.
                return (
                    f"the result has no size-1 axis {axis}: reduce with keepdim=True, or reshape it to "
                    f"{fmt_shape(region)}"
                )
    if numel(region) is not None and numel(region) == numel(value):
        return f"same number of elements: reshape the result to {fmt_shape(region)} before writing it"
    if whole:
        return f"make the result {fmt_shape(region)}, or fix the annotation of {target}"
    return f"make the result {fmt_shape(region)}, or write it into a region of {target} of its shape {fmt_shape(value)}"


@dataclass(frozen=True)
class Write:
    """One write into an output: ``keys`` None means ``dest.move(value)``; ``target`` is the
    destination as written, for the message."""

    dest: TensorVal
    keys: Sequence[object] | None
    value: TensorVal
    target: str
    value_text: str | None = None  # the value as written (the notes quote it), when it can be spelled

    @property
    def whole(self) -> bool:
        return self.keys is None or is_whole(self.keys)

    @functools.cached_property
    def region(self) -> Shape:
        return self.dest.shape if self.whole else index(self.dest.shape, self.keys or [])

    @property
    def region_text(self) -> str:
        shape = fmt_shape(self.dest.shape)
        if self.whole or self.keys is not None and all(k is Ellipsis for k in self.keys):
            return f"{self.target} {shape}"
        return f"the region {fmt_shape(self.region)} of {self.target} {shape}"

    @property
    def int_keys(self) -> int:
        return 0 if self.whole or self.keys is None else sum(1 for k in self.keys if is_int_key(k))

    @property
    def slices(self) -> int | None:
        return len(self.dest.shape) - self.int_keys if self.dest.shape is not None else None

    @property
    def misses_a_dim_per_slice(self) -> bool:
        """``Tensor.__setitem__`` -> ``_add_one_dim``: through int indices the value needs one dim per slice."""
        value = self.value.shape
        return bool(self.int_keys and self.region is not None and self.slices and value is not None
                    and len(value) != self.slices)


def write_rank(w: Write) -> Finding | None:
    if not w.misses_a_dim_per_slice:
        return None
    ints, slices, value = w.int_keys, w.slices, w.value.shape
    assert value is not None
    return Finding(
        OUT_SHAPE,
        f"writes a {fmt_shape(value)} result into {w.region_text} through {ints} int "
        f"{'index' if ints == 1 else 'indices'}: the frontend needs a value with one dim per slice "
        f"({slices}) and fails at trace time (AssertionError: The number of slice in key ({slices}) "
        f"must match the length of input Tensor ({len(value)}))",
        f"write a {fmt_shape(w.region)} value (pypto.reshape(x, {list(w.region or ())})) or index with slices "
        "(out[i:i + 1, :] = x)",
    )


def _assemble_rank_differs(w: Write) -> bool:
    """An assemble through slices only (no int index: write_rank's reshape) of a value whose rank
    is not the destination's (rule: assemble-rank)."""
    dest, value = w.dest.shape, w.value.shape
    return (not w.whole and w.keys is not None and not w.int_keys and dest is not None and value is not None
            and len(value) != len(dest))


def write_assemble_rank(w: Write) -> Finding | None:
    if not _assemble_rank_differs(w):
        return None
    dest, value = w.dest.shape, w.value.shape
    assert dest is not None and value is not None
    return Finding(
        OUT_SHAPE,
        f"writes a {fmt_shape(value)} result into {w.region_text}: an assemble needs a value of the "
        f"destination's rank ({len(dest)}), and 0.2.0 fails at trace time (CHECK FAILED: Assemble: src and dest "
        "requires same shape)",
        _shape_fix(w.region, value, w.target, w.whole),
    )


def write_shape(w: Write) -> Finding | None:
    if w.misses_a_dim_per_slice or _assemble_rank_differs(w) or not _provably_different(w.region, w.value.shape):
        return None  # a rank failure at trace time comes first
    return Finding(
        OUT_SHAPE,
        f"writes a {fmt_shape(w.value.shape)} result into {w.region_text}; {_SILENT}",
        _shape_fix(w.region, w.value.shape, w.target, w.whole),
    )


def write_dtype(w: Write) -> Finding | None:
    value, dest = w.value.dtype, w.dest.dtype
    if value is None or dest is None or value == dest:
        return None
    return Finding(
        OUT_DTYPE,
        f"writes a {value} result into {w.target}, which is {dest}; {_SILENT}",
        f"cast it first: pypto.cast({w.value_text or '<the value>'}, pypto.{dest})",
    )


# The registry of output-write checks, in the order they are reported.
WRITE_CHECKS: Final[tuple[Callable[[Write], "Finding | None"], ...]] = (
    write_rank, write_assemble_rank, write_shape, write_dtype)


def check_write(w: Write) -> list[Finding]:
    return [e for e in (check(w) for check in WRITE_CHECKS) if e is not None]
