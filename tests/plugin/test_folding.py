"""The integer folders: one over Python's ``ast`` (the source rewrite's module constants and an
annotation's dim expression fold alike), one over mypy's expressions (op arguments and tiles)."""

from __future__ import annotations

import ast

import pytest
from mypy.nodes import Expression, IntExpr, NameExpr, OpExpr, UnaryExpr, Var

from mypy_plugin.hooks.annotations import _Resolver
from mypy_plugin.bridge.folding import int_of_expr
from mypy_plugin.rewrite.module_constants import ModuleConstants

SOURCE = "N = 6\nM = 4\nALIAS = N\n"
NAMES = {"N": 6, "M": 4, "ALIAS": 6}


def _module_constants(text: str) -> int | None:
    tree = ast.parse(SOURCE)
    return ModuleConstants(tree).int_value(ast.parse(text, mode="eval").body)


def _annotation(text: str) -> int | str | None:
    def name_dim(name: str) -> int | None:
        return NAMES.get(name)

    resolver = _Resolver.__new__(_Resolver)  # no type-analysis context: names come from NAMES
    resolver.name_dim = name_dim  # type: ignore[method-assign]
    dim = resolver.expr_dim(text)
    return dim if isinstance(dim, int) else None  # a text dim: not folded


@pytest.mark.parametrize(("text", "value"), [
    ("N + M", 10), ("N - M", 2), ("N * M", 24), ("N // M", 1), ("N % M", 2),
    ("-N", -6), ("+N", 6), ("-(N - M) * 2", -4), ("(N + 1) // (M - 2) % 3", 0), ("ALIAS * 2", 12),
    ("N // (M - 4)", None), ("N / 2", None), ("N ** 2", None), ("UNBOUND + 1", None), ("7", 7),
])
def test_ast_folders_agree(text: str, value: int | None) -> None:
    assert _module_constants(text) == value
    assert _annotation(text) == value


def _final(name: str, value: int) -> NameExpr:
    e = NameExpr(name)
    var = Var(name)
    var.final_value = value
    e.node = var
    return e


@pytest.mark.parametrize(("expr", "value"), [
    (UnaryExpr("-", _final("COLS", 8)), -8),
    (UnaryExpr("-", OpExpr("//", _final("COLS", 8), IntExpr(2))), -4),
    (OpExpr("%", OpExpr("+", IntExpr(3), _final("COLS", 8)), IntExpr(4)), 3),
    (OpExpr("//", IntExpr(3), IntExpr(0)), None),
    (NameExpr("free"), None),
])
def test_mypy_folder(expr: Expression, value: int | None) -> None:
    assert int_of_expr(expr) == value


def test_mypy_folder_reads_through_the_reader() -> None:
    seen: list[tuple[object, str]] = []

    def read(obj: object, attr: str) -> object:
        seen.append((obj, attr))
        return getattr(obj, attr)

    cols = _final("COLS", 8)
    assert int_of_expr(OpExpr("*", cols, IntExpr(2)), read) == 16
    assert seen == [(cols.node, "final_value")]
