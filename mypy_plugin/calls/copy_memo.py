"""One check per distinct copy: what checking a kernel or helper copy gave (its ``pypto-*``
findings and notes, the types it returns), kept for the next call that would check the same copy.

A copy's check is a function of the function, the parameter types it is checked with and the
state the call enters it with (tiles and int values); the note that names the call is not part of
it (:mod:`specialize` adds each call's note when it reports). Three more things can change the
answer, and each is part of a record's validity:

- the copies a check makes in turn (helpers calling helpers) are refused past ``max_depth`` and
  for a function already being checked: a record says which functions its nested checks tried
  and how deep they went, and serves only a stack that would refuse none of them (a record whose
  check was refused somewhere serves only the very same stack);
- the entry state: a record whose check never read the tiles or the values it was entered with
  (no op with a tile check, no helper call that passes them on) serves every entry;
- what mypy knows: records live for one pass of the checker over one module, and the next pass
  over it (a deferred pass, a daemon update that checks a target again because it had an error)
  keeps them when neither the module nor any module it imports at any depth was parsed since
  (:mod:`module_deps`; a daemon update parses what changed before it analyzes anything) and mypy
  has as many modules: nothing a later pass or an edit may change is answered from here.

The exponential case (helpers calling helpers, each call checking a copy) becomes one check per
distinct (function, parameter types, entry).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Union, cast

from mypy.errors import ErrorInfo
from mypy.nodes import FuncDef, MypyFile
from mypy.types import Type

from ..kernel.copies import Entry
from ..knowledge.op_call import Env
from ..rewrite import parse_count
from . import module_deps

# (function, parameter types) -> its records; the function is held so ids stay unique.
_Key = tuple[FuncDef, str]
EntryKey = Union[tuple[object, ...], None]


@dataclass
class Record:
    infos: list[ErrorInfo]
    returned: list[Type] | None
    reads_entry: bool
    tried: frozenset[FuncDef]  # every function a nested check tried to copy, at any depth
    reach: int  # how many levels of nested checks were tried below this one (0: none)
    refused: bool  # a nested check was refused (depth limit or recursion)
    stack: tuple[FuncDef, ...]  # the functions being checked around it (binding when refused)
    seen: object | None  # what tools were shown of the copy (insight.CopySeen; None: not recording)


@dataclass
class Frame:
    """What one fresh check has done so far (a record in the making)."""

    reads_entry: bool = False
    tried: set[FuncDef] = field(default_factory=set)
    reach: int = 0
    refused: bool = False
    copy: int = 0  # id of the copy being checked
    roots: set[int] = field(default_factory=set)  # ids of the checks whose root causes it claimed


@dataclass
class _Slot:
    any_entry: Record | None = None  # a check that read no entry state: good for every entry
    by_entry: dict[EntryKey, list[Record]] = field(default_factory=dict)


class Stats:
    """Counts for tests and benchmarks: fresh checks, and checks answered from a record."""

    checked = 0
    reused = 0


@dataclass
class _Held:
    """The records of one module: the checker pass they were made in, the parse they were made
    after, and how many modules mypy had then."""

    scope: object
    pass_num: int
    parsed: int
    modules: int
    slots: dict[_Key, _Slot] = field(default_factory=dict)


_modules: dict[str, _Held] = {}
_frames: list[Frame] = []


def _records(api: object) -> dict[_Key, _Slot] | None:
    """The records of the module being checked, as long as they hold (see the module docstring)."""
    module = getattr(api, "tree", None)
    scope = getattr(api, "scope", None)
    number = getattr(api, "pass_num", None)
    modules = getattr(api, "modules", None)
    if not isinstance(module, MypyFile) or scope is None or not isinstance(number, int) or not isinstance(modules, dict):
        return None
    held = _modules.get(module.fullname)
    if held is not None and held.scope is scope and held.pass_num == number:
        return held.slots  # (the same pass: nothing was parsed that it can see)
    if (held is not None and held.slots and held.modules == len(modules)
            and module_deps.unchanged_since(modules, module, held.parsed)):
        held.scope, held.pass_num = scope, number  # another pass, the same facts: the records hold
        return held.slots
    held = _modules[module.fullname] = _Held(scope, number, parse_count.last(), len(modules))
    return held.slots


def types_key(types: list[Type]) -> str | None:
    """The parameter types as mypy serializes them (every detail: literal values, the kind of an
    Any); None for a type that cannot be serialized (no record then)."""
    try:
        return json.dumps([t.serialize() for t in types], sort_keys=True)
    except Exception:  # a type mypy cannot write out (a partial type): check every time
        return None


def entry_key(entry: Entry | None, with_root: bool) -> EntryKey:
    if entry is None:
        return None
    values = tuple(sorted(entry.values.items()))
    return (entry.tiles, entry.vec_set_in_kernel, values, entry.root if with_root else None)


def lookup(api: object, func: FuncDef, types: str, entry: EntryKey, stack: list[FuncDef],
           max_depth: int, shared: bool) -> Record | None:
    """A record that answers this check, if any (``shared``: one that read no entry state may
    answer for another entry)."""
    slots = _records(api)
    slot = slots.get((func, types)) if slots is not None else None
    if slot is None:
        return None
    candidates = list(slot.by_entry.get(entry, ()))
    if shared and slot.any_entry is not None:
        candidates.append(slot.any_entry)
    for record in candidates:
        if record.refused:
            if record.stack == tuple(stack):
                return record
        elif len(stack) + record.reach < max_depth and not record.tried.intersection(stack):
            return record
    return None


def used(record: Record, func: FuncDef) -> None:
    """A record answered a nested check: the enclosing check depends on what it depended on."""
    Stats.reused += 1
    if _frames:
        frame = _frames[-1]
        frame.tried.add(func)
        frame.tried.update(record.tried)
        frame.reach = max(frame.reach, 1 + record.reach)
        frame.refused = frame.refused or record.refused


def refused() -> None:
    """The check about to be made was refused (depth limit, recursion)."""
    if _frames:
        _frames[-1].refused = True


def begin(func: FuncDef, copy: FuncDef) -> Frame:
    """A fresh check of a copy of ``func`` starts (inside the enclosing one, if any)."""
    Stats.checked += 1
    if _frames:
        outer = _frames[-1]
        outer.tried.add(func)
        outer.reach = max(outer.reach, 1)
    frame = Frame(copy=id(copy))
    _frames.append(frame)
    return frame


def end(frame: Frame) -> None:
    """The fresh check is over (whatever happened): the enclosing one inherits what it did."""
    if _frames and _frames[-1] is frame:
        _frames.pop()
    if _frames:
        outer = _frames[-1]
        outer.tried.update(frame.tried)
        outer.reach = max(outer.reach, 1 + frame.reach)
        outer.refused = outer.refused or frame.refused
        outer.roots.update(frame.roots - {frame.copy})


def grouped(root: FuncDef) -> None:
    """An op of the copy being checked had a finding grouped by root cause in ``root``'s check
    (kernel.root_causes): whether it is reported depends on what that check reported before."""
    if _frames:
        _frames[-1].roots.add(id(root))


def self_contained(frame: Frame, copy: FuncDef) -> bool:
    """Can the check answer another call: it grouped findings in its own check only (a kernel
    copy for a host call), not in a caller's (a helper's finding may stand for, or be named in the
    note of, a finding its caller made before the call)."""
    return frame.roots <= {id(copy)}


def store(api: object, func: FuncDef, types: str, entry: EntryKey, frame: Frame, stack: list[FuncDef],
          infos: list[ErrorInfo], returned: list[Type] | None, seen: object | None, shared: bool) -> None:
    slots = _records(api)
    if slots is None:
        return
    record = Record(list(infos), returned, frame.reads_entry, frozenset(frame.tried), frame.reach,
                    frame.refused, tuple(stack), seen)
    slot = slots.setdefault((func, types), _Slot())
    if shared and not record.reads_entry and not record.refused:
        slot.any_entry = record
    else:
        slot.by_entry.setdefault(entry, []).append(record)


def entry_read() -> None:
    """The copy being checked read the tiles or values it was entered with (from the op hooks)."""
    if _frames:
        _frames[-1].reads_entry = True


class _WatchedEnv:
    """An op call's tiles, as the checks see them: reading one marks the copy being checked."""

    _ENTRY_STATE = frozenset({"vec", "cube", "vec_set_in_kernel"})

    def __init__(self, env: Env) -> None:
        self._env = env

    def __getattr__(self, name: str) -> object:
        if name in self._ENTRY_STATE:
            entry_read()
        return getattr(self._env, name)


def watched(env: Env) -> Env:
    """``env`` itself outside a copy's check; inside one, the same tiles, and reading them says
    that the copy's findings depend on the state it was entered with."""
    return cast(Env, _WatchedEnv(env)) if _frames else env
