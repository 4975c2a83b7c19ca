"""The tile flow of each function, computed once per original function and entry state and shared
by its copies (a kernel checked again for each host call, a helper for each call from a kernel).

A copy's flow is the original's, walked with the copy's entry (the caller's tiles and values) and
read through the copy's parameters (their types are the call's): the hooks of a copy look their
expression up through :func:`copies.original_node`. A flow that never read a parameter's type
serves every copy with the same entry (the declared pass's serves the copies of a kernel checked
for host calls); one that did serves the copies with the same parameter types. A flow is kept while
what it was read from is unchanged (the function's body, a new one after each edit in the daemon
too, the constants and helper bodies it read). ``PYPTO_STUBS_DEBUG=1`` walks each copy itself too
and fails when the two differ.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping
from typing import Final, Union

from mypy.nodes import FuncDef, MypyFile, Var

from .. import debug
from ..knowledge.tiles import HELPER_ENTRY, KERNEL_ENTRY, TileState
from . import copies as kernel_copies
from .decorators import is_kernel
from .tile_flow import _Flow, _Pass, walk
from .tile_values import Value

_CACHE_SIZE: Final = 512
_COPIES: Final = 64  # copies being checked (nested ones included): each one's resolved flow
_ANY: Final = "*"  # the parameter types of a flow that read none
_Key = tuple[int, object, Union[str, None]]


class TileFlowCache:
    """The flows of one run; holds the functions so ids stay unique."""

    def __init__(self) -> None:
        self._flows: OrderedDict[_Key, tuple[FuncDef, _Pass, _Flow]] = OrderedDict()
        self._copies: OrderedDict[int, tuple[FuncDef, FuncDef, _Pass, _Flow]] = OrderedDict()
        self.walked = 0  # flow passes made (for tests)

    def _flow(self, module: MypyFile, func: FuncDef, modules: Mapping[str, MypyFile]) -> _Flow:
        original = kernel_copies.origin(func)
        if original is func:
            return self._shared(module, func, modules, None, None)
        seen = self._copies.get(id(func))
        if seen is not None and seen[0] is func and seen[2].still_valid():
            return seen[3]
        entry = kernel_copies.entry(func)
        tiles, given = (entry.tiles, dict(entry.values)) if entry is not None else (None, None)
        if not kernel_copies.mapped(func):  # (a copy whose shape differs: walked as itself)
            start = tiles if tiles is not None else KERNEL_ENTRY if is_kernel(module, func) else HELPER_ENTRY
            run, flow = walk(module, func, modules, start, given or {})
            self.walked += 1
        else:
            flow = self._shared(module, original, modules, tiles, given, func)
        if debug.enabled() and kernel_copies.mapped(func):
            _same_as_walking_the_copy(module, func, original, modules, flow)
        self._copies[id(func)] = (func, original, flow.run, flow)
        if len(self._copies) > _COPIES:
            self._copies.popitem(last=False)
        return flow

    def _shared(self, module: MypyFile, func: FuncDef, modules: Mapping[str, MypyFile], tiles: TileState | None,
                given: dict[str, Value] | None, copy: FuncDef | None = None) -> _Flow:
        """The flow of ``func`` entered with ``tiles`` and ``given`` (None: as declared), read
        through ``copy``'s parameters."""
        at_entry = (tiles, tuple(sorted(given.items())) if given else ())
        own = _types_key(copy) if copy is not None else None
        for key in ((id(func), at_entry, _ANY), (id(func), at_entry, own)):
            found = self._flows.get(key)
            if found is not None and found[0] is func and found[1].still_valid():
                self._flows.move_to_end(key)
                return found[2]
        start = tiles if tiles is not None else KERNEL_ENTRY if is_kernel(module, func) else HELPER_ENTRY
        overrides = _param_vars(copy, func) if copy is not None else None
        run, flow = walk(module, func, modules, start, given or {}, overrides)
        self.walked += 1
        types = _ANY if not run.read_params else own if copy is not None else None
        self._flows[(id(func), at_entry, types)] = (func, run, flow)
        if len(self._flows) > _CACHE_SIZE:
            self._flows.popitem(last=False)
        return flow

    def states(self, module: MypyFile, func: FuncDef, node: object,
               modules: Mapping[str, MypyFile]) -> tuple[TileState | None, TileState]:
        """The tiles in force at ``node`` (None if the pass did not see it), and after the
        whole body (every path merged)."""
        flow = self._flow(module, func, modules)
        return flow.at.get(id(kernel_copies.original_node(func, node))), flow.exit

    def transpose_fix(self, module: MypyFile, func: FuncDef, node: object, modules: Mapping[str, MypyFile]) -> str | None:
        return self._flow(module, func, modules).transpose_fixes.get(id(kernel_copies.original_node(func, node)))

    def call_values(self, module: MypyFile, func: FuncDef, call: object,
                    modules: Mapping[str, MypyFile]) -> dict[str, Value]:
        """The int and list values the parameters of the helper called at ``call`` receive."""
        return self._flow(module, func, modules).call_values.get(id(kernel_copies.original_node(func, call)), {})


def _param_vars(copy: FuncDef, original: FuncDef) -> dict[int, Var]:
    found: dict[int, Var] = {}
    for arg in original.arguments:
        own = kernel_copies.copy_var(copy, arg.variable)
        if own is not None:
            found[id(arg.variable)] = own
    return found


def _types_key(copy: FuncDef) -> str | None:
    """The copy's parameter types, as mypy writes them (None: one that cannot be written)."""
    try:
        return json.dumps([a.variable.type.serialize() if a.variable.type is not None else None
                           for a in copy.arguments], sort_keys=True)
    except Exception:  # a type mypy cannot write out: this copy's flow is its own
        return f"copy {id(copy)}"


def _same_as_walking_the_copy(module: MypyFile, copy: FuncDef, original: FuncDef, modules: Mapping[str, MypyFile],
                              flow: _Flow) -> None:
    """Debug mode: the shared flow, read through the copy, is what walking the copy gives."""
    entry = kernel_copies.entry(copy)
    start = entry.tiles if entry is not None else KERNEL_ENTRY if is_kernel(module, original) else HELPER_ENTRY
    _, own = walk(module, copy, modules, start, dict(entry.values) if entry is not None else {})

    if own.exit != flow.exit:
        raise AssertionError(f"shared tile flow of {original.name}: exit {flow.exit} != {own.exit}")
    for name, theirs, ours in (("tiles", own.at, flow.at), ("values", own.call_values, flow.call_values),
                               ("fixes", own.transpose_fixes, flow.transpose_fixes)):
        for key, value in theirs.items():
            node = kernel_copies.original_by_id(copy, key)
            if node is None or ours.get(id(node)) != value:
                raise AssertionError(f"shared tile flow of {original.name}: {name} differ at line "
                                     f"{getattr(node, 'line', '?')}: {ours.get(id(node))} != {value}")
