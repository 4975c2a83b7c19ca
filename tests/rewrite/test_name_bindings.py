"""The source rewrite's one walk: every node depth first (each function one slice), the binding
events, and the imports and definitions the pypto spellings and the kernels are read from."""

from __future__ import annotations

import ast
import textwrap

from mypy_plugin.rewrite.name_bindings import Walk

_SOURCE = textwrap.dedent('''
    import pypto as pt
    from pypto.frontend import jit as J
    ROWS = 8
    ROWS = 16
    COLS = 4
    class Local:
        pass
    @J
    def kernel(x: pt.Tensor([ROWS, COLS])):
        t = x
        t = t + 1
        global COLS
        def inner(a):
            b = a
        return t
    async def later():
        pass
''')


def test_definitions_are_the_imports_classes_and_functions_in_node_order() -> None:
    walk = Walk(ast.parse(_SOURCE))
    kinds = (ast.Import, ast.ImportFrom, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    assert walk.definitions == [n for n in walk.nodes if isinstance(n, kinds)]
    assert sorted(getattr(n, "name", None) or getattr(n, "module", None) or "import" for n in walk.definitions) == [
        "Local", "import", "inner", "kernel", "later", "pypto.frontend"]


def test_binding_events_by_scope() -> None:
    tree = ast.parse(_SOURCE)
    walk = Walk(tree)
    kernel = tree.body[6]
    assert isinstance(kernel, ast.FunctionDef)
    start, end = walk.scope(kernel)
    assert walk.nodes[start] is kernel
    assert {n for n in walk.nodes[start:end] if isinstance(n, ast.FunctionDef)} == {kernel, kernel.body[3]}
    # the module binds ROWS twice; the kernel rebinds t and declares COLS global
    assert walk.rebindable() == {"ROWS", "t", "COLS"}
    assert walk.rebindable(start, end) == {"t", "COLS"}
    assert walk.stored(start, end) == {"x", "t", "a", "b"}


def test_a_star_import_or_a_namespace_call_may_bind_anything() -> None:
    for line in ("from os import *", "globals()['ROWS'] = 4", "exec('ROWS = 4')"):
        walk = Walk(ast.parse(_SOURCE + line + "\n"))
        assert walk.rebindable() is None, line
