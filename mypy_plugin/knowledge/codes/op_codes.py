"""The codes of findings at an op call inside a kernel or helper: shapes, dtypes, tiles, writes."""

from __future__ import annotations

from typing import Final

from .table import Code

TRANSPOSE: Final = Code(
    "pypto-transpose",
    summary="`.T` on a PyPTO tensor (it has none)",
    catches="`.T` on a PyPTO tensor.",
    compiler="AttributeError: 'Tensor' object has no attribute 'T' at trace time.",
    bad="scores = pypto.matmul(q, k.T, pypto.DT_FP32)",
    fixed="scores = pypto.matmul(q, k, pypto.DT_FP32, b_trans=True)",
    rules=("no-transpose-attribute",),
)

NO_METHOD: Final = Code(
    "pypto-no-method",
    summary="A tensor member PyPTO does not have",
    catches=(
        "Tensor members PyPTO does not have (.abs() .neg() .pow() .float() .half() .mean() .max() .min() "
        ".cast() .to() .permute() .squeeze() .expand() .numel() .size() .prod() .clamp() .square() "
        ".ndim), and Tensor.where / Tensor.lrelu, which exist but pass too many arguments on."
    ),
    compiler="AttributeError at trace time (TypeError for .where / .lrelu).",
    bad="mag = x.abs()",
    fixed="mag = pypto.abs(x)",
    rules=("missing-members", "broken-where-lrelu"),
)

REDUCE_ALIGN: Final = Code(
    "pypto-reduce-align",
    summary="Last-axis reduction whose vec tile is not 32-byte aligned",
    catches=(
        "A last-axis reduction (sum, amax, amin, prod, var, softmax, rms_norm) whose vec tile entry at "
        "index rank - 1 times the element size is not a multiple of 32 bytes."
    ),
    compiler="FC1001 'Reduce op: the tileShape of last axis need to 32Byte align!'.",
    bad="pypto.set_vec_tile_shapes(16, 8)\nrow_max = x.amax(-1, keepdim=True)    # x: [16, 64] bf16",
    fixed="pypto.set_vec_tile_shapes(16, 16)   # 16 x 2 bytes = 32 bytes\nrow_max = x.amax(-1, keepdim=True)",
    rules=("reduce-last-axis-32-byte", "reduce-in-fp32", "reduce-negative-axis", "helper-runs-in-the-trace"),
)

MATMUL_K: Final = Code(
    "pypto-matmul-k",
    summary="matmul operands whose K dims differ",
    catches="matmul / Tensor.matmul / @ whose K dims differ after a_trans / b_trans, incl. ones-vector reductions.",
    compiler="'K-dimension valid shape mismatch'.",
    bad="row_sum = pypto.matmul(x, ones_v, pypto.DT_FP32)   # x: [8, 64], ones_v: [32, 1]",
    fixed="ones_v = pypto.full([64, 1], 1.0, pypto.DT_FP32)\nrow_sum = pypto.matmul(x, ones_v, pypto.DT_FP32)",
    rules=("matmul-k", "traced-with-call-tensors"),
)

BROADCAST: Final = Code(
    "pypto-broadcast",
    summary="Shapes that do not broadcast",
    catches="Shapes that do not broadcast, or that need two expanded axes on one operand.",
    compiler="FC0000 'shape not support binary operation' / 'Only allow to expand one axis!'.",
    bad="y = a * b          # a: [8, 16], b: [4, 16]",
    fixed="y = a * b[0:1, :]  # [8, 16] * [1, 16]",
    rules=("broadcast-shapes", "broadcast-one-axis"),
)

RESHAPE: Final = Code(
    "pypto-reshape",
    summary="reshape/view that changes the element count or rank",
    catches="reshape that changes the element count; view that changes the rank.",
    compiler="'Shape size not match' / F21004.",
    bad="y = x.reshape([8, 8])    # x: [8, 16]",
    fixed="y = x.reshape([8, -1])",
    rules=("reshape-element-count", "view-rank"),
)

AXIS: Final = Code(
    "pypto-axis",
    summary="Axis out of range",
    catches="A reduction / transpose / unsqueeze axis out of range.",
    compiler="FFFFFF 'Axis is not in the reasonable range!'.",
    bad="s = x.sum(2)     # x: [8, 64]",
    fixed="s = x.sum(-1)",
    rules=("axis-range", "reduce-negative-axis"),
)

TILE_MISSING: Final = Code(
    "pypto-tile-missing",
    summary="An op with no vec/cube tile set before it",
    catches=(
        "A vector op with no vec tile set before it in the kernel, a reduction with none, a matmul with "
        "no cube tile."
    ),
    compiler=("F21004 'op [X]tile shape not set' for most ops, SIGSEGV for sum/amax/amin (and softmax, prod on "
              "FP32), FC4000 for a matmul; the first op without its tile fails."),
    bad="out[:] = a + a                     # first line of the kernel",
    fixed="pypto.set_vec_tile_shapes(8, 16)\nout[:] = a + a",
    rules=("vec-tile-required", "reshape-copy-needs-tile", "reduce-without-tile-crashes", "cube-tile-required", "helper-runs-in-the-trace"),
)

TILE_RANK: Final = Code(
    "pypto-tile-rank",
    summary="A vec tile with the wrong number of entries for an op",
    catches=(
        "A vec tile with fewer entries than an op's tensors; transpose whose tile rank differs from the "
        "tensor's."
    ),
    compiler="FFFFFF 'Run pass failed.' / FC0000 'TileShape dim num should same to input.'.",
    bad="pypto.set_vec_tile_shapes(16)\ny = a + a                          # a: [8, 16]",
    fixed="pypto.set_vec_tile_shapes(8, 16)   # one entry per dim\ny = a + a",
    rules=("vec-tile-rank", "transpose-tile-rank"),
)

CUBE_TILE: Final = Code(
    "pypto-cube-tile",
    summary="Cube tile values the matmul rejects",
    catches="Cube tile values that break the matmul's alignment and L0/L1 rules.",
    compiler="FC4001 / FC4000 at compile time.",
    bad="pypto.set_cube_tile_shapes([16, 16], [8, 16], [16, 16])\nc = pypto.matmul(a, b, pypto.DT_FP32)",
    fixed="pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])\nc = pypto.matmul(a, b, pypto.DT_FP32)",
    rules=("cube-tile-alignment", "cube-l1-l0"),
)

DTYPE_MISMATCH: Final = Code(
    "pypto-dtype-mismatch",
    summary="Tensor operands of different dtypes",
    catches=(
        "Tensor-tensor elementwise ops, comparisons, maximum, where, concat with different dtypes "
        "(scalars never conflict)."
    ),
    compiler="FC0000 'The dtype of input tensors are not same.'.",
    bad="y = a * b                                  # a: bf16, b: fp32",
    fixed="y = a * pypto.cast(b, pypto.DT_BF16)",
    rules=("no-dtype-promotion", "concat-dtypes"),
)

MATMUL_DTYPE: Final = Code(
    "pypto-matmul-dtype",
    summary="matmul input/output dtypes the compiler rejects",
    catches=(
        "matmul inputs of different dtypes, an out dtype outside FP32/FP16/BF16/INT32, @ on a dtype with "
        "no out dtype."
    ),
    compiler="'Non-FP8 inputs require identical dtypes.', FC3002, 'unsupported dtype'.",
    bad="c = pypto.matmul(a, f, pypto.DT_FP32)                            # a: fp16, f: fp32",
    fixed="c = pypto.matmul(a, pypto.cast(f, pypto.DT_FP16), pypto.DT_FP32)",
    rules=("matmul-input-dtypes", "matmul-out-dtype", "matmul-operator-dtype"),
)

MATMUL_DTYPE_DOC: Final = Code(
    "pypto-matmul-dtype-doc",
    summary="matmul dtypes outside the documented table (accepted by 0.2.0)",
    catches=(
        "matmul input/out dtype pairs outside the documented table (fp32 inputs with an fp16 result, int8 "
        "with fp32)."
    ),
    compiler="Compiles them anyway.",
    bad="c = pypto.matmul(a, b, pypto.DT_FP16)      # a, b: fp32",
    fixed="c = pypto.matmul(a, b, pypto.DT_FP32)",
    rules=("matmul-doc-table",),
    enabled=False,
)

MATMUL_RANK: Final = Code(
    "pypto-matmul-rank",
    summary="matmul operand ranks or batch dims that do not fit",
    catches="matmul operands of different ranks or outside 2-4; batch dims neither equal nor 1.",
    compiler="'Tensor dimension mismatch', FC3000 'batchSize invalid'.",
    bad="c = pypto.matmul(x, y, pypto.DT_FP32)              # x: [2, 16, 32], y: [3, 32, 16]",
    fixed="c = pypto.matmul(x, y[0:1, :, :], pypto.DT_FP32)   # batch 2 with batch 1",
    rules=("matmul-rank", "matmul-batch"),
)

OUT_SHAPE: Final = Code(
    "pypto-out-shape",
    summary="A result written into an output of another shape",
    catches="out[:] = x, out.move(x), out[a:b, ...] = x where x does not have the destination's shape.",
    compiler=("A move compiles it and writes wrong data; an assemble (out[a:b, ...] = x, out[...] = x) of "
              "another rank fails at trace time (CHECK FAILED ... Assemble)."),
    bad="o3[:] = a.sum(-1)                  # o3: [8, 1]",
    fixed="o3[:] = a.sum(-1, keepdim=True)",
    rules=("write-unchecked", "assemble-rank"),
)

OUT_DTYPE: Final = Code(
    "pypto-out-dtype",
    summary="A result written into an output of another dtype",
    catches="out[:] = x, out.move(x), out[a:b, ...] = x where x does not have the destination's dtype.",
    compiler="Compiles it and writes wrong data: nothing is reported.",
    bad="o2[:] = a * 2.0                            # o2: bf16, a: fp32",
    fixed="o2[:] = pypto.cast(a * 2.0, pypto.DT_BF16)",
    rules=("write-unchecked",),
)

RESHAPE_ALIGN: Final = Code(
    "pypto-reshape-align",
    summary="A copying reshape/view whose vec tile's last entry is not 32-byte aligned",
    catches=(
        "A reshape/view that copies and is written whole into an output, under a vec tile with one entry "
        "per output dim whose last entry x dtype size is not a multiple of 32 bytes (the tile in force at "
        "the call)."
    ),
    compiler="CHECK FAILED: FwkOp tile shape's last dim is not aligned.",
    bad="pypto.set_vec_tile_shapes(8, 4)\nout[:] = a.reshape([16, 8])      # a: [8, 16] DT_FP32",
    fixed="pypto.set_vec_tile_shapes(8, 8)\nout[:] = a.reshape([16, 8])",
    rules=("copy-tile-32-byte",),
)

COMPARE_INT: Final = Code(
    "pypto-compare-int",
    summary="A tensor compared with a Python int",
    catches="A tensor compared with a Python int (a > 0, 0 < a, pypto.eq(a, n) with n: int).",
    compiler="TypeError: Compare(): incompatible function arguments, at trace time.",
    bad="m = a > 0",
    fixed="m = a > 0.0",
    rules=("compare-float-scalar",),
)

DYNAMIC_DIM: Final = Code(
    "pypto-dynamic-dim",
    summary="A whole-tensor op on a tensor with a DYNAMIC dim (traced as -1)",
    catches=(
        "An elementwise op, unary math, softmax, rms_norm, var or matmul on a tensor with a pypto.DYNAMIC "
        "(or frontend.dynamic) dim: the frontend traces that dim as -1, whatever the call's tensors are."
    ),
    compiler=(
        "FFFFFF The shape size of tensor must less than or equal to INT32_MAX (matmul: FC3000 operand dim "
        "= -1, must be > 0), at trace time."
    ),
    bad="out[:] = x * 2.0        # x: [DYNAMIC, 64]",
    fixed=(
        "for i in pypto.loop(x.shape[0] // 8):\n    xs = pypto.view(x, [8, 64], [i * 8, 0])\n    "
        "pypto.assemble(xs * 2.0, [i * 8, 0], out)"
    ),
    rules=("dynamic-dim-traced-as-minus-one", "dynamic-dim-whole-tensor-op"),
)

NOT_CONCRETE: Final = Code(
    "pypto-not-concrete",
    summary="A builtin that needs a Python int given a dynamic dim (a SymbolicScalar)",
    catches=(
        "min(), max(), bool(), int(), sorted(), range(), abs(), divmod(), round(), not, and/or or a "
        "conditional expression on a dim of a pypto.DYNAMIC axis (a SymbolicScalar while tracing)."
    ),
    compiler="ValueError: Not concrete value (range, abs, divmod, round: TypeError), at trace time.",
    bad="rows = min(x.shape[0], 8)",
    fixed="rows = x.shape[0].min(8)",
    rules=("dynamic-dim-traced-as-minus-one", "dynamic-dim-not-concrete", "dynamic-dim-in-shape-list", "dynamic-dim-slice-extent"),
)

VIEW_RANK: Final = Code(
    "pypto-view-rank",
    summary="view offsets or valid_shape with another number of entries than the shape",
    catches="pypto.view / Tensor.view whose offsets or valid_shape list has another number of entries than the shape.",
    compiler=(
        "F21004 when it compiles ('lhs.size():2, rhs.size():1, func Add' / 'Their size actually are 1 and 2'), "
        "on no line of the kernel."
    ),
    bad="v = pypto.view(a, [8, 16], [0])",
    fixed="v = pypto.view(a, [8, 16], [0, 0])",
    rules=("view-offsets-rank",),
)

CUBE_TILE_ENTRIES: Final = Code(
    "pypto-cube-tile-entries",
    summary="set_cube_tile_shapes lists of the wrong length (m, n: 2; k: 2 or 3)",
    catches="pypto.set_cube_tile_shapes whose m or n list does not have 2 entries, or whose k list has neither 2 nor 3.",
    compiler="'ValueError: m must have exactly 2 elements, got 1' (k: '2 or 3 elements') at the call.",
    bad="pypto.set_cube_tile_shapes([16], [32], [16])",
    fixed="pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])",
    rules=("cube-tile-entries",),
)

OP_DTYPE: Final = Code(
    "pypto-op-dtype",
    summary="An op called on a dtype PyPTO 0.2.0 rejects",
    catches=(
        "An op whose tensor operand has a dtype the 0.2.0 compiler rejects when it builds the op "
        "(pypto.log on DT_INT32, ceil_div or gcd on DT_FP32, cumsum on DT_INT64, pypto.minimum(a, 1) on "
        "DT_INT8 ...): only pairs the compiler was asked about (scripts/probe_op_dtypes.py) are reported."
    ),
    compiler="RuntimeError: Errcode: FC0001! The datatype is not supported (and friends), at trace time.",
    bad="y = pypto.log(a)        # a: DT_INT32",
    fixed="y = pypto.log(pypto.cast(a, pypto.DT_FP32))",
    rules=("op-dtype-support",),
)

BUILTIN_MINMAX: Final = Code(
    "pypto-builtin-minmax",
    summary="Python's min() / max() on PyPTO tensors (returns one of them whole)",
    catches="min(a, b) / max(a, b, ...) whose arguments are all PyPTO tensors.",
    compiler="Nothing: it compiles, and the call returns one argument whole (no elementwise max is computed).",
    bad="out[:] = max(a * 2.0, b - 3.0)",
    fixed="out[:] = pypto.maximum(a * 2.0, b - 3.0)",
    rules=("builtin-min-max",),
)
