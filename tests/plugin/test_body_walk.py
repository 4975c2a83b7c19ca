"""The one walker over function bodies (``body_walk``): evaluation order, comprehensions,
statements of nested blocks, and a table that covers every expression class mypy has."""

from __future__ import annotations

import inspect

import mypy.nodes as nodes
import pytest
from mypy.errors import Errors
from mypy.nodes import AssignmentStmt, Decorator, Expression, FuncDef, NameExpr, ReturnStmt, Statement
from mypy.options import Options
from mypy.parse import parse

from mypy_plugin.kernel import body_walk
from mypy_plugin.kernel.body_walk import body_expressions, child_exprs, comprehension_names, statements

# Expression classes with no sub-expression the checks must see, and why.
LEAVES = {
    "BytesExpr", "ComplexExpr", "EllipsisExpr", "FloatExpr", "IntExpr", "StrExpr", "NameExpr", "RefExpr",
    "TempNode", "FakeExpression", "PromoteExpr", "SuperExpr",  # literals, names, placeholders
    "LambdaExpr",  # its body runs when called, not where it is written
    # declarations the semantic analyzer makes of special calls (the call itself is gone)
    "EnumCallExpr", "NamedTupleExpr", "NewTypeExpr", "ParamSpecExpr", "TypeAliasExpr", "TypeVarExpr",
    "TypeVarLikeExpr", "TypeVarTupleExpr", "TypedDictExpr", "TypeFormExpr",
    "TemplateStrExpr",  # Python 3.14 t-strings: not in kernels
}
SPECIAL = {"GeneratorExpr", "DictionaryComprehension", "DictExpr"}  # handled in child_exprs itself


def _body(src: str) -> list[Statement]:
    options = Options()
    tree = parse(src, "m.py", "m", Errors(options), options, eager=True)
    return tree.defs


def test_every_expression_class_is_walked_or_a_known_leaf() -> None:
    """A mypy version that adds an expression class fails here until the table says what it evaluates."""
    missing = [
        name for name, cls in inspect.getmembers(nodes, inspect.isclass)
        if issubclass(cls, Expression) and cls is not Expression
        and cls not in body_walk._ATTRIBUTES and name not in LEAVES | SPECIAL
    ]
    assert missing == []


def test_assignment_evaluates_its_right_side_first() -> None:
    (stmt,) = _body("out[i] = f(a)\n")
    assert isinstance(stmt, AssignmentStmt)
    assert [type(e).__name__ for e in child_exprs(stmt)] == ["CallExpr", "IndexExpr"]


@pytest.mark.parametrize(("src", "names"), [
    ("[f(x) for x in xs if g(x)]", ["xs", "g", "x", "f", "x"]),  # iterable, condition, element
    ("{k: v for k, v in items}", ["items", "k", "v"]),
    ("{a: b, **c}", ["a", "b", "c"]),
    ("(y := h(z))", ["h", "z", "y"]),
    ("(lambda q: q + w)(r)", ["r"]),  # a lambda's body is not walked
    ("a if c else b", ["c", "a", "b"]),
])
def test_expressions_in_evaluation_order(src: str, names: list[str]) -> None:
    (stmt,) = _body(src + "\n")
    assert [n.name for n in body_expressions([stmt]) if isinstance(n, NameExpr)] == names


def test_statements_of_nested_blocks_but_not_of_nested_definitions() -> None:
    src = (
        "def k():\n"
        "    if a:\n        return 1\n"
        "    for i in r:\n        try:\n            return 2\n        except E:\n            return 3\n"
        "    with m:\n        return 4\n"
        "    def inner():\n        return 5\n"
    )
    (func,) = _body(src)
    assert isinstance(func, FuncDef)
    returns = [s for s in statements(func.body.body) if isinstance(s, ReturnStmt)]
    assert [r.line for r in returns] == [3, 6, 8, 10]
    deep = [s for s in statements(func.body.body, into_definitions=True) if isinstance(s, ReturnStmt)]
    assert [r.line for r in deep] == [3, 6, 8, 10, 12]


def test_decorated_functions_inside_classes_are_found() -> None:
    src = "class C:\n    @d\n    def f(): pass\n    if x:\n        @d\n        def g(): pass\n"
    found = [s.func.name for s in statements(_body(src), into_definitions=True) if isinstance(s, Decorator)]
    assert found == ["f", "g"]


def test_comprehension_names() -> None:
    (stmt,) = _body("[x + y for x, (y, z) in pairs for w in x]\n")
    comp = child_exprs(stmt)[0]
    assert comprehension_names(comp) == {"x", "y", "z", "w"}
    assert comprehension_names(child_exprs(comp)[0]) == {"x", "y", "z", "w"}  # its generator
    assert comprehension_names(stmt) == frozenset()
