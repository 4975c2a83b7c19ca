"""The code table is the one place a ``pypto-*`` code is described: mypy's ErrorCodes,
``--explain``, ``--list-codes``, SARIF rules and the docs table are made from it."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

from mypy_plugin import errorcodes
from mypy_plugin.cli.catalogue import TABLE_END, TABLE_START, explain, list_codes, markdown_table
from mypy_plugin.knowledge.codes import BY_NAME, TABLE, lookup
from mypy_plugin.knowledge.codes.op_codes import REDUCE_ALIGN
from mypy_plugin.knowledge.findings import Finding

ROOT = Path(__file__).resolve().parents[2]
RULES = re.findall(r"^### rule: (\S+)", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), re.M)


def test_every_row_is_complete_and_named_once() -> None:
    assert len(TABLE) == len(BY_NAME) >= 30
    for row in TABLE:
        assert re.fullmatch(r"pypto-[a-z0-9]+(-[a-z0-9]+)*", row.name), row.name
        assert row.summary and row.catches and row.compiler and row.bad and row.fixed, row.name
        assert row.bad != row.fixed, row.name


def test_rules_a_code_names_exist_in_docs_rules() -> None:
    named = {rule for row in TABLE for rule in row.rules}
    assert named and not named - set(RULES), f"rules not in docs/rules.md: {sorted(named - set(RULES))}"


def test_docs_rules_code_lines_agree_with_the_table() -> None:
    """A rule whose ``- Code:`` line names a code is one of that code's rules, and back."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    from_docs: dict[str, set[str]] = {}
    for block in text.split("\n### rule: ")[1:]:
        rule = block.split(None, 1)[0]
        for line in block.splitlines():
            if line.startswith("- Code"):
                for code in re.findall(r"`(pypto-[a-z0-9-]+)`", line):
                    from_docs.setdefault(code, set()).add(rule)
    from_table = {row.name: set(row.rules) for row in TABLE if row.rules}
    assert from_docs == from_table


def test_mypy_error_codes_are_made_from_the_table() -> None:
    assert list(errorcodes.BY_NAME) == [row.name for row in TABLE]
    for row in TABLE:
        code = errorcodes.BY_NAME[row.name]
        assert (code.code, code.description, code.default_enabled, code.category) == (
            row.name, row.summary, row.enabled, "PyPTO")


def test_no_code_is_spelled_outside_the_table() -> None:
    """Every code's text comes from the table: no module spells a code name as a string."""
    names = set(BY_NAME)
    spelled = []
    for path in sorted((ROOT / "mypy_plugin").rglob("*.py")):
        if "codes" in path.relative_to(ROOT / "mypy_plugin").parts[:2]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in names:
                spelled.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value}")
    assert not spelled


def test_explain_and_list_come_from_the_row() -> None:
    text = explain(REDUCE_ALIGN)
    assert text.startswith("pypto-reduce-align\n\nCatches: A last-axis reduction")
    assert f"PyPTO 0.2.0: {REDUCE_ALIGN.compiler}\n" in text
    assert "Rules: reduce-last-axis-32-byte" in text and REDUCE_ALIGN.fixed.splitlines()[0] in text
    listed = list_codes().splitlines()
    assert [line.split()[0] for line in listed] == [row.name for row in TABLE]
    assert any(line.endswith("(off by default)") for line in listed)
    assert lookup("reduce-align") is lookup("[pypto-reduce-align]") is REDUCE_ALIGN
    assert lookup("nope") is None


def test_docs_table_is_the_generated_one() -> None:
    """docs/codes.md's table is made from the code table (python scripts/codes_doc.py rewrites it)."""
    lines = markdown_table().splitlines()
    assert len(lines) == 2 + len(TABLE) and lines[2].startswith("| `pypto-")
    doc = (ROOT / "docs" / "codes.md").read_text(encoding="utf-8")
    assert TABLE_START + markdown_table() + TABLE_END in doc, "run python scripts/codes_doc.py"


def test_findings_compare_by_value_and_pickle() -> None:
    assert Finding(REDUCE_ALIGN, "m", "n") == Finding(REDUCE_ALIGN, "m", "n")
    assert Finding(REDUCE_ALIGN, "m", "n") != Finding(REDUCE_ALIGN, "m", None)
    assert len({Finding(REDUCE_ALIGN, "m"), Finding(REDUCE_ALIGN, "m")}) == 1
    back = pickle.loads(pickle.dumps(Finding(REDUCE_ALIGN, "m", "n")))
    assert back == Finding(REDUCE_ALIGN, "m", "n") and back.code == REDUCE_ALIGN
