"""``expr_text``: an expression as written, rebuilt from mypy's tree; the text parses back to the
same Python expression (the parentheses precedence needs, no others)."""

from __future__ import annotations

import ast

import pytest
from mypy.errors import Errors
from mypy.nodes import AssignmentStmt, Expression
from mypy.options import Options
from mypy.parse import parse

from mypy_plugin.bridge.expr_text import expr_text, operand_text


def _expr(src: str) -> Expression:
    options = Options()
    tree = parse(f"_ = {src}\n", "m.py", "m", Errors(options), options, eager=True)
    stmt = tree.defs[0]
    assert isinstance(stmt, AssignmentStmt)
    return stmt.rvalue


SAME = [
    "h", "h * 2.0", "pypto.exp(x)", "x[0:8, :]", "x[i * 8:(i + 1) * 8, ::2]", "x[..., 0]", "(a + b) * c",
    "a - (b - c)", "a - b - c", "a ** b ** c", "(a ** b) ** c", "-a ** 2", "(-a) ** 2", "2 ** -1",
    "not a and b", "a if c else b", "(a if c else b).T", "f(a, *b, k=c, **d)", "x.shape[0].min(8)",
    "a < b <= c", "(a < b) == c", "~a & b | c ^ d", "a @ b.T", "[a, (b, c), (d,)]", "'s'", "x.sum(-1, keepdim=True)",
]


@pytest.mark.parametrize("src", SAME)
def test_the_text_is_the_expression(src: str) -> None:
    text = expr_text(_expr(src))
    assert text is not None
    assert ast.dump(ast.parse(text, mode="eval")) == ast.dump(ast.parse(src, mode="eval"))
    assert text == src


@pytest.mark.parametrize(("src", "written"), [("((h * 2.0))", "h * 2.0"), ("(a) + (b * c)", "a + b * c")])
def test_redundant_parentheses_are_dropped(src: str, written: str) -> None:
    assert expr_text(_expr(src)) == written


@pytest.mark.parametrize(("src", "operand"), [("h * 2.0", "(h * 2.0)"), ("-x", "(-x)"), ("x.pow(2)", "x.pow(2)"),
                                              ("x[0]", "x[0]"), ("h", "h")])
def test_an_operand_is_parenthesized_unless_primary(src: str, operand: str) -> None:
    assert operand_text(_expr(src)) == operand


@pytest.mark.parametrize("src", ["lambda: x", "[i for i in x]", "(y := x)"])
def test_forms_it_does_not_spell_give_none(src: str) -> None:
    assert expr_text(_expr(src)) is None
