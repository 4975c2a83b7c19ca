"""Which tiles are in force at each op of a function: one pass over its body, in program order.

Branches merge (different values become UNKNOWN), loop bodies are walked with the state
they may be entered with on a later iteration, and calls to helpers of the same module that
set tiles apply the helper's effect. A call of another (non-stub) module's function applies the
effect its traced source gives (``OtherTiles``, from the hooks: its body may be only in mypy's
cache); without one the state becomes UNKNOWN.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from mypy.nodes import (
    ARG_NAMED, ARG_POS, ARG_STAR, AssignmentStmt, BytesExpr, CallExpr, ComplexExpr, Decorator, EllipsisExpr,
    Expression, FloatExpr, FuncDef, IndexExpr, IntExpr, MemberExpr, MypyFile, NameExpr, OpExpr, RefExpr, StarExpr,
    Statement, StrExpr, TypeInfo, Var,
)
from mypy.types import TupleType, Type, get_proper_type

from ..bridge import folding
from ..bridge.folding import int_of_type
from ..knowledge.tiles import HELPER_ENTRY, KERNEL_ENTRY, UNKNOWN, TileState
from . import copies as kernel_copies
from .body_walk import child_exprs
from .decorators import is_kernel
from .matmul_flags import transposed_operand_fixes
from .program_order import ProgramOrder
from .tile_pass import OtherTiles, Pass
from .tile_calls import SET_CUBE, SET_VEC, TileCalls, reads_lists
from .tile_values import (
    SHAPE, Evaluator, Locals, Value, entry_locals, lookup, set_item, shapes_given,
    unpacked_names, with_value,
)

_MAX_HELPER_DEPTH: Final = 8

_CACHE_SIZE: Final = 512
_LITERALS: Final = frozenset({IntExpr, StrExpr, FloatExpr, BytesExpr, ComplexExpr, EllipsisExpr})



@dataclass(frozen=True)
class _State:
    """The tiles in force and the values of the followed locals (tile_values.py)."""

    tiles: TileState
    values: Locals = ()

    def join(self, other: _State) -> _State:
        same = tuple(p for p in self.values if p in other.values) if self.values != other.values else self.values
        return _State(self.tiles.join(other.tiles), same)


class _Flow(ProgramOrder[_State]):
    def __init__(self, run: Pass, depth: int, func: FuncDef, given: Mapping[str, Value]) -> None:
        """``given``: the int and list values (and tensor dims) the call passes its parameters."""
        self.run = run
        self.given = given
        self.module = run.module
        self.modules = run.modules
        self.depth = depth
        self.func = func
        followed, local = run.locals_of(func)
        self.values = Evaluator(func, followed, local, run.read, shapes_given(given), kernel_copies.root(func).fullname)
        self.calls = TileCalls(func, run.module, run.modules, run.read, followed)
        self.at: dict[int, TileState] = {}
        # id(node) -> its position in program order (first visit): which of two findings comes first
        self.order: dict[int, int] = {}
        # what kernel.root_causes keeps for this pass (the first finding of each root cause)
        self.causes: dict[str, object] = {}
        # id(helper call) -> the int and list values its parameters receive (by parameter name)
        self.call_values: dict[int, dict[str, Value]] = {}
        self.exit: TileState = HELPER_ENTRY  # after the whole body; set by TileFlowCache
        # id(``x.T`` node) -> the matmul call that avoids it, with {dtype} for the receiver's dtype
        self.transpose_fixes: dict[int, str] = {}

    def start(self, tiles: TileState) -> _State:
        return _State(tiles, entry_locals(self.func, self.values.followed, self.given, self.run.read))

    # --- values -------------------------------------------------------------------
    def _ints(self, e: Expression, state: _State) -> tuple[int | None, ...] | None:
        found = self.values.ints(e, state.values)
        if found is not None:
            return found
        if isinstance(e, RefExpr) and isinstance(e.node, Var) and id(e.node) not in self.values.local:
            # ``VEC: Final = (8, 4)`` and the rewrite's ``VEC: _PyptoStubsConstTuple[8, 4] = (8, 4)``
            # have the type tuple[Literal[8]?, Literal[4]?].
            declared = self.run.read(e.node, "type")
            t = get_proper_type(declared) if isinstance(declared, Type) else None
            if isinstance(t, TupleType):
                ints = tuple(int_of_type(i) for i in t.items)
                if e.node.is_final or None not in ints:
                    return ints
        return None

    def _vec(self, call: CallExpr, state: _State) -> TileState | None:
        dims: list[int | None] = []
        for arg, kind in zip(call.args, call.arg_kinds):
            if kind == ARG_STAR:
                spread = self._ints(arg, state)
                if spread is None:
                    return None
                dims.extend(spread)
            else:
                dims.append(self.values.int_(arg, state.values))
        return TileState(tuple(dims), UNKNOWN)

    def _cube(self, call: CallExpr, state: _State) -> tuple[tuple[int | None, ...], ...] | None:
        if len(call.args) < 3 or any(k == ARG_STAR for k in call.arg_kinds[:3]):
            return None
        parts = [self._ints(a, state) for a in call.args[:3]]
        if any(p is None for p in parts):
            return None
        return tuple(p for p in parts if p is not None)

    # --- walking (control flow is ProgramOrder's) -----------------------------------
    def join(self, a: _State, b: _State) -> _State:
        return a.join(b)

    def simple(self, s: Statement, state: _State) -> _State:
        if isinstance(s, AssignmentStmt) and len(s.lvalues) == 1:
            target = s.lvalues[0]
            var = target.node if isinstance(target, NameExpr) else None
            if isinstance(var, Var) and id(var) in self.values.followed:
                value = self.values.value(s.rvalue, state.values)
                if isinstance(value, tuple) and isinstance(s.rvalue, NameExpr):
                    value = None  # an alias of another list: a change through either is not followed
                state = self.expr(s.rvalue, state)
                return replace(state, values=with_value(state.values, id(var), value))
            names = unpacked_names(target)
            if names is not None:
                value = self.values.value(s.rvalue, state.values)
                state = self.expr(s.rvalue, state)
                items = value if isinstance(value, tuple) and len(value) == len(names) else (None,) * len(names)
                values = state.values
                for name, part in zip(names, items):
                    if isinstance(name.node, Var) and id(name.node) in self.values.followed:
                        values = with_value(values, id(name.node), part)
                return replace(state, values=values)
            if isinstance(target, IndexExpr) and self._followed_list(target.base, state):
                assert isinstance(target.base, NameExpr)
                base = lookup(state.values, id(target.base.node))
                index = self.values.int_(target.index, state.values)
                item = self.values.value(s.rvalue, state.values)
                state = self.expr(s.rvalue, self.expr(target.index, state))
                changed = (set_item(base, index, item if isinstance(item, int) else None)
                           if isinstance(base, tuple) and index is not None else None)
                return replace(state, values=with_value(state.values, id(target.base.node), changed))
        for e in child_exprs(s):
            state = self.expr(e, state)
        return state

    def _followed_list(self, e: Expression, state: _State) -> bool:
        return (isinstance(e, NameExpr) and isinstance(e.node, Var)
                and isinstance(lookup(state.values, id(e.node)), tuple))

    def expr(self, e: Expression | None, state: _State) -> _State:
        if e is None:
            return state
        t = type(e)
        if t is NameExpr:  # (most expressions: a name or a literal, with nothing under them)
            assert isinstance(e, NameExpr)
            if state.values and self._followed_list(e, state):
                # A list used any other way may be changed from here on (a method, a helper call).
                assert isinstance(e.node, Var)
                state = replace(state, values=with_value(state.values, id(e.node), None))
            self._visit(e, state)  # (a tool asks the tiles at a tensor's name)
            return state
        if t in _LITERALS:
            return state  # never a hook's context, nor a tensor a tool asks about
        if isinstance(e, (CallExpr, OpExpr)):
            self.transpose_fixes.update(transposed_operand_fixes(e))
        if isinstance(e, CallExpr):
            if isinstance(e.callee, MemberExpr):
                state = self.expr(e.callee.expr, state)  # ``t.append(4)`` may change a list
            elif not isinstance(e.callee, RefExpr):
                state = self.expr(e.callee, state)
            reads = reads_lists(e)
            self._note_given(e, state)  # before the arguments are walked (a list passed on is forgotten)
            for arg in e.args:
                read = arg.expr if isinstance(arg, StarExpr) else arg
                if not (reads and self._followed_list(read, state)):
                    state = self.expr(arg, state)
            self._visit(e, state)
            return self.call(e, state)
        if isinstance(e, IndexExpr) and self._followed_list(e.base, state):
            state = self.expr(e.index, state)  # an item read
        else:
            for child in child_exprs(e):
                state = self.expr(child, state)
        self._visit(e, state)
        return state

    def _visit(self, e: Expression, state: _State) -> None:
        self.at[id(e)] = state.tiles
        self.order.setdefault(id(e), len(self.order))

    def call(self, e: CallExpr, state: _State) -> _State:
        callee = e.callee
        if isinstance(callee, RefExpr) and callee.fullname == SET_VEC:
            new = self._vec(e, state)
            return replace(state, tiles=TileState(new.vec if new else UNKNOWN, state.tiles.cube))
        if isinstance(callee, RefExpr) and callee.fullname == SET_CUBE:
            cube = self._cube(e, state)
            return replace(state, tiles=TileState(state.tiles.vec, cube if cube is not None else UNKNOWN))
        node = callee.node if isinstance(callee, RefExpr) else None
        if node is None or isinstance(node, TypeInfo):  # CFG.layout.tile(), get_layout().tile(), Layout(8, 16), FNS[0](x)
            if not self.calls.may_set(e):
                return state
            obj = _module_object(callee)
            after = self.run.other_method_effect(obj, callee.name, e, state.tiles) \
                if obj is not None and isinstance(callee, MemberExpr) else None
            return replace(state, tiles=after if after is not None else TileState(UNKNOWN, UNKNOWN))
        func = node.func if isinstance(node, Decorator) else node
        if not isinstance(func, FuncDef):
            return state
        owner = func.fullname.rsplit(".", 1)[0] if "." in func.fullname else ""
        if func.fullname.startswith(f"{self.module.fullname}."):
            given = self.call_values.get(id(e), {})
            if not self.run.sets_tiles(func):
                return state
            if self.depth >= _MAX_HELPER_DEPTH:
                return replace(state, tiles=TileState(UNKNOWN, UNKNOWN))
            # A helper's effect depends only on it, its depth, the tiles it is entered with and
            # what its parameters receive: computed once per pass (a helper called N times, or a
            # recursive one, stays linear).
            key = (id(func), self.depth, state.tiles, tuple(sorted(given.items())))
            effect = self.run.effects.get(key)
            if effect is None:
                inner = _Flow(self.run, self.depth + 1, func, given)
                effect = inner.block(func.body.body, inner.start(state.tiles)).tiles
                self.run.effects[key] = effect
            return replace(state, tiles=effect)
        mod = self.modules.get(owner)
        if mod is not None and mod.is_stub or owner.startswith(("pypto", "builtins", "typing")):
            return state
        after = self.run.other_effect(func, e, state.tiles, dict(self.call_values.get(id(e), {})))
        return replace(state, tiles=after if after is not None else TileState(UNKNOWN, UNKNOWN))

    def _note_given(self, e: CallExpr, state: _State) -> None:
        node = e.callee.node if isinstance(e.callee, RefExpr) else None
        func = node.func if isinstance(node, Decorator) else node
        if isinstance(func, FuncDef) and "." in func.fullname:  # (another module's: traced from its source)
            mod = self.modules.get(func.fullname.rsplit(".", 1)[0])
            if mod is not None and mod.is_stub and folding.UNREAD is None:
                # A stub has no body to enter (pypto's ops): nothing reads what it is given, but
                # the coverage report, which lists the module constants they would need.
                return
            self.call_values[id(e)] = self._given(e, func, state)

    def _given(self, e: CallExpr, func: FuncDef, state: _State) -> dict[str, Value]:
        """The int and list values of a helper call's arguments, by the helper's parameter names
        (positional and keyword arguments only)."""
        names = [n or "" for n in func.arg_names]  # (a FuncDef from mypy's cache has no arguments)
        given: dict[str, Value] = {}
        for i, (arg, kind, name) in enumerate(zip(e.args, e.arg_kinds, e.arg_names)):
            if kind == ARG_POS and name is None and i < len(names):
                target = names[i]
            elif kind == ARG_NAMED and name in names:
                target = name
            else:
                break  # a spread: positions after it are not known
            value = self.values.value(arg, state.values)
            if value is not None:
                given[target] = value
            else:
                dims = self.values.shape_of(arg)  # a tensor: its dims, for x.dim / x.shape inside
                if dims is not None:
                    given[target + SHAPE] = dims
        return given


def _module_object(callee: Expression) -> str | None:
    """``LAYOUT.forward`` / ``layout.LAYOUT.forward`` on a module-level object: its fullname."""
    receiver = callee.expr if isinstance(callee, MemberExpr) else None
    var = receiver.node if isinstance(receiver, RefExpr) else None
    if isinstance(var, Var) and var.fullname and "." in var.fullname and not var.is_property:
        return var.fullname
    return None


class TileFlowCache:
    """One flow pass per function, kept for its hooks while what it was read from is unchanged:
    the function's body (a new one after each edit, in the daemon too), the constants and helper
    bodies it read. Holds the function so ids stay unique."""

    def __init__(self) -> None:
        self._flows: OrderedDict[int, tuple[FuncDef, Pass, _Flow]] = OrderedDict()

    def _flow(self, module: MypyFile, func: FuncDef, modules: Mapping[str, MypyFile],
              other: OtherTiles | None = None) -> _Flow:
        entry = self._flows.get(id(func))
        if entry is None or entry[0] is not func or not entry[1].still_valid(other):
            run = Pass(module, modules, other)
            kernel = is_kernel(module, func)
            run.read(func, "body")
            run.read(func, "is_decorated")
            # A helper copy checked for one call starts with the caller's tiles and arguments.
            called = kernel_copies.entry(func)
            flow = _Flow(run, 0, func, called.values if called is not None else {})
            tiles = called.tiles if called is not None else KERNEL_ENTRY if kernel else HELPER_ENTRY
            flow.exit = flow.block(func.body.body, flow.start(tiles)).tiles
            run.forget_walk()
            entry = (func, run, flow)
            self._flows[id(func)] = entry
            if len(self._flows) > _CACHE_SIZE:
                self._flows.popitem(last=False)
        else:
            self._flows.move_to_end(id(func))
        return entry[2]

    def states(self, module: MypyFile, func: FuncDef, node: object, modules: Mapping[str, MypyFile],
               other: OtherTiles | None = None) -> tuple[TileState | None, TileState]:
        """The tiles in force at ``node`` (None if the pass did not see it), and after the
        whole body (every path merged); ``other``: the effect of other modules' functions."""
        flow = self._flow(module, func, modules, other)
        return flow.at.get(id(node)), flow.exit

    def transpose_fix(self, module: MypyFile, func: FuncDef, node: object, modules: Mapping[str, MypyFile],
                      other: OtherTiles | None = None) -> str | None:
        return self._flow(module, func, modules, other).transpose_fixes.get(id(node))

    def flow_of(self, module: MypyFile, func: FuncDef, modules: Mapping[str, MypyFile],
                other: OtherTiles | None = None) -> _Flow:
        """The pass over ``func`` (made now if needed): its program order and what kernel.root_causes keeps."""
        return self._flow(module, func, modules, other)

    def call_values(self, module: MypyFile, func: FuncDef, call: object,
                    modules: Mapping[str, MypyFile], other: OtherTiles | None = None) -> dict[str, Value]:
        """The int and list values the parameters of the helper called at ``call`` receive."""
        return self._flow(module, func, modules, other).call_values.get(id(call), {})
