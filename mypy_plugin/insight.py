"""What the plugin knows about checked code, for tools (the language server, ``mypy_plugin.lsp``):
a small supported interface, so that no tool reaches into the plugin's internals.

- :func:`tensor_of`: a mypy type as a PyPTO tensor's shape and dtype (``None``: not a tensor).
- :func:`tiles_at`, :func:`entry_tiles`: the vec and cube tiles in force where an expression of a
  function runs, and when the function starts (``knowledge.tiles``: ``NOT_SET``, ``UNKNOWN`` or
  the values; ``fmt_tiles`` says them as a user reads them).
- :func:`kind`: is a function a jit kernel or a ``@pypto.frontend.function`` helper.
- :func:`copies`: the copies a kernel or helper was checked again with (one per host call's
  tensors, one per call from a kernel: ``calls/specialize.py``), each with its tensors and tiles.
  Recorded only while :func:`recording` is on (a ``pypto-check`` run records nothing); the
  recording hook :func:`copy_checked` is called by ``calls.specialize.check``, and
  :func:`traced_call` by ``calls.cross_module`` for a kernel of another module traced with a
  call's tensors.

Call these on the thread that runs mypy, after a check (or an update of the daemon's engine).
Positions (:class:`Span`) are mypy's: 1-based lines, 0-based columns, end column exclusive.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from mypy.nodes import Decorator, Expression, FuncDef, MypyFile, Node
from mypy.types import Type

from .bridge.tensor_types import tensor_val
from .debug import degrade
from .kernel import copies as kernel_copies
from .kernel.body_walk import body_expressions
from .kernel.decorators import is_helper_decorator, is_kernel
from .kernel.tile_flow import TileFlowCache
from .knowledge.tiles import HELPER_ENTRY, KERNEL_ENTRY, NOT_SET, UNKNOWN, TileState, fmt_cube, fmt_vec
from .knowledge.values import TensorVal

__all__ = ["CopyCheck", "CopySeen", "Span", "copies", "copy_checked", "entry_tiles", "fmt_tiles", "forget", "kind",
           "is_recording", "recording", "span", "tensor_of", "tiles_at", "traced_call"]


@dataclass(frozen=True)
class Span:
    line: int
    column: int
    end_line: int
    end_column: int


def span(node: Node) -> Span:
    """Where ``node`` is (a copy of a function keeps every position of the original)."""
    return Span(node.line, node.column, node.end_line if node.end_line is not None else node.line,
                node.end_column if node.end_column is not None else node.column)


def tensor_of(t: Type | None) -> TensorVal | None:
    """The shape and dtype of a PyPTO tensor type (unknown parts are None); None: not a tensor."""
    return tensor_val(t)


def kind(module: MypyFile, func: FuncDef) -> Literal["kernel", "helper"] | None:
    """``kernel``: a jit kernel; ``helper``: a ``@pypto.frontend.function``; None: any other."""
    if is_kernel(module, func):
        return "kernel"
    sym = module.names.get(func.name)
    if sym is not None and isinstance(sym.node, Decorator) and sym.node.func is func:
        return "helper" if is_helper_decorator(sym.node) else None
    return None


def entry_tiles(module: MypyFile, func: FuncDef) -> TileState:
    """The tiles when ``func`` starts: none set in a jit kernel, unknown anywhere else (a helper
    runs with its caller's tiles: see :func:`copies`)."""
    return KERNEL_ENTRY if is_kernel(module, func) else HELPER_ENTRY


class Tiles:
    """Tile flows of the functions asked about, each kept while its body is unchanged."""

    def __init__(self) -> None:
        self._cache = TileFlowCache()

    def at(self, module: MypyFile, func: FuncDef, node: Expression, modules: Mapping[str, MypyFile]) -> TileState | None:
        """The tiles in force where ``node`` (an expression of ``func``'s body) runs; None when the
        pass does not reach it (a nested function's body)."""
        return self._cache.states(module, func, node, modules)[0]


_TILES: Final = Tiles()


def tiles_at(module: MypyFile, func: FuncDef, node: Expression, modules: Mapping[str, MypyFile]) -> TileState | None:
    """:meth:`Tiles.at` with one cache for the process."""
    return _TILES.at(module, func, node, modules)


def fmt_tiles(tiles: TileState) -> tuple[str, str]:
    """``("(8, 4)", "not set")``: the vec and the cube tile as a user reads them."""
    vec = "not set" if tiles.vec is NOT_SET else "unknown" if tiles.vec is UNKNOWN else None
    cube = "not set" if tiles.cube is NOT_SET else "unknown" if tiles.cube is UNKNOWN else None
    return (vec if vec is not None else fmt_vec(tiles.vec) if isinstance(tiles.vec, tuple) else "unknown",
            cube if cube is not None else fmt_cube(tiles.cube) if isinstance(tiles.cube, tuple) else "unknown")


@dataclass(frozen=True)
class CopyCheck:
    """One copy of a function checked with a call's tensors."""

    label: str  # "the call at test_norm.py:12", "the call of core at k.py:30 within the call at t.py:9"
    note: str  # the note its findings carry
    tensors: Mapping[Span, TensorVal]  # the copy's tensor parameters and expressions
    tiles: Mapping[Span, TileState]  # the tiles in force at each of those (entered with the caller's)


_recording: list[bool] = [False]
# path of the checked module -> (function name, line) -> note -> the copy
_COPIES: dict[str, dict[tuple[str, int], dict[str, CopyCheck]]] = {}
# id(a copy being checked) -> copies checked inside it (a helper called from a kernel's copy):
# they get its label when it is recorded
_NESTED: dict[int, list[tuple[str, tuple[str, int], CopyCheck]]] = {}
# path of a checked module -> the records its check made (path, function key, note): dropped
# when it is checked again
_MADE_BY: dict[str, list[tuple[str, tuple[str, int], str]]] = {}
_LABEL: Final = re.compile(r"^with the tensors of (the call .+?): ")


def recording(on: bool) -> None:
    """Record the copies of every later check (the language server turns it on before its first)."""
    _recording[0] = on
    if not on:
        _COPIES.clear()
        _NESTED.clear()
        _MADE_BY.clear()


def forget(path: str) -> None:
    """Drop what the check of the module at ``path`` recorded (before it is checked again): its
    own copies, and what it traced of other modules' kernels (those of other modules' checks stay)."""
    _NESTED.clear()
    for where, key, note in _MADE_BY.pop(path, []):
        _COPIES.get(where, {}).get(key, {}).pop(note, None)


def is_recording() -> bool:
    return _recording[0]


def traced_call(made_by: str, path: str, key: tuple[str, int], label: str, note: str,
                tensors: Mapping[Span, TensorVal], tiles: Mapping[Span, TileState]) -> None:
    """A function of the module at ``path`` (``key``: its name and line) was traced with a call's
    tensors by the check of the module at ``made_by`` (``calls.cross_module``)."""
    if not _recording[0]:
        return
    _store(made_by, path, key, CopyCheck(label, note, tensors, tiles))


def copies(path: str, func: FuncDef) -> list[CopyCheck]:
    """The copies ``func`` (a function of the module at ``path``) was last checked with."""
    return list(_COPIES.get(path, {}).get((func.name, func.line), {}).values())


@dataclass(frozen=True)
class CopySeen:
    """What one copy's check showed, whatever call it was for: kept with a copy check that
    answers later calls (``calls/copy_memo.py``), placed again under each call's note."""

    path: str
    key: tuple[str, int]
    tensors: Mapping[Span, TensorVal]
    tiles: Mapping[Span, TileState]
    nested: tuple[tuple[str, tuple[str, int], CopyCheck], ...]  # helper copies checked inside it


def copy_checked(api: object, func: FuncDef, copy: FuncDef | CopySeen,
                 note: str | Callable[[str], str]) -> CopySeen | None:
    """The recording hook: ``copy`` of ``func`` was just checked (``api``: mypy's checker) with
    the tensors that ``note`` names; or a check kept from another call (what it showed) answered
    this one. Returns what the check showed (None when nothing is recorded)."""
    if not _recording[0]:
        return None
    try:
        seen = copy if isinstance(copy, CopySeen) else _seen(api, func, copy)
        if seen is not None:
            _place(api, seen, note if isinstance(note, str) else note(""))
        return seen
    except Exception as err:  # never crash mypy
        degrade(err)
        return None


def _seen(api: object, func: FuncDef, copy: FuncDef) -> CopySeen | None:
    module = getattr(api, "tree", None)
    path = getattr(api, "path", None)
    lookup = getattr(api, "lookup_type_or_none", None)
    modules = getattr(api, "modules", {})
    if not isinstance(module, MypyFile) or not isinstance(path, str) or lookup is None:
        return None
    tensors: dict[Span, TensorVal] = {}
    tiles: dict[Span, TileState] = {}
    called = kernel_copies.entry(copy)
    start = called.tiles if called is not None else entry_tiles(module, copy)
    for arg in copy.arguments:
        val = tensor_val(arg.variable.type)
        if val is not None:
            tensors[span(arg)] = val
            tiles[span(arg)] = start
    flows = TileFlowCache()
    for expr in _expressions(copy):
        val = tensor_val(lookup(expr))
        if val is not None:
            tensors[span(expr)] = val
            state = flows.states(module, copy, expr, modules)[0]
            if state is not None:  # an assignment's target: the pass reads its value's tiles
                tiles[span(expr)] = state
    return CopySeen(path, (func.name, func.line), tensors, tiles, tuple(_NESTED.pop(id(copy), [])))


def _place(api: object, seen: CopySeen, note: str) -> None:
    found = _LABEL.match(note)
    record = CopyCheck(found.group(1) if found else note, note, seen.tensors, seen.tiles)
    placed = [(seen.path, seen.key, record)] + [
        (where, inner_key, CopyCheck(f"{inner.label} within {record.label}", f"{inner.note}; {note}",
                                     inner.tensors, inner.tiles))
        for where, inner_key, inner in seen.nested]
    scope = getattr(api, "scope", None)
    caller = scope.current_function() if scope is not None else None
    if isinstance(caller, FuncDef) and kernel_copies.origin(caller) is not caller:
        _NESTED.setdefault(id(caller), []).extend(placed)  # labelled when its caller's copy is recorded
        return
    for where, inner_key, inner in placed:
        _store(seen.path, where, inner_key, inner)


def _store(made_by: str, path: str, key: tuple[str, int], record: CopyCheck) -> None:
    _COPIES.setdefault(path, {}).setdefault(key, {})[record.note] = record
    _MADE_BY.setdefault(made_by, []).append((path, key, record.note))


def _expressions(func: FuncDef) -> Iterable[Expression]:
    return body_expressions(func.body.body)
