"""The entry point: trace one function of a module with the values its parameters receive and the
tiles it is entered with; helpers it calls are traced the same way, once per distinct entry."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..knowledge.tiles import HELPER_ENTRY, NOT_SET, TileState
from ..knowledge.values import TensorVal
from ..knowledge.tiles import UNKNOWN as UNKNOWN_TILE
from . import function_facts
from .arguments import Actual
from .modules import TracedModule
from .state import OpRecord, Options, Shared, Traced
from .statements import StatementTracer
from .values import NONE, UNKNOWN, Class, Obj, Ref, Value, join

MAX_DEPTH: Final = 8  # helpers calling helpers


@dataclass(frozen=True)
class Outcome:
    findings: tuple[Traced, ...]
    returned: Value
    exit_tiles: TileState
    ops: tuple[OpRecord, ...] = ()  # when the trace records them (``Shared.ops``)
    # (line, column, end line, end column) of each tensor expression of the traced function's own
    # module, with its tensor and the tiles in force there (when ``Shared.observe`` was asked)
    seen: tuple[tuple[tuple[int, int, int, int], TensorVal, TileState], ...] = ()


class Tracer(StatementTracer):
    stack: tuple[tuple[str, str], ...] = ()
    # A helper traced as its own module's check sees it (the baseline of a call): that check enters
    # no call that passes no tensor (outside a kernel, calls/cross_module.py, calls/helpers.py).
    mirror = False
    returns_into: tuple[bool, str | None] | None = None  # the caller moves the result into an output

    def run_body(self, fdef: ast.FunctionDef, params: dict[str, Value]) -> tuple[Value, TileState]:
        """Trace the body with ``params``; the value it returns (every path joined) and the tiles
        after it."""
        walked = function_facts.facts(fdef)
        self.params = frozenset(params)
        self.locals_ = walked.locals
        self.buffers = frozenset(self._buffers(fdef, walked))
        self.env = dict(params)
        self.moved_into_outputs(walked, params, self.returns_into)
        self.block(fdef.body)
        ends = list(self.returns)
        if not self.dead:
            ends.append((NONE, self.tiles))
        if not ends:
            return UNKNOWN, self.tiles
        value, tiles = ends[0]
        for v, t in ends[1:]:
            value, tiles = join(value, v), tiles.join(t)
        return value, tiles

    def _buffers(self, fdef: ast.FunctionDef, walked: function_facts.FunctionFacts) -> set[str]:
        """Locals every binding of which is a ``pypto.*`` call (``buf = pypto.tensor([...], DT)``)."""
        calls: dict[str, bool] = {}
        for name, func in walked.assigned:
            callee = self.constant_expr(self.module, func) if func is not None else None
            ok = isinstance(callee, Ref) and callee.fullname.startswith("pypto.")
            calls[name] = calls.get(name, True) and ok
        return {n for n, ok in calls.items() if ok and n not in walked.bound_otherwise} - {a.arg for a in fdef.args.args}

    def construct(self, cls: Class, actuals: list[Actual]) -> Value:
        """An instance of a class whose body we read: a dataclass's fields, or what its
        ``__init__`` assigns to ``self`` (no base class, no other decorator: anything else is unknown)."""
        module = self.load(cls.module)
        cdef = module.classes.get(cls.name) if module is not None else None
        if module is None or cdef is None or cdef.bases or cdef.keywords or len(cdef.decorator_list) > 1:
            return UNKNOWN
        if cdef.decorator_list:
            deco = cdef.decorator_list[0]
            if self.constant_expr(module, deco.func if isinstance(deco, ast.Call) else deco) != _DATACLASS:
                return UNKNOWN
            return self._dataclass(module, cls, cdef, actuals)
        init = module.functions.get(f"{cls.name}.__init__")
        if init is None:
            return Obj(cls) if not actuals else UNKNOWN
        params = self.bind(module, init, [Actual(Obj(cls), None), *actuals])
        first = (init.args.posonlyargs + init.args.args)[:1]
        if params is None or not first or self.depth >= MAX_DEPTH:
            return UNKNOWN
        sub = Tracer(self.shared, module, self.tiles, self.vec_set, self.via, self.depth + 1)
        sub.silent = self.silent
        sub.run_body(init, params)
        self.tiles = sub.tiles
        made = sub.env.get(first[0].arg)
        return made if isinstance(made, Obj) and not sub.dead else UNKNOWN

    def _dataclass(self, module: TracedModule, cls: Class, cdef: ast.ClassDef, actuals: list[Actual]) -> Value:
        fields = [(s.target.id, s.value) for s in cdef.body if isinstance(s, ast.AnnAssign)
                  and isinstance(s.target, ast.Name) and not _is_classvar(s.annotation)]
        positional = [a.value for a in actuals if a.keyword is None and not a.starred]
        keywords = {a.keyword: a.value for a in actuals if a.keyword is not None}
        if any(a.starred for a in actuals) or len(positional) > len(fields):
            return UNKNOWN
        obj = Obj(cls)
        for i, (name, default) in enumerate(fields):
            if i < len(positional):
                value = positional[i]
            elif name in keywords:
                value = keywords[name]
            elif default is not None and not isinstance(default, ast.Call):
                value = self.constant_expr(module, default)
            else:
                return UNKNOWN  # a missing argument, or a default_factory
            obj = obj.with_attr(name, value)
        return obj

    def enter(self, module: TracedModule, fdef: ast.FunctionDef, params: dict[str, Value], node: ast.Call) -> Value:
        if self.mirror and not _passes_a_tensor(fdef, params):
            return self._unentered(module, fdef, params, node)
        me = (module.name, fdef.name)
        if self.depth >= MAX_DEPTH or me in self.stack:
            self.tiles = UNKNOWN_TILES
            return UNKNOWN
        into = self.into.get(id(node))
        key: tuple[object, ...] | None = (
            me, tuple(sorted(params.items(), key=lambda kv: kv[0])), self.tiles, self.vec_set, self.silent > 0, into)
        try:
            hash(key)
        except TypeError:
            key = None
        memo = self.shared.memo.get(key) if key is not None else None
        if memo is not None:
            _, returned, tiles = memo
            self.tiles = tiles
            return returned
        where = f"{fdef.name} at {Path(self.module.path).name}:{node.lineno}"
        sub = Tracer(self.shared, module, self.tiles, self.vec_set, self.via + (where,), self.depth + 1)
        sub.stack = self.stack + (me,)
        sub.silent, sub.returns_into = self.silent, into
        returned, tiles = sub.run_body(fdef, params)
        if key is not None:
            self.shared.memo[key] = ((), returned, tiles)
        self.tiles = tiles
        return returned


    def _unentered(self, module: TracedModule, fdef: ast.FunctionDef, params: dict[str, Value],
                   node: ast.Call) -> Value:
        """A call its module's check does not enter: the callee counts as its own module checks it
        (every parameter unknown, unknown tiles), and the call is followed silently for what it
        returns and the tiles after it (what it finds under this caller's state is the call's)."""
        me = (module.name, fdef.name)
        if self.depth < MAX_DEPTH and me not in self.stack:
            own = Tracer(self.shared, module, HELPER_ENTRY, True, self.via, self.depth + 1)
            own.stack, own.silent, own.mirror = self.stack + (me,), self.silent, True
            own.run_body(fdef, {p: UNKNOWN for p in params})
        self.mirror, self.silent = False, self.silent + 1
        try:
            return self.enter(module, fdef, params, node)
        finally:
            self.mirror, self.silent = True, self.silent - 1


UNKNOWN_TILES: Final = TileState(UNKNOWN_TILE, UNKNOWN_TILE)


def _passes_a_tensor(fdef: ast.FunctionDef, params: dict[str, Value]) -> bool:
    """Does the callee's own module enter this call (calls/helpers.py, outside a kernel): a tensor
    for an unannotated parameter, or one that says more than a bare ``Tensor`` annotation? (A
    shape-annotated parameter counts as not: at worst the call's finding is reported twice.)"""
    args = fdef.args
    annotations = {a.arg: a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    for name, value in params.items():
        if not isinstance(value, TensorVal):
            continue
        annotation = annotations.get(name)
        if annotation is None:
            return True
        bare = isinstance(annotation, ast.Name) and annotation.id == "Tensor" or \
            isinstance(annotation, ast.Attribute) and annotation.attr == "Tensor"
        if bare and (value.shape is not None or value.dtype is not None):
            return True
    return False


_DATACLASS: Final = Ref("dataclasses.dataclass")


def _is_classvar(annotation: ast.expr) -> bool:
    target = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return isinstance(target, (ast.Name, ast.Attribute)) and (
        target.id if isinstance(target, ast.Name) else target.attr) == "ClassVar"


def parameters(module: TracedModule, name: str, actuals: list[Actual], shared: Shared) -> dict[str, Value] | None:
    """What a call with ``actuals`` binds the parameters of ``module``'s helper ``name`` to (None:
    not a helper, or the call does not fit it)."""
    fdef = module.functions.get(name)
    if fdef is None:
        return None
    binder = Tracer(shared, module, UNKNOWN_TILES, True)
    return binder.bind(module, fdef, actuals) if binder.is_helper(module, fdef) else None


def module_value(module: TracedModule, name: str, shared: Shared) -> Value:
    """A top-level name of ``module`` as traced code reads it."""
    shared.loaded.setdefault(module.name, module)
    return Tracer(shared, module, UNKNOWN_TILES, True).global_name(module, name)


def parameter_names(module: TracedModule, name: str) -> list[str]:
    fdef = module.functions.get(name)
    if fdef is None:
        return []
    a = fdef.args
    return [p.arg for p in [*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []), *a.kwonlyargs,
                             *([a.kwarg] if a.kwarg else [])]]


def trace_function(module: TracedModule, name: str, params: dict[str, Value], tiles: TileState,
                   vec_set: bool | None, shared: Shared, via: tuple[str, ...] = (), mirror: bool = False,
                   returns_into: tuple[bool, str | None] | None = None) -> Outcome | None:
    """Trace ``module``'s top-level function ``name``. ``vec_set``: whether the kernel at the root
    of the call chain sets a vec tile anywhere (None: this is that kernel; decided from its trace).
    ``mirror``: as the helper's own module checks it (``Tracer.mirror``; not for a kernel);
    ``returns_into``: the caller writes its result whole into an output."""
    fdef = module.functions.get(name)
    if fdef is None:
        return None
    start, op_start = len(shared.findings), len(shared.ops or ())
    shared.loaded.setdefault(module.name, module)
    tracer = Tracer(shared, module, tiles, vec_set, via)
    tracer.stack = ((module.name, name),)
    tracer.mirror = mirror and vec_set is not None
    tracer.returns_into = returns_into
    returned, exit_tiles = tracer.run_body(fdef, params)
    if vec_set is None:
        for later in shared.deferred:
            later(exit_tiles.vec is not NOT_SET)
        shared.deferred.clear()
    found = shared.findings[start:]
    ops = tuple(shared.ops[op_start:]) if shared.ops is not None else ()
    unique: dict[tuple[object, ...], Traced] = {}
    for f in found:
        unique.setdefault((f.module, f.line, f.column, f.finding.code.name, f.message), f)
    return Outcome(tuple(sorted(unique.values(), key=lambda f: (f.module != module.name, f.line, f.column))),
                   returned, exit_tiles, ops)


__all__ = ["Options", "Outcome", "Shared", "TracedModule", "Traced", "trace_function"]
