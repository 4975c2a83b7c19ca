"""The source rewrite's one walk: every node depth first (each function one slice), the binding
events, and the imports and definitions the pypto spellings and the kernels are read from."""

from __future__ import annotations

import ast
import sys
import textwrap

from mypy_plugin.ast_fields import all_nodes, child_fields
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


_EVERY_FORM = textwrap.dedent('''
    """doc"""
    from __future__ import annotations
    import a.b as c, d
    from .e import (f as g, h)
    from i import *
    global_x: int = 1
    x, *y = z = [1, 2]
    x += 1
    del y
    @dec(1, k=2)
    class K(Base, metaclass=M):
        attr: list[int] = []
        def m(self, a, /, b=1, *c, d, e=2, **f) -> "K":
            global global_x
            nonlocal_ = lambda q, r=3: q
            return self
    async def co():
        async for i in aiter():
            await i
        async with ctx() as (u, v):
            yield u
    try:
        pass
    except (ValueError, TypeError) as err:
        raise RuntimeError("x") from err
    else:
        assert x, f"{x!r:>{y}}"
    finally:
        pass
    while x if y else z:
        break
    with open("f") as fh, open("g"):
        continue
    v = [i for i in range(3) if i if i > 0]
    w = {k: v for k, v in d.items()}
    s = {i async for i in agen()}
    g = (i for i in x)
    t = x[1:2:3, ...], x.y.z, not x, -x, x is not y, x @ y
    if (n := 10) > 5:
        pass
    match command:
        case [1, *rest]: pass
        case {"k": v, **others}: pass
        case Point(x=0, y=yy) | None: pass
        case str() as s2: pass
        case True: pass
''')


def _every_field_walk(tree: ast.AST) -> list[ast.AST]:
    """all_nodes' order, through every field of every node (what child_fields used to give)."""
    out, i = [tree], 0
    while i < len(out):
        node = out[i]
        i += 1
        for field in node._fields:
            value = getattr(node, field, None)
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST) and not isinstance(child, ast.expr_context):
                    out.append(child)
    return out


def test_child_fields_reach_every_node() -> None:
    """ast_fields.child_fields leaves out the fields that never hold a node (names, flags,
    constants): a walk through it reaches the very nodes, in the same order, as one through
    every field."""
    tree = ast.parse(_EVERY_FORM)
    reference = _every_field_walk(tree)
    assert len(reference) > 200
    assert [id(n) for n in all_nodes(tree)] == [id(n) for n in reference]
    assert len(Walk(tree).nodes) == len(reference)
    assert child_fields(ast.Name("x")) == () and child_fields(ast.Constant(1)) == ()
    assert child_fields(ast.parse("def f(): pass").body[0]) == ("args", "body", "decorator_list", "returns") + (
        ("type_params",) if sys.version_info >= (3, 12) else ())
