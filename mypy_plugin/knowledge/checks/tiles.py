"""Checks on the tiles in force: reduction alignment, missing tiles, tile rank.

Rules: reduce-last-axis-32-byte, vec-tile-required, reduce-without-tile-crashes,
cube-tile-required, vec-tile-rank, transpose-tile-rank, reshape-copy-needs-tile, copy-tile-32-byte
(docs/rules.md).
What each op needs (its tile regime, reduced axes and dtype, special cases) is in its row.
"""

from __future__ import annotations

from typing import Final

from .. import dtypes, no_tile
from ..op_call import Call
from ..codes.op_codes import REDUCE_ALIGN, RESHAPE_ALIGN, TILE_MISSING, TILE_RANK
from ..findings import Finding
from ..shapes import Dim, fmt_shape, normalize_axis
from ..tiles import NOT_SET, fmt_vec
from ..values import TensorVal

_TWO_BYTE_FLOATS: Final = frozenset({"DT_FP16", "DT_BF16"})
# Root causes (Finding.cause): one set_vec_tile_shapes / set_cube_tile_shapes call fixes every op after it.
NO_VEC_TILE: Final = "no vec tile"
NO_CUBE_TILE: Final = "no cube tile"


def _nearest_multiple(value: int, step: int) -> int:
    down = (value // step) * step
    up = down + step
    return up if down == 0 or up - value <= value - down else down


def reduce_align(c: Call) -> Finding | None:
    """FC1001: last-axis reduction tile * bytes must be a multiple of 32 (rule: reduce-last-axis-32-byte)."""
    reduce, label, a, env = c.row.reduce, c.label, c.args, c.env
    if not env.reduce_align_rule or reduce is None:
        return None
    x = a.tensor("input", 0)
    if x is None or x.shape is None or x.dtype is None:
        return None
    rank = len(x.shape)
    axes = reduce.axes(a, rank)
    if axes is None or rank - 1 not in axes:
        return None
    # rule: reduce-in-fp32
    dtype = reduce.widens_to if reduce.widens_to and x.dtype in _TWO_BYTE_FLOATS else x.dtype
    size = dtypes.nbytes(dtype)
    align = dtypes.elements_per_block(dtype)
    if size is None or align is None:
        return None
    label = f"{label} reduces the last axis of {fmt_shape(x.shape)} {x.dtype}"
    if dtype != x.dtype:
        label += f" (reduced as {dtype})"
    k = x.shape[-1] if x.shape[-1] is not None else "K"
    ones = f"ones = pypto.full([{k}, 1], 1.0, pypto.{x.dtype})"

    def alt() -> str:  # (made for a finding only: the operand's text is not free)
        return f"or reduce with a ones vector: pypto.matmul({a.text('input', 0) or '<input>'}, ones, pypto.DT_FP32) with {ones}"

    tile = env.vec[rank - 1] if isinstance(env.vec, tuple) and len(env.vec) >= rank else None
    if isinstance(env.vec, tuple) and len(env.vec) < rank:
        return None  # tile rank < tensor rank: undefined behaviour in 0.2.0 (rule: vec-tile-rank), not this rule
    if tile is not None:
        if (tile * size) % dtypes.BLOCK_BYTES == 0:
            return None
        assert isinstance(env.vec, tuple)
        tile_text = fmt_vec(env.vec)
        return Finding(
            REDUCE_ALIGN,
            f"{label}: vec tile {tile_text} has {tile} at index {rank - 1}, "
            f"{tile} x {size} bytes = {tile * size} bytes, not a multiple of 32 bytes "
            f"(a multiple of {align} elements); the compiler raises FC1001",
            f"set that tile entry to a multiple of {align} (e.g. {_nearest_multiple(tile, align)}), {alt()}",
        )
    if env.vec is NOT_SET or env.reduce_align_fallback != "dim":
        return None
    last = x.shape[-1]
    if not isinstance(last, int) or (last * size) % dtypes.BLOCK_BYTES == 0:
        return None
    return Finding(
        REDUCE_ALIGN,
        f"{label}: last dim {last} x {size} bytes = {last * size} bytes is not a multiple of 32 bytes "
        f"(reduce_align_fallback = \"dim\": the vec tile is not known here)",
        f"pad the last dim to a multiple of {align} (e.g. {_nearest_multiple(last, align)}), {alt()}",
    )


_SET_VEC_NOTE: Final = "call pypto.set_vec_tile_shapes(...) earlier in the kernel, one entry per dim of the output"


def _first_tensor(c: Call) -> TensorVal | None:
    for key, pos in (("input", 0), ("other", 1)):
        t = c.args.tensor(key, pos)
        if isinstance(t, TensorVal):
            return t
    return None


def vec_tile_missing(c: Call) -> Finding | None:
    """F21004 "op [ADD]tile shape not set" (rule: vec-tile-required; what each op does with no
    tile is the probed table of no_tile.py: an identity cast and unary + compile)."""
    if c.env.vec is not NOT_SET:
        return None
    x = _first_tensor(c)
    if x is None:
        return None
    result = c.result.dtype if isinstance(c.result, TensorVal) else None
    reaction = no_tile.reaction(c.row, x.dtype, result)
    if reaction is None:
        return None
    return Finding(TILE_MISSING, f"{c.label} runs with no vec tile set in this kernel; {reaction}", _SET_VEC_NOTE,
                   cause=NO_VEC_TILE)


def _copies(c: Call, x: TensorVal) -> bool | None:
    """Does this reshape/view copy (True), not copy (False), or can we not tell (None)? A target
    written out as the tensor's own dims, without -1, is no copy (differential cases 55, 547)."""
    target = c.args.dims("shape", 1)
    if target is None or x.shape is None:
        return None
    if -1 not in target and tuple(target) == tuple(x.shape):
        return False
    if -1 not in target and any(not isinstance(d, int) for d in target):
        return None
    return True


def copy_tile_align(c: Call) -> Finding | None:
    """CHECK FAILED "FwkOp tile shape's last dim is not aligned" (rule: copy-tile-32-byte): a copying
    reshape/view written whole into an output, whose output has one dim per vec tile entry, needs
    the tile's last entry x bytes to be a multiple of 32. The tile in force at the call counts, not
    a later one (probes p50/p51); with fewer or more tile entries than output dims, or when another
    op consumes the copy, 0.2.0 compiles it."""
    x, out, vec = c.args.tensor("input", 0), c.result, c.env.vec
    if not c.into_output:
        return None  # consumed by another op instead, the copy compiles (differential cases 79, 756, 959, 961)
    if x is None or not isinstance(out, TensorVal) or out.shape is None or out.dtype is None:
        return None
    if not isinstance(vec, tuple) or len(vec) != len(out.shape) or not isinstance(vec[-1], int) or not _copies(c, x):
        return None
    size, align = dtypes.nbytes(out.dtype), dtypes.elements_per_block(out.dtype)
    if size is None or align is None or (vec[-1] * size) % dtypes.BLOCK_BYTES == 0:
        return None
    tile = "(" + ", ".join("?" if t is None else str(t) for t in vec) + ")"
    return Finding(
        RESHAPE_ALIGN,
        f"copies into {fmt_shape(out.shape)} {out.dtype} under vec tile {tile}: its last entry {vec[-1]} x {size} "
        f"bytes = {vec[-1] * size} bytes is not a multiple of 32 bytes; the compiler fails "
        "(CHECK FAILED: FwkOp tile shape's last dim is not aligned)",
        f"set the vec tile's last entry to a multiple of {align} before this call "
        f"(e.g. {_nearest_multiple(vec[-1], align)})",
    )


def reshape_tile_missing(c: Call) -> Finding | None:
    """reshape / view copy the data (rule: reshape-copy-needs-tile), except a reshape
    to the very dims the tensor has, written out (differential cases 55, 547); with a -1 in the
    target it copies even then (cases 149, 487). Unlike the other vec ops, the copy takes its
    tile from the kernel: a vec tile set anywhere in it, even after the reshape, is enough
    (probes of 2026-11-30; a DeepSeek-V4 kernel reshapes before its first tile)."""
    if c.env.vec_set_in_kernel:
        return None
    x = c.args.tensor("input", 0)
    if x is None or not _copies(c, x):
        return None  # no copy, or cannot tell whether the shape changes
    return vec_tile_missing(c)


def reduce_tile_missing(c: Call) -> Finding | None:
    """A reduction with no vec tile reads past an empty tile list: SIGSEGV, no message
    (rule: reduce-without-tile-crashes). One that first casts its input fails on that CAST with
    F21004 (softmax, prod on FP16/BF16), var and rms_norm on FP32 on their first vector op: the
    probed table of no_tile.py says which, by dtype."""
    x = c.args.tensor("input", 0)
    if c.env.vec is not NOT_SET or x is None:
        return None
    reaction = no_tile.reaction(c.row, x.dtype)
    if reaction is None:
        return None
    return Finding(TILE_MISSING, f"{c.label} runs with no vec tile set in this kernel; {reaction}", _SET_VEC_NOTE,
                   cause=NO_VEC_TILE)


def cube_tile_missing(c: Call) -> Finding | None:
    """FC4000 "Invalid tile values: kL0=0 ..." (rule: cube-tile-required)."""
    label, env = c.label, c.env
    if env.cube is not NOT_SET:
        return None
    return Finding(
        TILE_MISSING,
        f"{label} runs with no cube tile set in this kernel; the compiler raises FC4000 (Invalid tile values: kL0=0 ...)",
        "call pypto.set_cube_tile_shapes([mL0, mL1], [kL0, kL1], [nL0, nL1]) before the matmul",
        cause=NO_CUBE_TILE,
    )


def _tensor_shapes(c: Call) -> list[tuple[Dim, ...]]:
    shapes: list[tuple[Dim, ...]] = []
    for key, pos in (("input", 0), ("other", 1)):
        t = c.args.tensor(key, pos)
        if t is not None and t.shape is not None:
            shapes.append(t.shape)
    results = c.result if isinstance(c.result, tuple) else (c.result,)
    shapes.extend(r.shape for r in results if isinstance(r, TensorVal) and r.shape is not None)
    return shapes


def vec_tile_rank(c: Call) -> Finding | None:
    """A vec tile with fewer entries than the op's tensors: the pass fails with "Run pass
    failed." and the reason only in the log (rule: vec-tile-rank; tile_shape_verifier.h). More
    is fine. Leading dims of 1 do not excuse it. The row's ``short_tile`` holds the exceptions:
    a comparison with a scalar operand compiles, and ``reciprocal`` is nondeterministic."""
    if not isinstance(c.env.vec, tuple):
        return None
    have = len(c.env.vec)
    short = [s for s in _tensor_shapes(c) if len(s) > have]
    if not short:
        return None
    short_tile = c.row.short_tile
    if short_tile == "unprovable":
        return None
    if short_tile == "scalar-ok" and (c.args.tensor("input", 0) is None or c.args.tensor("other", 1) is None):
        return None
    need = max(len(s) for s in short)
    tile = "(" + ", ".join("?" if t is None else str(t) for t in c.env.vec) + ")"
    return Finding(
        TILE_RANK,
        f"{c.label} works on rank-{need} tensors but the vec tile {tile} has {len(c.env.vec)} "
        f"entr{'y' if len(c.env.vec) == 1 else 'ies'}; the compile pass fails with \"Run pass failed.\" "
        f"(log: Tile shape size {len(c.env.vec)} is not matched the output shape size {need})",
        f"set a vec tile with {need} entries before it, e.g. pypto.set_vec_tile_shapes("
        + ", ".join(["1"] * (need - len(c.env.vec)) + [str(t) if t is not None else "?" for t in c.env.vec])
        + ")",
    )


def transpose_tile_rank(c: Call) -> Finding | None:
    """FC0000 "TileShape dim num should same to input." unless both swapped dims are 1 or
    equal (rule: transpose-tile-rank)."""
    x = c.args.tensor("input", 0)
    d0, d1 = c.args.int_value("dim0", 1), c.args.int_value("dim1", 2)
    if x is None or x.shape is None or d0 is None or d1 is None:
        return None
    rank = len(x.shape)
    a, b = normalize_axis(d0, rank), normalize_axis(d1, rank)
    if a is None or b is None or a == b or (x.shape[a] == 1 and x.shape[b] == 1):
        return None
    if c.env.vec is NOT_SET:
        have = "no vec tile is set"
    elif isinstance(c.env.vec, tuple) and len(c.env.vec) != rank:
        have = f"the vec tile has {len(c.env.vec)} entr{'y' if len(c.env.vec) == 1 else 'ies'}"
    else:
        return None
    return Finding(
        TILE_RANK,
        f"{c.label} of a rank-{rank} tensor {fmt_shape(x.shape)} needs a vec tile with exactly {rank} entries, "
        f"but {have}; the compiler raises FC0000 (TileShape dim num should same to input.)",
        f"set pypto.set_vec_tile_shapes(...) with {rank} entries before the transpose, "
        "or transpose inside the matmul with a_trans=True / b_trans=True",
    )
