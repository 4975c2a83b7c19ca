"""Checks on matmul operands and cube tiles (0.2.0 op/matmul.py and cube_operation_impl.cpp).

Rules: matmul-rank, matmul-batch, matmul-input-dtypes, matmul-out-dtype, matmul-operator-dtype,
matmul-doc-table, cube-tile-alignment, cube-l1-l0 (docs/rules.md). ``pypto.matmul`` and ``@``
differ only by their row: the name of the second operand and whether flags and out dtype are given.
"""

from __future__ import annotations

from typing import Final

from .. import dtypes
from ..op_call import Call
from ..codes.op_codes import CUBE_TILE, MATMUL_DTYPE, MATMUL_DTYPE_DOC, MATMUL_RANK
from ..findings import Finding
from ..shapes import fmt_shape
from ..tiles import fmt_cube

_OUT_DTYPES: Final = ("DT_FP32", "DT_FP16", "DT_BF16", "DT_INT32")
_FP8_PAIR: Final = frozenset({"DT_FP8E5M2", "DT_FP8E4M3"})  # the only pair allowed to differ
# The r0.2.0 pypto-matmul.md table: input dtype -> documented output dtypes.
_DOC_TABLE: Final[dict[str, tuple[str, ...]]] = {
    "DT_FP16": ("DT_FP32", "DT_FP16"),
    "DT_BF16": ("DT_FP32", "DT_BF16"),
    "DT_INT8": ("DT_INT32",),
    "DT_FP32": ("DT_FP32",),
    "DT_FP8E5M2": ("DT_FP16", "DT_BF16", "DT_FP32"),
    "DT_FP8E4M3": ("DT_FP16", "DT_BF16", "DT_FP32"),
}
_OPERATOR_RHS: Final = ("DT_FP16", "DT_BF16", "DT_FP32", "DT_INT8")


def _operands(c: Call) -> tuple[str, str]:
    return c.row.rhs, "out_dtype"


def _flags(c: Call) -> tuple[bool, bool] | None:
    if not c.row.explicit_matmul:
        return False, False  # `@` never transposes
    a_trans = c.args.bool_value("a_trans", 99, False)
    b_trans = c.args.bool_value("b_trans", 99, False)
    if a_trans is None or b_trans is None:
        return None
    return a_trans, b_trans


def matmul_rank(c: Call) -> Finding | None:
    """RuntimeError "Tensor dimension mismatch ..." (rule: matmul-rank); FC3000 "batchSize invalid"
    (rule: matmul-batch)."""
    rhs_key, _ = _operands(c)
    x, y = c.args.tensor("input", 0), c.args.tensor(rhs_key, 1)
    if x is None or y is None or x.shape is None or y.shape is None:
        return None
    ra, rb = len(x.shape), len(y.shape)
    if ra != rb or not 2 <= ra <= 4:
        return Finding(
            MATMUL_RANK,
            f"{c.label} of a rank-{ra} {fmt_shape(x.shape)} and a rank-{rb} {fmt_shape(y.shape)} tensor; both "
            f"must have the same rank, 2 to 4 (RuntimeError: Tensor dimension mismatch)",
            "reshape the operands to the same rank, e.g. x.reshape([1, ...]) for a batch of one",
        )
    for i, (p, q) in enumerate(zip(x.shape[:-2], y.shape[:-2])):
        if isinstance(p, int) and isinstance(q, int) and p != q and p != 1 and q != 1:
            return Finding(
                MATMUL_RANK,
                f"{c.label}: batch dim {i} is {p} in {fmt_shape(x.shape)} and {q} in {fmt_shape(y.shape)}; "
                f"batch dims must be equal or 1 (FC3000: batchSize invalid)",
                "make the batch dims equal, or 1 on one side",
            )
    return None


def matmul_dtypes(c: Call) -> Finding | None:
    """ValueError "Non-FP8 inputs require identical dtypes." (rule: matmul-input-dtypes); FC3002
    out dtype (rule: matmul-out-dtype); ``@`` on a dtype it has no out dtype for
    (rule: matmul-operator-dtype)."""
    rhs_key, out_key = _operands(c)
    x, y = c.args.tensor("input", 0), c.args.tensor(rhs_key, 1)
    if x is None or y is None:
        return None
    if x.dtype is not None and y.dtype is not None and x.dtype != y.dtype and not {x.dtype, y.dtype} <= _FP8_PAIR:
        return Finding(
            MATMUL_DTYPE,
            f"{c.label} of {x.dtype} and {y.dtype} inputs; matmul needs identical input dtypes "
            "(ValueError: Non-FP8 inputs require identical dtypes.)",
            f"cast one operand first, e.g. pypto.cast({c.args.text(rhs_key, 1) or '<mat2>'}, pypto.{x.dtype})",
        )
    if not c.row.explicit_matmul:  # `@` picks its out dtype from the right operand
        if y.dtype is not None and y.dtype not in _OPERATOR_RHS:
            return Finding(
                MATMUL_DTYPE,
                f"{c.label} with a {y.dtype} right operand: `@` only picks an out dtype for "
                "FP16, BF16, FP32 (same) and INT8 (INT32) (RuntimeError: unsupported dtype)",
                "call pypto.matmul(a, b, out_dtype) with an explicit out dtype",
            )
        return None
    out = c.args.dtype(out_key, 2)
    if out is not None and out not in _OUT_DTYPES:
        return Finding(
            MATMUL_DTYPE,
            f"{c.label} with out dtype {out}; only DT_FP32, DT_FP16, DT_BF16 and DT_INT32 are supported (FC3002)",
            "use pypto.DT_FP32 (or DT_INT32 for int8 inputs) and cast the result if needed",
        )
    return None


def matmul_doc_dtypes(c: Call) -> Finding | None:
    """Off by default: input/out combinations outside the 0.2.0 docs' table that the compiler
    nevertheless accepts (rule: matmul-doc-table: FP32->FP16, FP32->BF16, INT8->FP32)."""
    if not c.row.explicit_matmul:
        return None
    x = c.args.tensor("input", 0)
    out = c.args.dtype("out_dtype", 2)
    if x is None or x.dtype is None or out is None or x.dtype not in _DOC_TABLE or out not in _OUT_DTYPES:
        return None
    allowed = _DOC_TABLE[x.dtype]
    if out in allowed:
        return None
    return Finding(
        MATMUL_DTYPE_DOC,
        f"{c.label}: {x.dtype} inputs with out dtype {out} are outside the documented table "
        f"({x.dtype} -> {' or '.join(allowed)}); 0.2.0 compiles it, later versions may not",
        f"use out dtype pypto.{allowed[0]}",
    )


def _up16(v: int) -> int:
    return max(16, (v + 15) // 16 * 16)


def cube_tile_values(c: Call) -> Finding | None:
    """CheckCubeTiling / CheckL1L0Tile (rules: cube-tile-alignment, cube-l1-l0)."""
    cube = c.env.cube
    if not isinstance(cube, tuple) or len(cube) != 3:
        return None
    rhs_key, _ = _operands(c)
    x, y = c.args.tensor("input", 0), c.args.tensor(rhs_key, 1)
    flags = _flags(c)
    m, k, n = cube
    if len(m) < 2 or len(k) < 2 or len(n) < 2:
        return None
    m0, k0, n0 = m[0], k[0], n[0]
    # Each known entry that breaks the rule fails it, whatever the other one is. Name only those,
    # and what to put there.
    bad = [(name, v) for name, v in (("kL0", k0), ("nL0", n0)) if isinstance(v, int) and v % 16]
    if bad:
        subject = " and ".join(f"{name}({v})" for name, v in bad)
        fixes = ", ".join(f"{name} = {_up16(v)} (the first entry of the {name[0]} list)" for name, v in bad)
        return _cube(c, f"{subject} must be aligned to 16 elements", "FC4001", f"use a multiple of 16: {fixes}")
    a_bytes = dtypes.nbytes(x.dtype) if x is not None and x.dtype else None
    b_bytes = dtypes.nbytes(y.dtype) if y is not None and y.dtype else None
    if isinstance(k0, int) and a_bytes and (k0 * a_bytes) % 32:
        return _cube(c, f"kL0 * sizeof(dtype) = {k0 * a_bytes} bytes, must be 32-byte aligned", "FC4001",
                     f"make kL0 a multiple of {32 // a_bytes}")
    if isinstance(n0, int) and b_bytes and (n0 * b_bytes) % 32:
        return _cube(c, f"nL0 * sizeof(dtype) = {n0 * b_bytes} bytes, must be 32-byte aligned", "FC4001",
                     f"make nL0 a multiple of {32 // b_bytes} for {y.dtype if y else ''} operands")
    if flags is not None and flags[0] and isinstance(m0, int) and a_bytes and (m0 * a_bytes) % 32:
        return _cube(c, f"mL0 memory not aligned when transA=true: {m0 * a_bytes} bytes, must be 32-byte aligned",
                     "FC4001", f"make mL0 a multiple of {32 // a_bytes} when a_trans=True")
    for axis, values in (("m", m), ("k", k), ("n", n)):
        l0 = values[0]
        names = ["L1a", "L1b"] if axis == "k" else ["L1"]
        for name, l1 in zip(names, values[1:]):
            if isinstance(l0, int) and isinstance(l1, int) and l0 > 0 and (l0 > l1 or l1 % l0):
                return _cube(
                    c,
                    f"Invalid L1/L0 relation: {axis}L0={l0}, {axis}{name}={l1}, "
                    f"require {axis}L0 <= {axis}{name} && {axis}{name} % {axis}L0 == 0",
                    "FC4000",
                    f"make {axis}{name} a multiple of {axis}L0 (e.g. {axis}{name} = {l0 * max(1, -(-l1 // l0))})",
                )
    return None


def _cube(c: Call, text: str, code: str, fix: str) -> Finding:
    cube = c.env.cube
    assert isinstance(cube, tuple)
    tile = fmt_cube(cube)
    return Finding(
        CUBE_TILE,
        f"{c.label} with cube tile ({tile}): {text} ({code})",
        f"{fix} in pypto.set_cube_tile_shapes(m, k, n)",
    )
