"""The host module scan: each statement's calls (source order, outside nested scopes), the names
functions change in place, nested kernels -- from one walk."""

from __future__ import annotations

import ast
import textwrap

from mypy_plugin.host.module_facts import scan

_SOURCE = textwrap.dedent('''
    import torch as t
    from math import sqrt
    SHAPES = [4, 8]
    x = f(g(1), h=k(2)) if p() else q()
    with open(path()) as fh, lock():
        y = [m(i) for i in r()]
        z = lambda: hidden()
    for item in items(n()):
        w(item)
    def helper():
        SHAPES.append(t.randn(2))
        local = []
        local.append(1)
        def inner():
            return nested_call()
    def factory():
        @pypto.frontend.jit
        def kernel(a):
            pass
        return kernel
''')


def _callees(facts: object, owner: ast.AST) -> list[str]:
    return [ast.unparse(c.func) for c in facts.calls_of.get(id(owner), [])]  # type: ignore[attr-defined]


def test_each_statement_owns_its_calls_in_source_order() -> None:
    tree = ast.parse(_SOURCE)
    facts = scan(tree)
    assign, with_stmt, for_stmt = tree.body[3], tree.body[4], tree.body[5]
    assert isinstance(with_stmt, ast.With) and isinstance(for_stmt, ast.For)
    # depth first in the fields' order (an ``if`` expression's test comes first), outer call first
    assert _callees(facts, assign) == ["p", "f", "g", "k", "q"]
    assert [_callees(facts, item.context_expr) for item in with_stmt.items] == [["open", "path"], ["lock"]]
    comprehension, lambda_stmt = with_stmt.body
    assert _callees(facts, comprehension) == ["m", "r"]  # a comprehension's calls are its statement's
    assert _callees(facts, lambda_stmt) == []  # a lambda's body runs later
    assert _callees(facts, with_stmt) == []  # a compound statement owns only its headers' calls
    assert _callees(facts, for_stmt.iter) == ["items", "n"]
    assert _callees(facts, for_stmt.body[0]) == ["w"]


def test_names_changed_from_functions_and_module_facts() -> None:
    facts = scan(ast.parse(_SOURCE))
    assert facts.changed_elsewhere == {"SHAPES"}  # ``local`` is the function's own list
    assert facts.torch == {"t": "torch"}
    assert facts.math == {"sqrt": "math.sqrt"}
    assert facts.nested_kernels == frozenset({"kernel"})


def test_the_functions_that_define_a_kernel_are_the_only_factory_candidates() -> None:
    tree = ast.parse(_SOURCE + textwrap.dedent('''
        def deep():
            def middle():
                @jit
                def k2(a):
                    pass
                return k2
            return middle
        class Holder:
            def method(self):
                @pypto.frontend.jit
                def k3(a):
                    pass
                return k3
    '''))
    facts = scan(tree)
    by_name = {s.name: id(s) for s in tree.body if isinstance(s, (ast.FunctionDef, ast.ClassDef))}
    # ``factory`` and ``deep`` (a kernel two functions down); not ``helper``, not a class's method
    assert facts.kernel_holders == frozenset({by_name["factory"], by_name["deep"]})
    assert facts.nested_kernels == frozenset({"kernel", "k2", "k3"})
