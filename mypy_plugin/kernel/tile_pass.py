"""What one tile pass over a function reads and shares: mypy's nodes and other modules' sources
it depended on (to know when it is stale), each same-module helper's effect, and what other modules'
functions do to the tiles (:class:`OtherTiles`, given by the hooks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from mypy.nodes import CallExpr, FuncDef, MypyFile

from ..knowledge.tiles import TileState
from .tile_calls import may_set_tiles
from .copies import followed_vars_of


class OtherTiles(Protocol):
    """What other modules' functions do to the tiles (given by the hooks: their sources are read
    by the body tracer, which this layer does not import)."""

    def tiles_after(self, func: FuncDef, call: CallExpr, tiles: TileState, given: Mapping[str, object]
                    ) -> tuple[TileState | None, tuple[tuple[str, str], ...]]:
        """The tiles after ``call`` of ``func`` entered with ``tiles`` and the int and list values of
        its arguments by parameter name (None: unknown), and the (module, digest) of what it read."""

    def method_tiles_after(self, obj: str, method: str, call: CallExpr, tiles: TileState
                           ) -> tuple[TileState | None, tuple[tuple[str, str], ...]]:
        """The same for ``call`` of ``method`` of the module-level object ``obj`` (its fullname:
        ``pkg.layout.LAYOUT``), built by a class whose body the tracer reads."""

    def digest(self, module: str) -> str | None:
        """The digest of ``module``'s source now."""


class Pass:
    """What one analysis of a function shares across the helpers it walks into: what the
    result was read from (to know when it is stale) and each helper's effect, computed once."""

    def __init__(self, module: MypyFile, modules: Mapping[str, MypyFile], other: OtherTiles | None) -> None:
        self.module = module
        self.modules = modules
        self.other = other
        self.sources: dict[str, str] = {}  # module -> the digest of its source ``other`` read
        # (object, attribute, value read): the result holds while every one is unchanged. In the
        # daemon a function keeps its FuncDef across edits (mypy merges the new tree into the
        # old nodes) and a constant in another module keeps its Var, with a new value.
        self.inputs: dict[tuple[int, str], tuple[object, object]] = {}
        self.effects: dict[tuple[object, ...], TileState] = {}
        self.setters: dict[int, bool] = {}
        self._locals: dict[int, tuple[frozenset[int], frozenset[int]]] = {}

    def locals_of(self, func: FuncDef) -> tuple[frozenset[int], frozenset[int]]:
        """copies.followed_vars_of, once per function per pass."""
        found = self._locals.get(id(func))
        if found is None:
            found = self._locals[id(func)] = followed_vars_of(func)
        return found

    def read(self, obj: object, attr: str) -> object:
        value = getattr(obj, attr)
        self.inputs.setdefault((id(obj), attr), (obj, value))
        return value

    def sets_tiles(self, func: FuncDef) -> bool:
        self.read(func, "body")
        found = self.setters.get(id(func))
        if found is None:
            found = self.setters[id(func)] = may_set_tiles(func, self.module, self.modules, self.read)
        return found

    def forget_walk(self) -> None:
        """Drop what is only needed while walking (the hooks read the flow, not these)."""
        self.effects.clear()
        self.setters.clear()
        self._locals.clear()

    def other_effect(self, func: FuncDef, call: CallExpr, tiles: TileState, given: dict[str, object]) -> TileState | None:
        if self.other is None:
            return None
        after, read = self.other.tiles_after(func, call, tiles, given)
        self.sources.update(read)
        return after

    def other_method_effect(self, obj: str, method: str, call: CallExpr, tiles: TileState) -> TileState | None:
        if self.other is None:
            return None
        after, read = self.other.method_tiles_after(obj, method, call, tiles)
        self.sources.update(read)
        return after

    def still_valid(self, other: OtherTiles | None) -> bool:
        """Nothing it read changed: mypy's nodes, and the sources of other modules it read (an edit
        there, in the daemon, leaves this function's nodes as they were)."""
        for (_, attr), (obj, value) in self.inputs.items():  # (a loop: asked at every hook of the function)
            now = getattr(obj, attr, None)
            # the same object, or an int of the same value (a constant's value is an int)
            if now is not value and not (type(now) is int and type(value) is int and now == value):
                return False
        return (other is None) == (self.other is None) and all(
            other is not None and other.digest(m) == d for m, d in self.sources.items())

