"""What the items of a tensor annotation are, as the source rewrite reads them: how the module
spells pypto and its ``Tensor``, a status dim (DYNAMIC, DYN, STATIC, ``...``) in a tuple shape,
and a dotted name that is not pypto's."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Final

from ..ast_fields import dotted

_TENSOR_NAMES: Final = frozenset({"Tensor", "tensor"})
_STATUS: Final = frozenset({"DYNAMIC", "DYN", "STATIC"})
# An extra item after a shape written as a tuple that holds DYNAMIC, DYN, STATIC or ``...``: 0.2.0
# raises ``ValueError: Invalid value type`` there (a list works), and the rewritten annotation has
# a list (kernel/signature.py reports it; the type hook ignores strings; rule: annotation-tuple-status).
TUPLE_SHAPE: Final = "!tuple-shape"


class PyptoNames:
    """How this module spells ``pypto`` and ``pypto.Tensor`` (``import pypto as pt``,
    ``from pypto import Tensor as PT``); a local ``Tensor`` class is not pypto's."""

    def __init__(self, nodes: list[ast.AST]) -> None:
        """``nodes``: the module's imports and class definitions (other nodes are passed over)."""
        self.modules = {"pypto"}
        self.tensors: set[str] = set()
        self.imported: set[str] = {"pypto"}  # every name bound by importing pypto or from it
        star = False
        local: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.ClassDef):
                local.add(node.name)
            elif isinstance(node, ast.Import):
                self.modules.update(a.asname for a in node.names if a.name == "pypto" and a.asname)
                self.imported.update((a.asname or a.name).split(".")[0] for a in node.names
                                     if a.name.split(".")[0] == "pypto")
            elif isinstance(node, ast.ImportFrom) and node.module == "pypto" and node.level == 0:
                star = star or any(a.name == "*" for a in node.names)
                self.tensors.update(a.asname or a.name for a in node.names if a.name in _TENSOR_NAMES)
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pypto" and node.level == 0:
                self.imported.update(a.asname or a.name for a in node.names if a.name != "*")
        if star:
            self.tensors |= _TENSOR_NAMES
        self.tensors -= local

    def is_tensor(self, node: ast.expr) -> bool:
        name = dotted(node)
        if name is None:
            return False
        head, _, last = name.rpartition(".")
        return last in self.tensors if not head else head in self.modules and last in _TENSOR_NAMES


def status_tuple(node: ast.expr | None, names: PyptoNames, alias: Callable[[str], ast.expr | None]) -> bool:
    """A shape written as a tuple with DYNAMIC, DYN, STATIC or ``...`` (``alias``: a module constant's value)."""
    return isinstance(node, ast.Tuple) and any(_status_item(e, names, alias) for e in node.elts)


def _status_item(node: ast.expr, names: PyptoNames, alias: Callable[[str], ast.expr | None]) -> bool:
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return True
    if isinstance(node, ast.Name):
        value = alias(node.id)
        if not isinstance(value, ast.Attribute):
            return node.id in _STATUS and node.id in names.imported
        node = value  # _BH = pypto.DYNAMIC
    name = dotted(node) if isinstance(node, ast.Attribute) else None
    head, _, last = (name or "").rpartition(".")
    return last in _STATUS and head in names.modules


def foreign(node: ast.expr, names: PyptoNames) -> bool:
    """``cfg.in_dtype``, ``dims.ROWS``: a dotted name that is not pypto's. Kept as a type, mypy looks
    its head up as a type while it binds the function's type variables, and reports ``Name
    "cfg.in_dtype" is not defined`` for an object's attribute (a module's passes); as text, the
    type hook looks it up quietly (an object's attribute is unknown)."""
    name = dotted(node) if isinstance(node, ast.Attribute) else None
    return name is not None and name.split(".", 1)[0] not in names.imported
