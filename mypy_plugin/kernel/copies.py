"""Copies of kernel and helper bodies that mypy checks again with a call's tensors: which function
each is, and what the call says about the state it runs in (the caller's tiles, list arguments)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from mypy.nodes import Expression, FuncDef, Node, Var
from mypy.treetransform import TransformVisitor

from ..knowledge.tiles import TileState
from .body_walk import expressions, statements
from .tile_values import Value


@dataclass(frozen=True)
class Entry:
    """What a helper copy is entered with: the tiles in force at the call (tile setting is global
    state: the caller's tile applies inside the helper), whether the kernel at the root of the
    call chain sets a vec tile anywhere, and the int and int-list values parameters received."""

    tiles: TileState
    vec_set_in_kernel: bool
    values: Mapping[str, Value] = field(default_factory=dict)
    root: FuncDef | None = None  # the kernel (or function) whose check the call chain started in


def _nodes(func: FuncDef) -> list[Node]:
    """Every statement and expression of a body (nested definitions' too), in the order of
    :mod:`body_walk`, which depends only on the tree's shape."""
    found: list[Node] = []
    for s in statements(func.body.body, into_definitions=True):
        found.append(s)
        found.extend(expressions(s))
    return found


def _originals(copy: FuncDef, func: FuncDef) -> dict[int, Expression]:
    """id(expression of the copy) -> the expression of ``func`` it was copied from; empty when the
    two trees do not have the very same shape (then nothing is read through the original)."""
    ours, theirs = _nodes(copy), _nodes(func)
    if len(ours) != len(theirs):
        return {}
    found: dict[int, Expression] = {}
    for new, old in zip(ours, theirs):
        if type(new) is not type(old):
            return {}
        if isinstance(new, Expression):
            found[id(new)] = cast(Expression, old)
    return found


@dataclass(frozen=True)
class _Copy:
    copy: FuncDef
    kernel: FuncDef
    entry: Entry | None
    originals: Mapping[int, Expression]  # id(expression of the copy) -> the original's
    params: Mapping[int, Var]  # id(parameter of the original) -> the copy's


# id(copy) -> what it is a copy of; a copy lives only while checked.
_ORIGINS: dict[int, _Copy] = {}


def make(func: FuncDef, entry: Entry | None = None) -> FuncDef:
    """A copy of ``func`` to check again, entered with ``entry`` (until :func:`forget`)."""
    copier = TransformVisitor()
    copy = copier.node(func)
    assert isinstance(copy, FuncDef)
    params = {id(old): new for old, new in copier.var_map.items()}
    _ORIGINS[id(copy)] = _Copy(copy, func, entry, _originals(copy, func), params)
    return copy


def forget(copy: FuncDef) -> None:
    _ORIGINS.pop(id(copy), None)


def _found(func: FuncDef) -> _Copy | None:
    found = _ORIGINS.get(id(func))
    return found if found is not None and found.copy is func else None


def mapped(func: FuncDef) -> bool:
    """Is ``func`` a copy whose expressions are read through the original's?"""
    found = _found(func)
    return found is not None and bool(found.originals)


def original_node(func: FuncDef, node: object) -> object | None:
    """The original of an expression of the copy ``func`` (None if it was not copied from it);
    ``node`` itself when ``func`` is not a copy (or one read as itself)."""
    found = _found(func)
    return node if found is None or not found.originals else found.originals.get(id(node))


def original_by_id(func: FuncDef, ident: int) -> Expression | None:
    """The original of the copy ``func``'s expression whose id is ``ident``."""
    found = _found(func)
    return found.originals.get(ident) if found is not None else None


def copy_var(func: FuncDef, original: Var) -> Var | None:
    """The copy ``func``'s own variable for a variable of the function it was made from."""
    found = _found(func)
    return found.params.get(id(original)) if found is not None else None


def origin(func: FuncDef) -> FuncDef:
    """The kernel ``func`` is a copy of, or ``func`` itself."""
    found = _found(func)
    return found.kernel if found is not None else func


def entry(func: FuncDef) -> Entry | None:
    """What the call entered this copy with; None for a function mypy checks as declared (and a
    kernel copied for a host call: it starts with no tiles, like the kernel)."""
    found = _found(func)
    return found.entry if found is not None else None


def root(func: FuncDef) -> FuncDef:
    """The function whose check ``func`` is part of: the kernel a helper copy's call chain
    started in, the kernel a copy was made from, or ``func`` itself."""
    called = entry(func)
    if called is not None and called.root is not None:
        return called.root
    return origin(func)
