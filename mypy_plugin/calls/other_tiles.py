"""The tiles after a call of another module's function, for the caller's tile pass.

``kernel/tile_flow.py`` walks mypy's tree of the function being checked; another module's body may
be only in mypy's cache, so its effect on the tiles is taken from the body tracer (which reads the
source, as :mod:`.cross_module` does for the call's checks), entered with the tiles in force at the
call and the int and list values the caller's pass knows for the arguments (tensors unknown: a
tile computed from a tensor's dims stays unknown). Without a traced answer the tiles are unknown
after the call, as before (rule: helper-runs-in-the-trace).
"""

from __future__ import annotations

from collections.abc import Mapping

from mypy.nodes import ARG_NAMED, ARG_POS, FUNC_NO_INFO, CallExpr, FuncDef

from ..knowledge.tiles import TileState
from ..trace.arguments import Actual
from ..trace.modules import TracedModule
from ..trace.run import parameter_names
from ..trace.values import UNKNOWN, Num, Obj, Seq, Value
from . import module_sources
from .cross_module import bind, digest, module_object, trace_and_reads


class OtherModules:
    """:class:`OtherTiles` for the module ``api`` checks (what the traces read is recorded there)."""

    def __init__(self, api: object) -> None:
        self.api = api

    def digest(self, module: str) -> str | None:
        return digest(self.api, module)

    def tiles_after(self, func: FuncDef, call: CallExpr, tiles: TileState, given: Mapping[str, object]
                    ) -> tuple[TileState | None, tuple[tuple[str, str], ...]]:
        module, _, name = func.fullname.rpartition(".")
        if func.info is not FUNC_NO_INFO or not module:
            return None, ()  # a method: its object is not known here
        source = module_sources.load(self.api, module)
        if source is None:
            return None, ()
        actuals = _actuals(call, parameter_names(source, name), given)
        return self._traced(source, name, actuals, tiles, ((module, source.digest),))

    def method_tiles_after(self, obj: str, method: str, call: CallExpr, tiles: TileState
                           ) -> tuple[TileState | None, tuple[tuple[str, str], ...]]:
        module, _, name = obj.rpartition(".")
        home = module_sources.load(self.api, module)
        value = module_object(self.api, module, name)
        if home is None or not isinstance(value, Obj):
            return None, ((module, home.digest),) if home is not None else ()
        source = module_sources.load(self.api, value.cls.module)
        if source is None:
            return None, ((module, home.digest),)
        actuals = _actuals(call, [], {})  # (the object's int attributes are the trace's; the arguments unknown)
        bound = None if actuals is None else [Actual(value, None), *actuals]
        return self._traced(source, f"{value.cls.name}.{method}", bound, tiles,
                            ((module, home.digest), (source.name, source.digest)))

    def _traced(self, source: TracedModule, name: str, actuals: list[Actual] | None, tiles: TileState,
                read: tuple[tuple[str, str], ...]) -> tuple[TileState | None, tuple[tuple[str, str], ...]]:
        """The tiles after ``source``'s function ``name`` traced with ``actuals`` (None: a spread,
        which parameter gets what is not known), and every source that read."""
        params = None if actuals is None else bind(self.api, source, name, actuals)
        if params is None:
            return None, read  # not a helper (a jit kernel), or the call does not fit it
        found, traced = trace_and_reads(self.api, source.name, name, params, tiles, True)
        return (found.exit_tiles if found is not None else None), (*read, *traced)


def _actuals(call: CallExpr, names: list[str], given: Mapping[str, object]) -> list[Actual] | None:
    """The call's arguments: the int and list values the caller's pass knows, by the parameter
    each goes to (``names``, in order); None for a spread."""
    actuals: list[Actual] = []
    for i, (kind, keyword) in enumerate(zip(call.arg_kinds, call.arg_names)):
        if kind not in (ARG_POS, ARG_NAMED):
            return None
        target = keyword if kind == ARG_NAMED else names[i] if i < len(names) else None
        actuals.append(Actual(_value(given.get(target)) if target else UNKNOWN, None, keyword))
    return actuals


def _value(given: object) -> Value:
    """An int or int list the caller's tile pass evaluated (``None`` items: ints of unknown value)."""
    if isinstance(given, int) and not isinstance(given, bool):
        return given
    if isinstance(given, tuple) and all(i is None or isinstance(i, int) for i in given):
        return Seq(tuple(i if i is not None else Num("int") for i in given), True)
    return UNKNOWN
