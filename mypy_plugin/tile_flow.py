"""Which tiles are in force at each op of a function: one pass over its body, in program order.

Branches merge (different values become UNKNOWN), loop bodies are walked with the state
they may be entered with on a later iteration, and calls to helpers of the same module that
set tiles apply the helper's effect. A call into another (non-stub) module may set tiles we
cannot see consistently in incremental runs, so it makes the state UNKNOWN.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Final

from mypy.nodes import (
    ARG_STAR,
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    RefExpr,
    Statement,
    TupleExpr,
    Var,
)

from mypy.types import TupleType, Type, get_proper_type

from .body_walk import body_expressions, child_exprs
from .expr_text import expr_text
from .folding import int_of_expr, int_of_type
from .kernels import is_kernel
from .program_order import ProgramOrder
from .knowledge.tiles import HELPER_ENTRY, KERNEL_ENTRY, UNKNOWN, TileState

SET_VEC: Final = "pypto.set_vec_tile_shapes"
SET_CUBE: Final = "pypto.set_cube_tile_shapes"
_MAX_HELPER_DEPTH: Final = 3

_CACHE_SIZE: Final = 512


class _Pass:
    """What one analysis of a function shares across the helpers it walks into: what the
    result was read from (to know when it is stale) and each helper's effect, computed once."""

    def __init__(self, module: MypyFile, modules: Mapping[str, MypyFile]) -> None:
        self.module = module
        self.modules = modules
        # (object, attribute, value read): the result holds while every one is unchanged. In the
        # daemon a function keeps its FuncDef across edits (mypy merges the new tree into the
        # old nodes) and a constant in another module keeps its Var, with a new value.
        self.inputs: dict[tuple[int, str], tuple[object, object]] = {}
        self.effects: dict[tuple[int, int, TileState], TileState] = {}
        self.setters: dict[int, bool] = {}

    def read(self, obj: object, attr: str) -> object:
        value = getattr(obj, attr)
        self.inputs.setdefault((id(obj), attr), (obj, value))
        return value

    def sets_tiles(self, func: FuncDef) -> bool:
        self.read(func, "body")
        found = self.setters.get(id(func))
        if found is None:
            found = self.setters[id(func)] = _sets_tiles(func)
        return found

    def still_valid(self) -> bool:
        return all(_same(getattr(obj, attr, None), value) for (_, attr), (obj, value) in self.inputs.items())


def _same(a: object, b: object) -> bool:
    return a is b or (type(a) is int and type(b) is int and a == b)


class _Flow(ProgramOrder[TileState]):
    def __init__(self, run: _Pass, depth: int) -> None:
        self.run = run
        self.module = run.module
        self.modules = run.modules
        self.depth = depth
        self.at: dict[int, TileState] = {}
        self.exit: TileState = HELPER_ENTRY  # after the whole body; set by TileFlowCache
        # id(``x.T`` node) -> the matmul call that avoids it, with {dtype} for the receiver's dtype
        self.transpose_fixes: dict[int, str] = {}

    # --- values -------------------------------------------------------------------
    def _int(self, e: Expression) -> int | None:
        return int_of_expr(e, self.run.read)  # read through the pass: what the cache depends on

    def _ints(self, e: Expression) -> tuple[int | None, ...] | None:
        if isinstance(e, (ListExpr, TupleExpr)):
            return tuple(self._int(i) for i in e.items)
        if isinstance(e, RefExpr) and isinstance(e.node, Var):
            # ``VEC: Final = (8, 4)`` and the rewrite's ``VEC: _PyptoStubsConstTuple[8, 4] = (8, 4)``
            # have the type tuple[Literal[8]?, Literal[4]?].
            declared = self.run.read(e.node, "type")
            t = get_proper_type(declared) if isinstance(declared, Type) else None
            if isinstance(t, TupleType):
                ints = tuple(int_of_type(i) for i in t.items)
                if e.node.is_final or None not in ints:
                    return ints
        return None

    def _vec(self, call: CallExpr) -> TileState | None:
        dims: list[int | None] = []
        for arg, kind in zip(call.args, call.arg_kinds):
            if kind == ARG_STAR:
                spread = self._ints(arg)
                if spread is None:
                    return None
                dims.extend(spread)
            else:
                dims.append(self._int(arg))
        return TileState(tuple(dims), UNKNOWN)

    def _cube(self, call: CallExpr) -> tuple[tuple[int | None, ...], ...] | None:
        if len(call.args) < 3 or any(k == ARG_STAR for k in call.arg_kinds[:3]):
            return None
        parts = [self._ints(a) for a in call.args[:3]]
        if any(p is None for p in parts):
            return None
        return tuple(p for p in parts if p is not None)

    # --- walking (control flow is ProgramOrder's) -----------------------------------
    def join(self, a: TileState, b: TileState) -> TileState:
        return a.join(b)

    def simple(self, s: Statement, state: TileState) -> TileState:
        for e in child_exprs(s):
            state = self.expr(e, state)
        return state

    def expr(self, e: Expression | None, state: TileState) -> TileState:
        if e is None:
            return state
        if isinstance(e, (CallExpr, OpExpr)):
            self._note_transposed_operands(e)
        if isinstance(e, CallExpr):
            state = self.expr(e.callee, state) if not isinstance(e.callee, RefExpr) else state
            for a in e.args:
                state = self.expr(a, state)
            self.at[id(e)] = state
            return self.call(e, state)
        for child in child_exprs(e):
            state = self.expr(child, state)
        self.at[id(e)] = state
        return state

    def _note_transposed_operands(self, e: CallExpr | OpExpr) -> None:
        """``pypto.matmul(a, b.T, dt)`` / ``a.matmul(b.T, dt)`` / ``a @ b.T``: the fix is a flag."""
        if isinstance(e, OpExpr):
            if e.op != "@":
                return
            lhs, rhs, out, flags = e.left, e.right, "pypto.{dtype}", {"a_trans": False, "b_trans": False}
        else:
            callee = e.callee
            if isinstance(callee, RefExpr) and callee.fullname == "pypto.matmul" and len(e.args) >= 2:
                lhs, rhs = e.args[0], e.args[1]
                rest = e.args[2:]
            elif isinstance(callee, MemberExpr) and callee.name == "matmul" and e.args:
                lhs, rhs = callee.expr, e.args[0]
                rest = e.args[1:]
            else:
                return
            out = "out_dtype"
            flags = {"a_trans": False, "b_trans": False}
            for arg, name in zip(rest, e.arg_names[len(e.args) - len(rest):]):
                if name in flags and isinstance(arg, NameExpr) and arg.fullname in ("builtins.True", "builtins.False"):
                    flags[name] = arg.fullname == "builtins.True"
                elif name is None or name == "out_dtype":
                    out = expr_text(arg) or out
        for operand, flag in ((lhs, "a_trans"), (rhs, "b_trans")):
            if isinstance(operand, MemberExpr) and operand.name == "T":
                new = dict(flags)
                new[flag] = not flags[flag]
                # The operands as written ((h * 2.0).T gives h * 2.0); one it cannot spell: no
                # matmul note (the attribute hook's own note names pypto.transpose and the flags).
                left = expr_text(lhs.expr if operand is lhs and isinstance(lhs, MemberExpr) else lhs)
                right = expr_text(rhs.expr if operand is rhs and isinstance(rhs, MemberExpr) else rhs)
                if left is None or right is None:
                    continue
                extra = "".join(f", {k}=True" for k, v in new.items() if v)
                self.transpose_fixes[id(operand)] = f"pypto.matmul({left}, {right}, {out}{extra})"

    def call(self, e: CallExpr, state: TileState) -> TileState:
        callee = e.callee
        if isinstance(callee, MemberExpr) and not isinstance(callee.expr, (NameExpr, MemberExpr)):
            return state
        if not isinstance(callee, RefExpr):
            return state
        if callee.fullname == SET_VEC:
            new = self._vec(e)
            return TileState(new.vec if new else UNKNOWN, state.cube)
        if callee.fullname == SET_CUBE:
            cube = self._cube(e)
            return TileState(state.vec, cube if cube is not None else UNKNOWN)
        node = callee.node
        func = node.func if isinstance(node, Decorator) else node
        if not isinstance(func, FuncDef):
            return state
        owner = func.fullname.rsplit(".", 1)[0] if "." in func.fullname else ""
        if func.fullname.startswith(f"{self.module.fullname}."):
            if not self.run.sets_tiles(func):
                return state
            if self.depth >= _MAX_HELPER_DEPTH:
                return TileState(UNKNOWN, UNKNOWN)
            # A helper's effect depends only on it, its depth and the tiles it is entered with:
            # computed once per pass (a helper called N times, or a recursive one, stays linear).
            key = (id(func), self.depth, state)
            effect = self.run.effects.get(key)
            if effect is None:
                effect = _Flow(self.run, self.depth + 1).block(func.body.body, state)
                self.run.effects[key] = effect
            return effect
        mod = self.modules.get(owner)
        if mod is not None and mod.is_stub or owner.startswith(("pypto", "builtins", "typing")):
            return state
        return TileState(UNKNOWN, UNKNOWN)


def _sets_tiles(func: FuncDef) -> bool:
    """Does the helper's own body call a tile setter (one level; deeper calls count as unknown)?"""
    return any(
        isinstance(e, CallExpr) and isinstance(e.callee, RefExpr) and e.callee.fullname in (SET_VEC, SET_CUBE)
        for e in body_expressions(func.body.body)
    )


class TileFlowCache:
    """One flow pass per function, kept for its hooks while what it was read from is unchanged:
    the function's body (a new one after each edit, in the daemon too), the constants and helper
    bodies it read. Holds the function so ids stay unique."""

    def __init__(self) -> None:
        self._flows: OrderedDict[int, tuple[FuncDef, _Pass, _Flow]] = OrderedDict()

    def _flow(self, module: MypyFile, func: FuncDef, modules: Mapping[str, MypyFile]) -> _Flow:
        entry = self._flows.get(id(func))
        if entry is None or entry[0] is not func or not entry[1].still_valid():
            run = _Pass(module, modules)
            kernel = is_kernel(module, func)
            run.read(func, "body")
            run.read(func, "is_decorated")
            flow = _Flow(run, 0)
            flow.exit = flow.block(func.body.body, KERNEL_ENTRY if kernel else HELPER_ENTRY)
            run.effects.clear()  # only needed while walking
            run.setters.clear()
            entry = (func, run, flow)
            self._flows[id(func)] = entry
            if len(self._flows) > _CACHE_SIZE:
                self._flows.popitem(last=False)
        else:
            self._flows.move_to_end(id(func))
        return entry[2]

    def states(self, module: MypyFile, func: FuncDef, node: object,
               modules: Mapping[str, MypyFile]) -> tuple[TileState | None, TileState]:
        """The tiles in force at ``node`` (None if the pass did not see it), and after the
        whole body (every path merged)."""
        flow = self._flow(module, func, modules)
        return flow.at.get(id(node)), flow.exit

    def transpose_fix(self, module: MypyFile, func: FuncDef, node: object, modules: Mapping[str, MypyFile]) -> str | None:
        return self._flow(module, func, modules).transpose_fixes.get(id(node))
