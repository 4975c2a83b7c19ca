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
from ..trace.run import parameter_names, parameters
from ..trace.state import Shared
from ..trace.values import UNKNOWN, Num, Seq, Value
from . import module_sources
from .cross_module import digest, options, trace_and_reads


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
        api = self.api
        source = module_sources.load(api, module)
        if source is None:
            return None, ()
        names = parameter_names(source, name)
        actuals: list[Actual] = []
        for i, (kind, keyword) in enumerate(zip(call.arg_kinds, call.arg_names)):
            if kind not in (ARG_POS, ARG_NAMED):
                return None, ((module, source.digest),)  # a spread: which parameter gets what is not known
            target = keyword if kind == ARG_NAMED else names[i] if i < len(names) else None
            actuals.append(Actual(_value(given.get(target)) if target else UNKNOWN, None, keyword))
        params = parameters(source, name, actuals, Shared(options(), lambda other: module_sources.load(api, other)))
        if params is None:
            return None, ((module, source.digest),)  # not a helper (a jit kernel), or the call does not fit it
        found, read = trace_and_reads(api, module, name, params, tiles, True)
        return (found.exit_tiles if found is not None else None), read


def _value(given: object) -> Value:
    """An int or int list the caller's tile pass evaluated (``None`` items: ints of unknown value)."""
    if isinstance(given, int) and not isinstance(given, bool):
        return given
    if isinstance(given, tuple) and all(i is None or isinstance(i, int) for i in given):
        return Seq(tuple(i if i is not None else Num("int") for i in given), True)
    return UNKNOWN
