"""What the host evaluator needs to know about a whole module before walking it: torch and pypto names, in-place changes, nested kernels."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..kernels import names_jit
from ..module_constants import all_nodes
from .mutation import CONTAINER_MUTATORS


@dataclass
class ModuleFacts:
    torch: dict[str, str] = field(default_factory=dict)  # local name -> "torch" / "torch.randn"
    math: dict[str, str] = field(default_factory=dict)  # local name -> "math" / "math.sqrt"
    pypto: set[str] = field(default_factory=set)  # local names of the pypto module
    pypto_dtypes: dict[str, str] = field(default_factory=dict)  # ``from pypto import DT_FP16 as h``
    calls: list[ast.Call] = field(default_factory=list)
    # A subscript or attribute store, a ``name_`` or list-changing method call: something may
    # be changed in place.
    may_change: bool = False
    nested_jit: bool = False  # a jit kernel is defined inside a function


def scan(tree: ast.Module) -> ModuleFacts:
    """One walk over the whole module."""
    facts = ModuleFacts()
    for node in all_nodes(tree):  # ast.walk's nodes and order, without expression contexts
        if isinstance(node, ast.Call):
            facts.calls.append(node)
            facts.may_change = facts.may_change or isinstance(node.func, ast.Attribute) and (
                node.func.attr.endswith("_") or node.func.attr in CONTAINER_MUTATORS)
        elif isinstance(node, (ast.Subscript, ast.Attribute)):
            facts.may_change = facts.may_change or not isinstance(node.ctx, ast.Load)
        elif isinstance(node, ast.AugAssign):
            facts.may_change = True
        elif isinstance(node, ast.FunctionDef):
            facts.nested_jit = facts.nested_jit or any(names_jit(d) for d in node.decorator_list)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("torch", "math"):
                    _modules(facts, alias.name)[alias.asname or alias.name] = alias.name
                elif alias.name == "pypto":
                    facts.pypto.add(alias.asname or "pypto")
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module in ("torch", "math"):
                _modules(facts, node.module).update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names)
            elif node.module == "pypto":
                facts.pypto_dtypes.update((a.asname or a.name, a.name) for a in node.names if a.name.startswith("DT_"))
    return facts


def _modules(facts: ModuleFacts, module: str) -> dict[str, str]:
    """The local names of torch's or math's module and members."""
    return facts.torch if module == "torch" else facts.math
