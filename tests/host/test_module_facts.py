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


def test_each_top_level_statement_and_method_has_its_references() -> None:
    tree = ast.parse(_SOURCE + textwrap.dedent('''
        class Runner:
            kernel = k
            def run(self, x):
                self.kernel(x)
                obj.fill(SHAPES, size=n)
            class Inner:
                def go(self):
                    deep()
    '''))
    facts = scan(tree)
    helper = tree.body[6]
    assert isinstance(helper, ast.FunctionDef) and helper.name == "helper"
    # names, attributes (".append") and ``a.b`` texts, nested functions included
    assert facts.refs[id(helper)] == {"SHAPES", ".append", "SHAPES.append", "t", ".randn", "t.randn", "local",
                                      "local.append", "nested_call"}
    runner = tree.body[-1]
    assert isinstance(runner, ast.ClassDef)
    run, inner = runner.body[1], runner.body[2]
    assert isinstance(run, ast.FunctionDef) and isinstance(inner, ast.ClassDef)
    go = inner.body[0]
    assert facts.refs[id(runner)] == {"kernel", "k"}  # the class's own statements; each method is a unit of its own
    assert facts.refs[id(run)] == {"self", ".kernel", "self.kernel", "x", "obj", ".fill", "obj.fill", "SHAPES", "n"}
    assert facts.passed[id(run)] == {("self", "x"), ("obj", "SHAPES"), ("obj", "n")}
    assert facts.refs[id(go)] == {"deep"}
    assert facts.attribute_values == {}  # no ``x.attr = ...``


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
