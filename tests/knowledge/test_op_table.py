"""The op table, the stubs and the code table of docs/codes.md agree.

Every function of ``pypto`` and every method of ``pypto.Tensor`` in the stubs has an op row, or
is listed in ``ops.UNMODELLED`` with the reason, or is a missing member (``members.MISSING``);
every row has a stub. Every ``pypto-*`` code is in the code table of docs/codes.md and vice versa, with one section.
The stubs are read with ``ast``, as text: nothing is imported from them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mypy_plugin import errorcodes
from mypy_plugin.knowledge.checks.registry import TILE_CHECKS, op_checks
from mypy_plugin.knowledge.members import MISSING, NO_METHODS
from mypy_plugin.knowledge.ops import OPS, UNMODELLED

ROOT = Path(__file__).resolve().parents[2]
STUB = ROOT / "pypto_stubs" / "__init__.pyi"


def _is_property(node: ast.FunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "property") or (isinstance(d, ast.Attribute) and d.attr in ("setter", "getter"))
        for d in node.decorator_list
    )


def _stub_members() -> tuple[set[str], set[str], set[str]]:
    """Module-level functions, Tensor methods, Tensor properties of the ``pypto`` stub."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    tensor = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    defs = [n for n in tensor.body if isinstance(n, ast.FunctionDef)]
    methods = {n.name for n in defs if not _is_property(n)}
    properties = {n.name for n in defs if _is_property(n)}
    return functions, methods, properties


FUNCTIONS, METHODS, PROPERTIES = _stub_members()


def test_the_stub_parse_finds_the_api() -> None:
    # Guards the parse itself: if the stub's layout changes, the checks below must not pass vacuously.
    assert {"sum", "matmul", "set_vec_tile_shapes"} <= FUNCTIONS
    assert {"sum", "__add__", "__getitem__", "reshape"} <= METHODS
    assert {"shape", "dtype", "T"} <= PROPERTIES


def test_every_stub_function_has_a_row_or_a_reason() -> None:
    missing = sorted(FUNCTIONS - set(OPS) - set(UNMODELLED))
    assert not missing, f"pypto functions with no row in knowledge/ops.py and no entry in UNMODELLED: {missing}"


def test_every_stub_method_has_a_row_or_a_reason() -> None:
    missing = sorted(METHODS - set(OPS) - set(UNMODELLED) - set(MISSING))
    assert not missing, f"Tensor methods with no row, no UNMODELLED entry and no MISSING entry: {missing}"


def test_every_row_has_a_stub() -> None:
    orphans = sorted(name for name in OPS if name not in FUNCTIONS and name not in METHODS)
    assert not orphans, f"op rows with neither a pypto function nor a Tensor method in the stubs: {orphans}"


def test_operator_rows_are_methods_with_a_symbol() -> None:
    for op in OPS.values():
        if op.is_operator:
            assert op.name in METHODS and op.symbol, op.name


def test_unmodelled_entries_exist_and_are_not_rows() -> None:
    assert not set(UNMODELLED) & set(OPS)
    stale = sorted(set(UNMODELLED) - FUNCTIONS - METHODS)
    assert not stale, f"UNMODELLED names that are not in the stubs: {stale}"
    assert all(reason.strip() for reason in UNMODELLED.values())


def test_missing_members_are_declared_only_to_be_reported() -> None:
    for name, member in MISSING.items():
        if member.attribute:
            assert name in PROPERTIES and name not in NO_METHODS, name
        else:
            assert name in METHODS and name in NO_METHODS, name


def test_rows_name_their_tile_checks() -> None:
    for op in OPS.values():
        assert op.tile is None or op.tile in TILE_CHECKS, op.name
        if op.kind == "reduction":
            assert op.tile == "reduce" and op.reduce is not None, op.name
        if op.reduce is not None:
            assert op.kind == "reduction", op.name
        assert op.name.startswith("__") or op.symbol is None, op.name
    # The reductions that widen fp16/bf16 before the 32-byte check (rule: reduce-in-fp32).
    widened = {op.name for op in OPS.values() if op.reduce is not None and op.reduce.widens_to}
    assert widened == {"prod", "var", "softmax", "rms_norm"}
    assert op_checks(OPS["matmul"]) == op_checks(OPS["__matmul__"])


CODES_DOC = ROOT / "docs" / "codes.md"


def _table_codes() -> set[str]:
    text = CODES_DOC.read_text(encoding="utf-8")
    table = text.split("\n### ", 1)[0]
    codes: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `pypto-"):
            first_cell = line.split("|")[1]
            codes.update(re.findall(r"`(pypto-[a-z0-9-]+)`", first_cell))
    return codes


def test_code_table_lists_every_code() -> None:
    table = _table_codes()
    assert table, "no code table found at the top of docs/codes.md"
    defined = set(errorcodes.BY_NAME)
    assert sorted(defined - table) == [], "codes missing from the table of docs/codes.md"
    assert sorted(table - defined) == [], "docs/codes.md table codes not defined in errorcodes.py"


_SECTION = re.compile(
    r"\A`(pypto-[a-z0-9-]+)`\n\nCatches: [^\n]+\n\nPyPTO 0\.2\.0: [^\n]+\n\n"
    r"```python\n.+?\n```\n\n```python\n.+?\n```\n", re.S)


def test_codes_doc_has_one_regular_section_per_code() -> None:
    # One "### `pypto-x`" section per code, in a fixed form: what it catches, what 0.2.0 does,
    # a bad snippet, a fixed snippet (then free notes).
    sections = re.split(r"^### ", CODES_DOC.read_text(encoding="utf-8"), flags=re.M)[1:]
    names = []
    for section in sections:
        m = _SECTION.match(section)
        assert m is not None, section[:200]
        names.append(m.group(1))
    assert len(names) == len(set(names))
    assert sorted(names) == sorted(errorcodes.BY_NAME)


def test_codes_doc_lists_every_missing_member() -> None:
    text = CODES_DOC.read_text(encoding="utf-8")
    section = text.split("### `pypto-no-method`", 1)[1].split("\n### ", 1)[0]
    covers = section.split("Covers ", 1)[1]
    listed = set(re.findall(r"\.([a-z_]+)\(\)", covers)) | set(re.findall(r"\.(ndim)\b", covers))
    listed |= set(re.findall(r"`Tensor\.([a-z_]+)`", covers))
    assert listed == set(MISSING), (sorted(listed - set(MISSING)), sorted(set(MISSING) - listed))
