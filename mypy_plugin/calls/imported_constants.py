"""Constants of other modules for the host evaluator (``from k import COLS``, ``k.COLS``): read
from mypy's symbol tables, only where the value is part of the module's interface -- a ``Final``
constant's value, and the UPPER_CASE int and int-tuple constants the source rewrite declares with
their value (``rewrite_markers.py``). A changed value then changes the defining module's interface,
so incremental and daemon runs recheck the modules that read it, as a cold run would (the daemon
keeps the reading module's tree: ``host_sites`` evaluates it again when a value it read changed).
A value known only from the other module's text (a plain ``SCALE = 0.5``) stays unknown."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mypy.nodes import MypyFile, Var
from mypy.types import Instance, LiteralType, TupleType, Type, get_proper_type

from ..host.values import UNKNOWN, Value


def reader(modules: object) -> Callable[[str, str], Value]:
    """``read(module, name)``: the constant ``name`` of ``module`` (UNKNOWN when not provable)."""

    def read(module: str, name: str) -> Value:
        tree = modules.get(module) if isinstance(modules, Mapping) else None
        sym = tree.names.get(name) if isinstance(tree, MypyFile) else None
        node = sym.node if sym is not None else None
        if not isinstance(node, Var) or node.type is None:
            return UNKNOWN
        value = node.final_value
        if node.is_final and isinstance(value, (int, float, str, bool)):  # bool is an int
            return value
        return _value(node.type)

    return read


def _value(t: Type) -> Value:
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.last_known_value is not None:
        return _literal(p.last_known_value)
    if isinstance(p, TupleType):
        items = tuple(_value(i) for i in p.items)
        return UNKNOWN if UNKNOWN in items else items
    return UNKNOWN


def _literal(lit: LiteralType) -> Value:
    return lit.value if type(lit.value) in (int, str, bool) else UNKNOWN
