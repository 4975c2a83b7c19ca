"""Find the concrete-syntax node a finding points at, and read the names a module uses."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import CodeRange, ParentNodeProvider, PositionProvider


@dataclass(frozen=True)
class Located:
    """A parsed module with the metadata the fixes need."""

    module: cst.Module
    positions: dict[cst.CSTNode, CodeRange]
    parents: dict[cst.CSTNode, cst.CSTNode]

    @classmethod
    def parse(cls, source: str) -> Located:
        wrapper = cst.MetadataWrapper(cst.parse_module(source))
        positions = dict(wrapper.resolve(PositionProvider))
        parents = dict(wrapper.resolve(ParentNodeProvider))
        return cls(wrapper.module, positions, parents)

    def at(self, line: int, column: int, wanted: Callable[[cst.CSTNode], bool]) -> cst.CSTNode | None:
        """The one node starting at mypy's ``line``/``column`` (1-based) that ``wanted`` accepts."""
        hits = [
            node for node, where in self.positions.items()
            if where.start.line == line and where.start.column == column - 1 and wanted(node)
        ]
        return hits[0] if len(hits) == 1 else None

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        while node in self.parents:
            node = self.parents[node]
            yield node

    def line_of(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    def pypto_name(self) -> str | None:
        """The name this module binds the ``pypto`` package to (``import pypto [as pt]``)."""
        for stmt in self.module.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if not isinstance(small, cst.Import):
                    continue
                for alias in small.names:
                    if dotted(alias.name) == "pypto":
                        if alias.asname is None:
                            return "pypto"
                        if isinstance(alias.asname.name, cst.Name):
                            return alias.asname.name.value
        return None


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` as text, or None for anything that is not a plain dotted name."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


def int_literal(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.Integer):
        try:
            return int(node.value, 0)
        except ValueError:
            return None
    return None
