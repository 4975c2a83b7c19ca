"""What the tracer reads of a function's syntax before it traces the body, from one walk of it.

A kernel of another module is traced twice per host call (with the call's tensors and with its
declared ones), and a helper once per distinct entry: each trace used to walk the whole function
three times (its locals, its local buffers, what its outputs receive whole). The walk depends on
the syntax tree only, so it is made once per function and kept while the tree is (its module's
parse is kept by ``calls.module_sources``); what depends on a trace's values is replayed from it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Final

from ..ast_fields import all_nodes

_MAX_KEPT: Final = 4096
# Statements whose names are bound some other way than by a plain assignment (never a buffer).
_OTHER_BINDERS: Final = (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)
# What an output may receive whole (:meth:`FunctionFacts`.moves), in walk order:
BOUND, WRITTEN, RETURNS_CALL, RETURNS_NAME = range(4)


@dataclass(frozen=True)
class FunctionFacts:
    locals: frozenset[str]  # the parameters and every name the function (or a nested one) stores
    # each name target of an assignment, with the callee of its value when that is a call
    assigned: tuple[tuple[str, ast.expr | None], ...]
    bound_otherwise: frozenset[str]  # stored by an augmented or annotated assignment, a for, a with, :=
    stores: dict[str, int]  # how many times each name is stored
    # (BOUND, name, value) ``name = value``; (WRITTEN, output, name) ``output[:] = name``;
    # (RETURNS_CALL, "", call) ``return call(...)``; (RETURNS_NAME, name, None) ``return name``
    moves: tuple[tuple[int, str, ast.expr | None], ...]


_kept: dict[int, tuple[ast.AST, FunctionFacts]] = {}


def facts(fdef: ast.FunctionDef) -> FunctionFacts:
    """The facts of ``fdef``, walked once while it lives (the entry holds it: ids stay unique)."""
    entry = _kept.get(id(fdef))
    if entry is not None and entry[0] is fdef:
        return entry[1]
    found = _walk(fdef)
    if len(_kept) >= _MAX_KEPT:
        _kept.clear()
    _kept[id(fdef)] = (fdef, found)
    return found


def _walk(fdef: ast.FunctionDef) -> FunctionFacts:
    names = {a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args, *fdef.args.kwonlyargs]}
    stores: dict[str, int] = {}
    assigned: list[tuple[str, ast.expr | None]] = []
    otherwise: set[str] = set()
    moves: list[tuple[int, str, ast.expr | None]] = []
    for node in all_nodes(fdef):  # (ast.walk's order, without its generators)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
            stores[node.id] = stores.get(node.id, 0) + 1
        if isinstance(node, ast.Assign):
            callee = node.value.func if isinstance(node.value, ast.Call) else None
            assigned.extend((t.id, callee) for t in node.targets if isinstance(t, ast.Name))
            if len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    moves.append((BOUND, target.id, node.value))
                elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                        isinstance(node.value, ast.Name) and whole_slice(target.slice):
                    moves.append((WRITTEN, target.value.id, node.value))
        elif isinstance(node, _OTHER_BINDERS):
            otherwise.update(n.id for n in all_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        elif isinstance(node, ast.Return) and node.value is not None:
            if isinstance(node.value, ast.Call):
                moves.append((RETURNS_CALL, "", node.value))
            elif isinstance(node.value, ast.Name):
                moves.append((RETURNS_NAME, node.value.id, None))
    return FunctionFacts(frozenset(names), tuple(assigned), frozenset(otherwise), stores, tuple(moves))


def whole_slice(key: ast.expr) -> bool:
    """``[:]``, ``[:, :]``, ``[...]``: the whole tensor."""
    elts = key.elts if isinstance(key, ast.Tuple) else [key]
    return all(isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None
               or isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts)
