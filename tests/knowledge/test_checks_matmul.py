"""Direct tests of knowledge/checks/matmul.py: each check on one Call, no mypy (docs/rules.md, Matmul)."""

from __future__ import annotations

from typing import Any

import pytest

from mypy_plugin.knowledge.checks import matmul as mm
from mypy_plugin.knowledge.codes import op_codes
from mypy_plugin.knowledge.tiles import NOT_SET, UNKNOWN

from knowledge.fakes import assert_finding, op_call, t

F32, F16, BF16, I8, I32 = "DT_FP32", "DT_FP16", "DT_BF16", "DT_INT8", "DT_INT32"
E5M2, E4M3 = "DT_FP8E5M2", "DT_FP8E4M3"
LHS, RHS = t((16, 32), F16), t((32, 16), F16)


# --- matmul_rank (rules: matmul-rank, matmul-batch) -----------------------------------------------

_RANK_NOTE = "reshape the operands to the same rank, e.g. x.reshape([1, ...]) for a batch of one"


@pytest.mark.parametrize("x, y, ra, rb", [
    (LHS, t((2, 32, 16), F16), 2, 3),
    (t((32,), F16), t((32,), F16), 1, 1),  # same rank, but below 2
    (t((1, 1, 1, 16, 32), F16), t((1, 1, 1, 32, 16), F16), 5, 5),  # same rank, but above 4
])
def test_matmul_rank(x: Any, y: Any, ra: int, rb: int) -> None:
    xs, ys = ", ".join(map(str, x.shape)), ", ".join(map(str, y.shape))
    assert_finding(
        mm.matmul_rank(op_call("matmul", x, y, F32)), op_codes.MATMUL_RANK,
        f"pypto.matmul of a rank-{ra} [{xs}] and a rank-{rb} [{ys}] tensor; both must have the same rank, 2 to 4 "
        "(RuntimeError: Tensor dimension mismatch)",
        _RANK_NOTE,
    )


def test_matmul_batch() -> None:
    c = op_call("__matmul__", t((4, 2, 16, 32), F16), t((4, 3, 32, 16), F16))
    assert_finding(
        mm.matmul_rank(c), op_codes.MATMUL_RANK,
        "operator @: batch dim 1 is 2 in [4, 2, 16, 32] and 3 in [4, 3, 32, 16]; batch dims must be equal or 1 "
        "(FC3000: batchSize invalid)",
        "make the batch dims equal, or 1 on one side",
    )


@pytest.mark.parametrize("x, y", [
    (LHS, RHS),
    (t((2, 16, 32), F16), t((1, 32, 16), F16)),  # 1 on one side
    (t((1, 3, 16, 32), F16), t((2, 3, 32, 16), F16)),
    (t(("B", 16, 32), F16), t((3, 32, 16), F16)),  # a symbol may be 3
    (t((None, 16, 32), F16), t((3, 32, 16), F16)),
    (t(None, F16), RHS),  # unknown rank
    (LHS, 2.0),  # not a tensor
])
def test_matmul_rank_silent(x: object, y: object) -> None:
    assert mm.matmul_rank(op_call("matmul", x, y, F32)) is None


# --- matmul_dtypes (rules: matmul-input-dtypes, matmul-out-dtype, matmul-operator-dtype) ------------

def test_matmul_input_dtypes() -> None:
    c = op_call("matmul", LHS, t((32, 16), F32), F32, texts={1: "f"})
    assert_finding(
        mm.matmul_dtypes(c), op_codes.MATMUL_DTYPE,
        "pypto.matmul of DT_FP16 and DT_FP32 inputs; matmul needs identical input dtypes "
        "(ValueError: Non-FP8 inputs require identical dtypes.)",
        "cast one operand first, e.g. pypto.cast(f, pypto.DT_FP16)",
    )
    c = op_call("__matmul__", t((16, 32), E5M2), t((32, 16), F16))  # one FP8 side is not enough
    assert_finding(
        mm.matmul_dtypes(c), op_codes.MATMUL_DTYPE,
        "operator @ of DT_FP8E5M2 and DT_FP16 inputs; matmul needs identical input dtypes "
        "(ValueError: Non-FP8 inputs require identical dtypes.)",
        "cast one operand first, e.g. pypto.cast(<mat2>, pypto.DT_FP8E5M2)",
    )


@pytest.mark.parametrize("out", [I8, "DT_INT16", "DT_UINT8", "DT_FP8E4M3"])
def test_matmul_out_dtype(out: str) -> None:
    c = op_call("matmul", LHS, RHS, named={"out_dtype": out})
    assert_finding(
        mm.matmul_dtypes(c), op_codes.MATMUL_DTYPE,
        f"pypto.matmul with out dtype {out}; only DT_FP32, DT_FP16, DT_BF16 and DT_INT32 are supported (FC3002)",
        "use pypto.DT_FP32 (or DT_INT32 for int8 inputs) and cast the result if needed",
    )


@pytest.mark.parametrize("dtype", [I32, "DT_INT16", E4M3])
def test_matmul_operator_dtype(dtype: str) -> None:
    c = op_call("__matmul__", t((16, 32), dtype), t((32, 16), dtype))
    assert_finding(
        mm.matmul_dtypes(c), op_codes.MATMUL_DTYPE,
        f"operator @ with a {dtype} right operand: `@` only picks an out dtype for FP16, BF16, FP32 (same) and "
        "INT8 (INT32) (RuntimeError: unsupported dtype)",
        "call pypto.matmul(a, b, out_dtype) with an explicit out dtype",
    )


@pytest.mark.parametrize("op, x, y, out", [
    ("matmul", LHS, RHS, F32),
    ("matmul", t((16, 32), I8), t((32, 16), I8), I32),
    ("matmul", t((16, 32), E5M2), t((32, 16), E4M3), F16),  # the FP8 pair may differ
    ("matmul", t((16, 32), E4M3), t((32, 16), E5M2), BF16),
    ("matmul", LHS, RHS, None),  # out dtype not a constant
    ("matmul", t((16, 32), None), t((32, 16), F32), F32),  # one dtype unknown
    ("matmul", LHS, 2.0, F32),  # not a tensor
    ("__matmul__", t((16, 32), F32), t((32, 16), F32), None),
    ("__matmul__", t((16, 32), BF16), t((32, 16), BF16), None),
    ("__matmul__", t((16, 32), I8), t((32, 16), I8), None),  # INT8 gives INT32
    ("__matmul__", t((16, 32), None), t((32, 16), None), None),
])
def test_matmul_dtypes_silent(op: str, x: object, y: object, out: str | None) -> None:
    values = (x, y) if op == "__matmul__" else (x, y, out)
    assert mm.matmul_dtypes(op_call(op, *values)) is None


# --- matmul_doc_dtypes (rule: matmul-doc-table; off by default) ----------------------------------

@pytest.mark.parametrize("dtype, out, table", [
    (F32, F16, "DT_FP32 -> DT_FP32"),
    (F32, BF16, "DT_FP32 -> DT_FP32"),
    (I8, F32, "DT_INT8 -> DT_INT32"),
    (F16, BF16, "DT_FP16 -> DT_FP32 or DT_FP16"),
    (E5M2, I32, "DT_FP8E5M2 -> DT_FP16 or DT_BF16 or DT_FP32"),
])
def test_matmul_doc_dtypes(dtype: str, out: str, table: str) -> None:
    c = op_call("matmul", t((16, 32), dtype), t((32, 16), dtype), out)
    assert_finding(
        mm.matmul_doc_dtypes(c), op_codes.MATMUL_DTYPE_DOC,
        f"pypto.matmul: {dtype} inputs with out dtype {out} are outside the documented table ({table}); "
        "0.2.0 compiles it, later versions may not",
        f"use out dtype pypto.{table.split(' -> ')[1].split(' or ')[0]}",
    )


@pytest.mark.parametrize("dtype, out", [
    (F16, F32), (F16, F16), (BF16, F32), (BF16, BF16), (I8, I32), (F32, F32),
    (E5M2, F16), (E4M3, BF16), (E4M3, F32),  # the documented table
    (F32, I8),  # not an out dtype at all: rule matmul-out-dtype instead
    (I32, F32),  # input dtype not in the table
    (None, F16),
    (F32, None),
])
def test_matmul_doc_dtypes_silent(dtype: str | None, out: str | None) -> None:
    assert mm.matmul_doc_dtypes(op_call("matmul", t((16, 32), dtype), t((32, 16), dtype), out)) is None


def test_matmul_doc_dtypes_silent_for_the_operator() -> None:
    assert mm.matmul_doc_dtypes(op_call("__matmul__", t((16, 32), F32), t((32, 16), F32))) is None


# --- cube_tile_values (rules: cube-tile-alignment, cube-l1-l0) -------------------------------------

_IN = " in pypto.set_cube_tile_shapes(m, k, n)"


def _cube_call(cube: Any, dtype: str | None = F16, **named: object) -> Any:
    return op_call("matmul", t((16, 32), dtype), t((32, 16), dtype), F32, cube=cube, named=named)


@pytest.mark.parametrize("cube, text, fix", [
    (((16, 16), (8, 16), (16, 16)), "kL0(8) must be aligned to 16 elements",
     "use a multiple of 16: kL0 = 16 (the first entry of the k list)"),
    (((16, 16), (16, 16), (24, 48)), "nL0(24) must be aligned to 16 elements",
     "use a multiple of 16: nL0 = 32 (the first entry of the n list)"),
    (((16, 16), (8, 16), (8, 16)), "kL0(8) and nL0(8) must be aligned to 16 elements",
     "use a multiple of 16: kL0 = 16 (the first entry of the k list), nL0 = 16 (the first entry of the n list)"),
])
def test_cube_tile_16_elements(cube: Any, text: str, fix: str) -> None:
    tile = ", ".join(str(list(part)) for part in cube)
    assert_finding(
        mm.cube_tile_values(_cube_call(cube)), op_codes.CUBE_TILE,
        f"pypto.matmul with cube tile ({tile}): {text} (FC4001)", fix + _IN,
    )


def test_cube_tile_32_bytes() -> None:
    # int8: kL0 = nL0 = 16 elements are 16 bytes each; k is checked first.
    assert_finding(
        mm.cube_tile_values(_cube_call(((16, 16), (16, 32), (16, 32)), I8)), op_codes.CUBE_TILE,
        "pypto.matmul with cube tile ([16, 16], [16, 32], [16, 32]): kL0 * sizeof(dtype) = 16 bytes, must be "
        "32-byte aligned (FC4001)",
        "make kL0 a multiple of 32" + _IN,
    )
    assert_finding(
        mm.cube_tile_values(_cube_call(((16, 16), (32, 32), (16, 32)), I8)), op_codes.CUBE_TILE,
        "pypto.matmul with cube tile ([16, 16], [32, 32], [16, 32]): nL0 * sizeof(dtype) = 16 bytes, must be "
        "32-byte aligned (FC4001)",
        "make nL0 a multiple of 32 for DT_INT8 operands" + _IN,
    )


def test_cube_tile_m_with_a_trans() -> None:
    assert_finding(
        mm.cube_tile_values(_cube_call(((8, 16), (16, 16), (16, 16)), a_trans=True)), op_codes.CUBE_TILE,
        "pypto.matmul with cube tile ([8, 16], [16, 16], [16, 16]): mL0 memory not aligned when transA=true: "
        "16 bytes, must be 32-byte aligned (FC4001)",
        "make mL0 a multiple of 16 when a_trans=True" + _IN,
    )


@pytest.mark.parametrize("cube, relation, fix", [
    (((16, 16), (64, 32), (16, 16)), "kL0=64, kL1a=32, require kL0 <= kL1a && kL1a % kL0 == 0",
     "make kL1a a multiple of kL0 (e.g. kL1a = 64)"),
    (((32, 48), (16, 16), (16, 16)), "mL0=32, mL1=48, require mL0 <= mL1 && mL1 % mL0 == 0",
     "make mL1 a multiple of mL0 (e.g. mL1 = 64)"),
    (((16, 16), (32, 64, 48), (16, 16)), "kL0=32, kL1b=48, require kL0 <= kL1b && kL1b % kL0 == 0",
     "make kL1b a multiple of kL0 (e.g. kL1b = 64)"),
    (((16, 16), (16, 16), (32, 16)), "nL0=32, nL1=16, require nL0 <= nL1 && nL1 % nL0 == 0",
     "make nL1 a multiple of nL0 (e.g. nL1 = 32)"),
])
def test_cube_l1_l0(cube: Any, relation: str, fix: str) -> None:
    tile = ", ".join(str(list(part)) for part in cube)
    assert_finding(
        mm.cube_tile_values(_cube_call(cube)), op_codes.CUBE_TILE,
        f"pypto.matmul with cube tile ({tile}): Invalid L1/L0 relation: {relation} (FC4000)", fix + _IN,
    )


@pytest.mark.parametrize("cube, dtype, named", [
    (((16, 16), (16, 16), (16, 16)), F16, {}),
    (((16, 16), (16, 16), (16, 16)), F32, {}),  # 16 x 4 bytes
    (((16, 16), (32, 32), (32, 32)), I8, {}),  # int8 needs 32 elements: there
    (((16, 16), (32, 64, 128), (16, 64)), F16, {}),  # k of three entries, L1 multiples of L0
    (((8, 16), (16, 16), (16, 16)), F16, {}),  # mL0 of 8 without a_trans
    (((8, 16), (16, 16), (16, 16)), F32, {"a_trans": True}),  # 8 x 4 bytes = 32
    (((8, 16), (16, 16), (16, 16)), F16, {"a_trans": object()}),  # a_trans not a constant
    (((16, 16), (None, 16), (16, 16)), F16, {}),  # entries not constants
    (((16, None), (16, None), (16, None)), F16, {}),
    (((16,), (16,), (16,)), F16, {}),  # lists of one entry: rule cube-tile-entries
    (((16, 16), (16, 16)), F16, {}),  # two lists
    (UNKNOWN, F16, {}),
    (NOT_SET, F16, {}),  # rule cube-tile-required instead
    (((16, 16), (16, 16), (16, 16)), None, {}),  # unknown dtype: bytes not checked
])
def test_cube_tile_values_silent(cube: Any, dtype: str | None, named: dict[str, object]) -> None:
    assert mm.cube_tile_values(_cube_call(cube, dtype, **named)) is None


def test_cube_tile_m_is_not_checked_for_the_operator() -> None:
    # `@` never transposes, so mL0 is never checked for it.
    c = op_call("__matmul__", LHS, RHS, cube=((8, 16), (16, 16), (16, 16)))
    assert mm.cube_tile_values(c) is None


def test_cube_tile_k_of_8_beside_an_unknown_n() -> None:
    """rule: cube-tile-alignment holds per entry: kL0 = 8 fails whatever nL0 is (fp32: 8 x 4 = 32
    bytes passes the byte rule, so only the 16-element rule catches it)."""
    found = mm.cube_tile_values(_cube_call(((16, 16), (8, 16), (None, 16)), F32))
    assert found is not None and found.code is op_codes.CUBE_TILE
    assert "kL0(8) must be aligned to 16 elements (FC4001)" in found.message and "nL0" not in found.message
    assert found.note is not None and found.note.startswith("use a multiple of 16: kL0 = 16")
    assert mm.cube_tile_values(_cube_call(((16, 16), (None, 16), (8, 16)), F32)) is not None
    assert mm.cube_tile_values(_cube_call(((16, 16), (None, 16), (None, 16)), F32)) is None
