"""What the tensor annotations of a module's kernels write for the dtype, read from its syntax
tree: "" none, the ``DT_*`` name, or a variable's name (the host-call check of a kernel of another
module: mypy's parse of a cached module keeps no annotations).

The source rewrite parses every pypto module anyway, so it leaves this table for the module's
decorated functions (:mod:`..rewrite.parsed_trees`): the host-call check then does not parse the
kernel's module a second time only for its annotations."""

from __future__ import annotations

import ast

from .modules import TracedModule


def dtype_written(annotation: ast.expr | None) -> str:
    if isinstance(annotation, ast.Call):
        items = list(annotation.args[1:2]) + [k.value for k in annotation.keywords if k.arg == "dtype"]
    elif isinstance(annotation, ast.Subscript):
        s = annotation.slice
        items = list(s.elts[1:2]) if isinstance(s, ast.Tuple) else []
    else:
        items = []
    if not items:
        return ""
    item = items[-1]
    if isinstance(item, ast.Attribute):
        return item.attr
    return item.id if isinstance(item, ast.Name) else "?"


def parameter_dtypes(fdef: ast.FunctionDef) -> dict[str, str]:
    """Each parameter's dtype as written (a parameter not in it writes none)."""
    return {a.arg: dtype_written(a.annotation) for a in [*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs]}


def decorated_functions(tree: ast.Module, path: str, text: str) -> dict[str, dict[str, str]]:
    """:func:`parameter_dtypes` of each decorated module-level function the tracer would find by
    its name (:attr:`TracedModule.functions`: bound once, unconditionally)."""
    if not any(type(stmt) is ast.FunctionDef and stmt.decorator_list for stmt in tree.body):
        return {}  # (no module-level function is decorated: no need to read its bindings)
    functions = TracedModule("", path, text, tree).functions
    return {name: parameter_dtypes(f) for name, f in functions.items() if f.decorator_list and "." not in name}
