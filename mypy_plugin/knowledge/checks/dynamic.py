"""Whole-tensor ops on a dynamic dim (rule: dynamic-dim-whole-tensor-op), and slices that keep
the symbol as an extent (rule: dynamic-dim-slice-extent).

The 0.2.0 frontend traces a ``pypto.DYNAMIC`` / ``pypto.DYN`` dim and a ``frontend.dynamic("N")``
symbol as -1, whatever the call's tensors are; the ops of :data:`.ops.ON_DYNAMIC` check their
operands' shapes while tracing and fail there. Real kernels loop over the dynamic dim and work
on static views of it.
"""

from __future__ import annotations

from typing import Final

from ..op_call import Call
from ..codes.op_codes import DYNAMIC_DIM, NOT_CONCRETE
from ..findings import Finding
from ..indexing import Span
from ..shapes import dynamic_axes, fmt_dim, fmt_shape, is_dynamic
from ..values import Result, TensorVal


def dynamic_operand(c: Call) -> Finding | None:
    """The first tensor operand with a dynamic dim, for an op that 0.2.0 rejects on one."""
    reaction = c.row.on_dynamic
    if reaction is None or not c.env.dynamic_dim_rule:
        return None
    for key, pos in (("input", 0), (c.row.rhs, 1)):
        t = c.args.tensor(key, pos)
        axes = dynamic_axes(t.shape) if t is not None else []
        name = c.args.source(key, pos)
        if t is None or not axes or name in c.retyped:
            continue
        assert t.shape is not None
        dims = " and ".join(f"{i} ({fmt_dim(t.shape[i])})" for i in axes)
        return Finding(
            DYNAMIC_DIM,
            f"{c.label}: {name or 'an operand'} is {fmt_shape(t.shape)}{' ' + t.dtype if t.dtype else ''}, and the "
            f"frontend traces its dynamic dim {dims} as -1, whatever the call's tensors are; 0.2.0 fails here at "
            f"trace time with {reaction}",
            _loop_note(name or "x", t, axes[0], c),
        )
    return None




def dynamic_slice(c: Call) -> Finding | None:
    """A read ``x[...]`` that is not the whole tensor, where a dynamic axis keeps the symbol as
    its extent (``:``, ``8:``, or left out): 0.2.0 computes each axis' extent (stop - start) as
    an int while tracing (rule: dynamic-dim-slice-extent). ``x[:]``, ``x[-8:]``, ``x[0:8]`` and
    ``x[i * 8:(i + 1) * 8]`` have an int extent and compile."""
    if not c.env.dynamic_dim_rule:
        return None
    t = c.args.tensor("input", 0)
    name = c.args.source("input", 0)
    if t is None or t.shape is None or not dynamic_axes(t.shape) or name in c.retyped:
        return None
    keys = c.args.index_keys()
    if not all(isinstance(k, (slice, Span)) for k in keys) or len(keys) > len(t.shape):
        return None  # ints, Ellipsis, unknown keys: not probed, or not provable
    if all(isinstance(k, slice) and k.start is None and k.stop is None for k in keys):
        return None  # the whole tensor: 0.2.0 returns it as it is
    padded: list[object] = list(keys) + [slice(None)] * (len(t.shape) - len(keys))
    for axis, (dim, key) in enumerate(zip(t.shape, padded)):
        if is_dynamic(dim) and isinstance(key, slice) and key.stop is None and (key.start is None or key.start >= 0):
            written = "left out" if axis >= len(keys) else f"{'' if key.start is None else key.start}:"
            return Finding(
                NOT_CONCRETE,
                f"{c.label}: {name or 'the tensor'} is {fmt_shape(t.shape)}, and the slice of its dynamic dim "
                f"{axis} ({fmt_dim(dim)}; {written}) has the symbol as its extent; 0.2.0 sizes each sliced axis as "
                "an int and fails here at trace time (TypeError: Cannot convert symbols to int)",
                _loop_note(name or "x", t, axis, c),
            )
    return None


def without_dynamic_dims(result: Result) -> Result:
    """The result of an op that failed on a dynamic dim: never built, so the ops that use it are
    not a second root cause; its dynamic dims become unknown (rank, static dims and dtype stay)."""
    if isinstance(result, TensorVal) and result.shape is not None:
        return TensorVal(tuple(None if is_dynamic(d) else d for d in result.shape), result.dtype)
    if isinstance(result, tuple):
        return tuple(t for r in result for t in [without_dynamic_dims(r)] if isinstance(t, TensorVal))
    return result


def _loop_note(name: str, t: TensorVal, axis: int, c: Call) -> str:
    """Work on static views: a loop over the dynamic axis, a tile of the vec tile's size."""
    assert t.shape is not None
    vec = c.env.vec
    tile = vec[axis] if isinstance(vec, tuple) and len(vec) == len(t.shape) else None
    step = str(tile) if isinstance(tile, int) else "TILE"
    view = [step if i == axis else fmt_dim(d) for i, d in enumerate(t.shape)]
    offsets = [f"i * {step}" if i == axis else "0" for i in range(len(t.shape))]
    return (
        f"loop over the dynamic dim and work on static views: for i in pypto.loop({name}.shape[{axis}] // {step}): "
        f"v = pypto.view({name}, [{', '.join(view)}], [{', '.join(offsets)}]); ...; "
        f"pypto.assemble(result, [{', '.join(offsets)}], <output>)"
    )
