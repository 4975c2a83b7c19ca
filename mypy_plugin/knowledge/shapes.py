"""Symbolic shapes and what PyPTO ops do to them (docs/rules.md).

A dim is an ``int`` (known), a ``str`` (a named symbol: a closure variable, a
``frontend.dynamic("N")`` name; equal names are equal dims) or ``None`` (unknown).
A symbol that starts with ``~`` is *dynamic*: ``pypto.DYNAMIC`` / ``pypto.DYN`` (``~DYNAMIC``)
or a ``frontend.dynamic("N")`` symbol (``~N``). The frontend traces such a dim as -1, whatever
the call's tensors are (rule: dynamic-dim-traced-as-minus-one); any other symbol is an int at
run time (a closure variable).
A shape is a tuple of dims, or ``None`` when even the rank is unknown.
Functions raise :class:`Finding` only for what is provable from known dims.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Union

from .codes.op_codes import AXIS, BROADCAST, RESHAPE
from .findings import Finding

Dim = Union[int, str, None]
Shape = Union[tuple[Dim, ...], None]


DYNAMIC_MARK: Final = "~"
DYNAMIC: Final = DYNAMIC_MARK + "DYNAMIC"  # pypto.DYNAMIC and pypto.DYN (STATIC is an unknown int)


def dynamic_symbol(name: str) -> str:
    """The dim of a ``frontend.dynamic(...)`` symbol bound to ``name``."""
    return DYNAMIC_MARK + name


def is_dynamic(d: Dim) -> bool:
    """Traced as -1: a DYNAMIC dim or a dynamic symbol."""
    return isinstance(d, str) and d.startswith(DYNAMIC_MARK)


def dynamic_axes(shape: Shape) -> list[int]:
    return [] if shape is None else [i for i, d in enumerate(shape) if is_dynamic(d)]


def fmt_dim(d: Dim) -> str:
    if isinstance(d, str) and d.startswith(DYNAMIC_MARK):
        return d[len(DYNAMIC_MARK):]
    return "?" if d is None else str(d)


def fmt_shape(s: Sequence[Dim] | None, open_tail: bool = False) -> str:
    """The one shape formatter of messages: ``[8, N, ?]`` (``N`` a dynamic dim, ``?`` unknown);
    ``[...]`` for an unknown rank; ``open_tail``: an annotation that ends in ``...``."""
    if s is None:
        return "[...]"
    return "[" + ", ".join([*(fmt_dim(d) for d in s), *(["..."] if open_tail else [])]) + "]"


def same_dim(a: Dim, b: Dim) -> bool:
    """Provably equal (both known ints or the same symbol)."""
    return a is not None and a == b


def differ(a: Dim, b: Dim) -> bool:
    """Provably different: only two known ints can be."""
    return isinstance(a, int) and isinstance(b, int) and a != b


def agreed(options: list[Shape]) -> Shape:
    """The shape every option agrees on: the rank when all share it, each dim all give alike
    (None elsewhere); None when any option is unknown or two ranks differ."""
    first = options[0] if options else None
    if first is None or any(s is None or len(s) != len(first) for s in options):
        return None
    return tuple(d if d is not None and all(s is not None and s[i] == d for s in options) else None
                 for i, d in enumerate(first))


def normalize_axis(axis: int, rank: int) -> int | None:
    """Negative axes count from the end; None when out of range."""
    a = axis + rank if axis < 0 else axis
    return a if 0 <= a < rank else None


def _broadcast_dim(x: Dim, y: Dim) -> Dim:
    if same_dim(x, y):
        return x
    if x == 1:
        return y
    if y == 1:
        return x
    if isinstance(x, int) and isinstance(y, int):
        raise Finding(BROADCAST, "")
    # One side unknown or symbolic: a valid program has it equal to the other or 1.
    if isinstance(x, int):
        return x
    if isinstance(y, int):
        return y
    return None


def broadcast(a: Shape, b: Shape) -> Shape:
    """numpy-style: pad the shorter with leading 1s, each dim equal or 1;
    each operand may be expanded along at most one axis (rule: broadcast-one-axis)."""
    if a is None or b is None:
        return None
    rank = max(len(a), len(b))
    pa = (1,) * (rank - len(a)) + a
    pb = (1,) * (rank - len(b)) + b
    try:
        out = tuple(_broadcast_dim(x, y) for x, y in zip(pa, pb))
    except Finding:
        raise Finding(
            BROADCAST,
            f"shapes {fmt_shape(a)} and {fmt_shape(b)} are not broadcast-compatible",
            "each dim must be equal, or 1 on one side",
        ) from None
    for operand, padded in ((a, pa), (b, pb)):
        expanded = [i for i, (d, r) in enumerate(zip(padded, out)) if d == 1 and isinstance(r, int) and r != 1]
        if len(expanded) > 1:
            raise Finding(
                BROADCAST,
                f"operand {fmt_shape(operand)} would be expanded along {len(expanded)} axes "
                f"to {fmt_shape(out)}; PyPTO expands at most one axis per operand",
                "expand it one axis at a time, e.g. with pypto.expand_clone, or reshape it first",
            )
    return out


def broadcast_founded(a: Shape, b: Shape) -> Shape:
    """:func:`broadcast` that never raises, for a call already reported: the padded rank, each
    dim only where both sides agree on it (a conflict is an unknown dim)."""
    if a is None or b is None:
        return None
    rank = max(len(a), len(b))
    pa = (1,) * (rank - len(a)) + a
    pb = (1,) * (rank - len(b)) + b
    out: list[Dim] = []
    for x, y in zip(pa, pb):
        try:
            out.append(_broadcast_dim(x, y))
        except Finding:
            out.append(None)
    return tuple(out)


Broadcast = Callable[[Shape, Shape], Shape]


def axis_error(axis: int, shape: tuple[Dim, ...]) -> Finding:
    """A positive axis out of range is FFFFFF "Axis is not in the reasonable range!" (rule: axis-range);
    a negative one crashes 0.2.0 with SIGSEGV (rule: reduce-negative-axis)."""
    rank = len(shape)
    outcome = (
        "0.2.0 crashes with SIGSEGV (or raises FC1001 when the last-axis tile is not 32-byte aligned)"
        if axis < 0
        else "the compiler raises FFFFFF (Axis is not in the reasonable range!)"
    )
    return Finding(
        AXIS,
        f"axis {axis} is out of range for a tensor of rank {rank} {fmt_shape(shape)}; {outcome}",
        f"use an axis from {-rank} to {rank - 1}",
    )


def reduce(shape: Shape, axis: int | None, keepdim: bool) -> Shape:
    """sum/amax/amin/prod: shape[axis] = 1, dropped unless keepdim; 1-D gives [1]."""
    if shape is None or axis is None:
        return None
    ax = normalize_axis(axis, len(shape))
    if ax is None:
        raise axis_error(axis, shape)
    if len(shape) == 1:
        return (1,)
    if keepdim:
        return shape[:ax] + (1,) + shape[ax + 1:]
    return shape[:ax] + shape[ax + 1:]


def reduce_some_axis(shape: Shape, keepdim: bool) -> Shape:
    """sum/amax/amin/prod/var over one int axis whose value is not known: the rank is (dims of 1
    stay 1 with keepdim; which other dim became 1 or went is unknown)."""
    if shape is None:
        return None
    if len(shape) == 1:
        return (1,)
    if keepdim:
        return tuple(1 if d == 1 else None for d in shape)
    return (None,) * (len(shape) - 1)


def reduce_all(shape: Shape) -> Shape:
    return (1,)


def transpose(shape: Shape, dim0: int | None, dim1: int | None) -> Shape:
    if shape is None:
        return None
    if dim0 is None or dim1 is None:
        return None
    a, b = normalize_axis(dim0, len(shape)), normalize_axis(dim1, len(shape))
    if a is None or b is None:
        bad, which = (dim0, 0) if a is None else (dim1, 1)
        raise Finding(
            AXIS,
            f"transpose dim {bad} is out of range for rank {len(shape)} {fmt_shape(shape)}; "
            f"the compiler raises FC0000 (Transpose dim {which} is invalid.)",
            f"use dims from {-len(shape)} to {len(shape) - 1}",
        )
    out = list(shape)
    out[a], out[b] = out[b], out[a]
    return tuple(out)


def unsqueeze(shape: Shape, dim: int | None) -> Shape:
    if shape is None or dim is None:
        return None
    ax = normalize_axis(dim, len(shape) + 1)
    if ax is None:
        raise Finding(
            AXIS,
            f"unsqueeze dim {dim} is out of range for rank {len(shape)} {fmt_shape(shape)}; the compiler raises "
            "RuntimeError (CHECK FAILED: unsqueezeDimNum < ...)",
            f"use a dim from {-len(shape) - 1} to {len(shape)}",
        )
    return shape[:ax] + (1,) + shape[ax:]


def numel(shape: Shape) -> int | None:
    if shape is None:
        return None
    n = 1
    for d in shape:
        if not isinstance(d, int):
            return None
        n *= d
    return n


def reshape(shape: Shape, target: Sequence[Dim] | None) -> Shape:
    """One -1 is inferred from the element count; a different count is an error (rule: reshape-element-count)."""
    if target is None:
        return None
    dims = list(target)
    holes = [i for i, d in enumerate(dims) if d == -1]
    have = numel(shape)
    known = numel(tuple(d for d in dims if d != -1))
    if len(holes) == 1:
        if have is not None and known is not None and known > 0 and have % known == 0:
            dims[holes[0]] = have // known
        else:
            dims[holes[0]] = None
        return tuple(dims)
    if len(holes) > 1:
        return tuple(None if d == -1 else d for d in dims)
    if have is not None and known is not None and have != known:
        raise Finding(
            RESHAPE,
            f"reshape from {fmt_shape(shape)} ({have} elements) to {fmt_shape(tuple(dims))} ({known} elements)",
            "the element count must stay the same; one dim may be -1",
        )
    return tuple(dims)


def concat(shapes: Sequence[Shape], dim: int | None) -> Shape:
    """The dims add up along ``dim``. A tensor of unknown shape among them has the others' rank and
    dims off the axis on any run that compiles (FC0000 otherwise), so only the sum is lost."""
    known = [s for s in shapes if s is not None]
    if not known or dim is None:
        return None
    first = known[0]
    ax = normalize_axis(dim, len(first))
    if ax is None:
        raise Finding(
            AXIS,
            f"concat dim {dim} is out of range for rank {len(first)} {fmt_shape(first)}; the compiler raises FFFFFF",
            f"use a dim from {-len(first)} to {len(first) - 1}",
        )
    if any(len(s) != len(first) for s in known):
        return None
    total: Dim = 0
    for s in shapes:
        d = s[ax] if s is not None else None
        total = total + d if isinstance(total, int) and isinstance(d, int) else None
    out = [next((s[i] for s in known if s[i] is not None), None) for i in range(len(first))]
    out[ax] = total
    return tuple(out)


def matmul(a: Shape, b: Shape, a_trans: bool, b_trans: bool) -> Shape:
    """[..., M, K] @ [..., K, N] -> [..., M, N] on the logical (transposed) views. Batch dims
    broadcast as in torch (right-aligned), so operands of different ranks, which PyPTO rejects
    (rule: matmul-rank), still give the shape the call meant."""
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return None
    m = a[-1] if a_trans else a[-2]
    n = b[-2] if b_trans else b[-1]
    rank = max(len(a), len(b)) - 2
    pa = (1,) * (rank - len(a) + 2) + a[:-2]
    pb = (1,) * (rank - len(b) + 2) + b[:-2]
    batch: list[Dim] = []
    for x, y in zip(pa, pb):
        batch.append(x if y == 1 else y if x == 1 else x if same_dim(x, y) else None)
    return tuple(batch) + (m, n)


def k_dims(a: Shape, b: Shape, a_trans: bool, b_trans: bool) -> tuple[Dim, Dim]:
    """The K of each operand (0.2.0 matmul.py): lhs last (-2 with a_trans), rhs -2 (last with b_trans)."""
    ka: Dim = None
    kb: Dim = None
    if a is not None and len(a) >= 2:
        ka = a[-2] if a_trans else a[-1]
    if b is not None and len(b) >= 2:
        kb = b[-1] if b_trans else b[-2]
    return ka, kb
