"""Copies of kernel and helper bodies that mypy checks again with a call's tensors: which function
each is, and what the call says about the state it runs in (the caller's tiles, list arguments)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

from mypy.nodes import Block, FuncDef, Var
from mypy.treetransform import TransformVisitor

from ..knowledge.tiles import TileState
from .body_walk import forget_expressions, same_body
from .tile_values import Value, followed_var_nodes


@dataclass(frozen=True)
class Entry:
    """What a helper copy is entered with: the tiles in force at the call (tile setting is global
    state: the caller's tile applies inside the helper), whether the kernel at the root of the
    call chain sets a vec tile anywhere, and the int and int-list values parameters received."""

    tiles: TileState
    vec_set_in_kernel: bool
    values: Mapping[str, Value] = field(default_factory=dict)
    root: FuncDef | None = None  # the kernel (or function) whose check the call chain started in
    # The function whose check this copy is part of (the kernel, or a kernel copy for a host call),
    # and the position of the call in its program order (kernel.root_causes: which finding is first).
    check_root: FuncDef | None = None
    path: tuple[int, ...] = ()


# id(copy) -> (copy, the function it was made from, its entry, the original's variables -> the
# copy's: mypy's TransformVisitor.var_map); a copy lives only while checked.
_ORIGINS: dict[int, tuple[FuncDef, FuncDef, Entry | None, dict[Var, Var]]] = {}


def make(func: FuncDef, entry: Entry | None = None) -> FuncDef:
    """A copy of ``func`` to check again, entered with ``entry`` (until :func:`forget`)."""
    visitor = TransformVisitor()
    copy = visitor.node(func)
    assert isinstance(copy, FuncDef)
    _ORIGINS[id(copy)] = (copy, func, entry, visitor.var_map)
    same_body(copy.body, func.body)
    return copy


def forget(copy: FuncDef) -> None:
    _ORIGINS.pop(id(copy), None)
    same_body(copy.body, None)
    forget_expressions(copy.body)


def followed_vars_of(func: FuncDef) -> tuple[frozenset[int], frozenset[int]]:
    """The ids of tile_values.followed_var_nodes, one walk per body: kept per body (each tile
    pass asks again), and for a copy its original's mapped to the copy's variables."""
    found = _ORIGINS.get(id(func))
    if found is None or found[0] is not func:
        followed, every = _var_nodes(func.body, func)
        return frozenset(map(id, followed)), frozenset(map(id, every))
    var_map = found[3]
    followed, every = _var_nodes(found[1].body, found[1])
    if not all(v in var_map for v in every):
        followed, every = followed_var_nodes(func)  # (not a plain copy: walk it)
        var_map = {v: v for v in every}
    return frozenset(id(var_map[v]) for v in followed), frozenset(id(var_map[v]) for v in every)


@functools.lru_cache(maxsize=512)
def _var_nodes(body: Block, func: FuncDef) -> tuple[frozenset[Var], frozenset[Var]]:
    """Per body: an edit gives the function a new one (the FuncDef itself may stay)."""
    return followed_var_nodes(func)


def origin(func: FuncDef) -> FuncDef:
    """The kernel ``func`` is a copy of, or ``func`` itself."""
    found = _ORIGINS.get(id(func))
    return found[1] if found is not None and found[0] is func else func


def entry(func: FuncDef) -> Entry | None:
    """What the call entered this copy with; None for a function mypy checks as declared (and a
    kernel copied for a host call: it starts with no tiles, like the kernel)."""
    found = _ORIGINS.get(id(func))
    return found[2] if found is not None and found[0] is func else None


def root(func: FuncDef) -> FuncDef:
    """The function whose check ``func`` is part of: the kernel a helper copy's call chain
    started in, the kernel a copy was made from, or ``func`` itself."""
    called = entry(func)
    if called is not None and called.root is not None:
        return called.root
    return origin(func)
