"""What the hooks share for one mypy run (:class:`Session`): the options, the tile-flow cache, and
per call the tiles in force, the local buffers and the scope of kernel.root_causes."""

from __future__ import annotations

from mypy.nodes import FuncDef, MypyFile, NameExpr
from mypy.plugin import AttributeContext, FunctionContext, MethodContext

from ..calls import copy_memo
from ..calls.other_tiles import OtherModules
from ..config import PluginConfig
from ..kernel import copies as kernel_copies
from ..kernel.local_buffers import LocalBuffers
from ..kernel.tile_flow import TileFlowCache
from ..knowledge.checks.registry import Env
from ..knowledge.tiles import NOT_SET, UNKNOWN, TileState
from .op_args import CallArgs


class Session:
    """What the hooks share for one mypy run: the options and the tile-flow cache."""

    def __init__(self, config: PluginConfig) -> None:
        self.config = config
        self.tiles = TileFlowCache()
        # Outside a function (or where mypy hides it) the tiles are unknown: tile checks stay silent.
        self._envs: dict[tuple[TileState, bool], Env] = {}
        self.unknown_env = Env(UNKNOWN, UNKNOWN, config.has_reduce_align_rule, config.reduce_align_fallback,
                               dynamic_dim_rule=config.has_dynamic_dim_rules)
        self._buffers: LocalBuffers | None = None

    @staticmethod
    def _where(api: object) -> tuple[MypyFile, FuncDef, dict[str, MypyFile]] | None:
        """The module and function being checked (TypeChecker internals; None if they move)."""
        scope = getattr(api, "scope", None)
        module = getattr(api, "tree", None)
        func = scope.current_function() if scope is not None else None
        if not isinstance(func, FuncDef) or not isinstance(module, MypyFile):
            return None
        return module, func, getattr(api, "modules", {})

    def is_parameter(self, ctx: MethodContext, expr: object) -> bool:
        """Is ``expr`` a parameter of the function being checked?"""
        where = self._where(ctx.api)
        if where is None or not isinstance(expr, NameExpr):
            return False
        return any(arg.variable is expr.node for arg in where[1].arguments)

    def is_local_buffer(self, ctx: MethodContext, expr: object) -> bool:
        """Is ``expr`` a local of the function every assignment of which is a ``pypto.*`` call?"""
        if not isinstance(expr, NameExpr) or self.is_parameter(ctx, expr):
            return False
        buffers = self._local_buffers(ctx)
        return buffers is not None and buffers.outputs.tensor(expr) is not None

    def _local_buffers(self, ctx: FunctionContext | MethodContext) -> LocalBuffers | None:
        where = self._where(ctx.api)
        if where is None:
            return None
        if self._buffers is None or self._buffers.func is not where[1]:
            self._buffers = LocalBuffers(where[1])  # the last function's: hooks come one function at a time
        return self._buffers

    def read_shape_lists(self, ctx: FunctionContext | MethodContext, args: CallArgs) -> None:
        buffers = self._local_buffers(ctx)
        if buffers is not None:
            args.lists = buffers.shape_lists
            args.linear = buffers  # its linear_names, made at the first slice that needs them
            args.numbers = buffers  # its local_numbers, made at the first operand mypy types Any
            args.loops = buffers  # its loop_defs, made at the first operand mypy types as a union

    def retyped_names(self, ctx: FunctionContext | MethodContext) -> frozenset[str]:
        """Names a whole write (``p[:] = x``, ``p.move(x)``) re-types somewhere in this function."""
        buffers = self._local_buffers(ctx)
        return frozenset(buffers.retyped) if buffers is not None else frozenset()

    def is_retyped_buffer(self, ctx: FunctionContext) -> bool:
        buffers = self._local_buffers(ctx)
        return buffers is not None and buffers.is_retyped(ctx.context)

    def written_into(self, ctx: FunctionContext | MethodContext) -> tuple[bool, str | None]:
        """Is the call's result moved whole into an output; the dtype of the output it is stored in."""
        buffers = self._local_buffers(ctx)
        return (False, None) if buffers is None else (
            buffers.moved_into_output(ctx.context), buffers.output_dtype(ctx.context))

    def transpose_fix(self, ctx: AttributeContext) -> str | None:
        where = self._where(ctx.api)
        if where is None:
            return None
        module, func, modules = where
        return self.tiles.transpose_fix(module, func, ctx.context, modules, OtherModules(ctx.api))

    def _tiles_at(self, ctx: FunctionContext | MethodContext) -> tuple[TileState, bool, FuncDef] | None:
        """The tiles in force at this call, whether the kernel sets a vec tile anywhere (a helper
        checked for one call: the kernel's answer too), and the function being checked."""
        where = self._where(ctx.api)
        if where is None:
            return None
        module, func, modules = where
        state, exit_state = self.tiles.states(module, func, ctx.context, modules, OtherModules(ctx.api))
        if state is None:
            return None
        called = kernel_copies.entry(func)
        return state, exit_state.vec is not NOT_SET or (called is not None and called.vec_set_in_kernel), func

    def helper_entry(self, ctx: FunctionContext) -> kernel_copies.Entry | None:
        """What a helper called here is entered with: the tiles in force at the call, whether the
        kernel sets a vec tile anywhere, and the values its parameters receive."""
        at = self._tiles_at(ctx)
        where = self._where(ctx.api)
        if at is None or where is None:
            return None
        state, vec_set, func = at
        copy_memo.entry_read()  # what the helper is entered with comes from this copy's entry
        values = self.tiles.call_values(where[0], func, ctx.context, where[2], OtherModules(ctx.api))
        scope = self.cause_scope(ctx)
        check_root, path = (scope[0], scope[1]) if scope is not None else (None, ())
        return kernel_copies.Entry(state, vec_set, values, kernel_copies.root(func), check_root, path)

    def cause_scope(self, ctx: FunctionContext | MethodContext) -> tuple[FuncDef, tuple[int, ...], str] | None:
        """For kernel.root_causes: the function whose check this call is part of, the call's
        position in that check's program order, and how a note names where it is."""
        where = self._where(ctx.api)
        if where is None:
            return None
        module, func, modules = where
        order = self.tiles.flow_of(module, func, modules, OtherModules(ctx.api)).order.get(id(ctx.context))
        if order is None:
            return None
        called = kernel_copies.entry(func)
        if called is not None and called.check_root is not None:
            return called.check_root, (*called.path, order), f"line {ctx.context.line}, in {func.name}"
        return func, (order,), f"line {ctx.context.line}"

    def causes(self, ctx: FunctionContext | MethodContext, root: FuncDef) -> dict[str, object] | None:
        where = self._where(ctx.api)
        return None if where is None else self.tiles.flow_of(where[0], root, where[2], OtherModules(ctx.api)).causes

    def env(self, ctx: FunctionContext | MethodContext) -> Env | None:
        """Tiles in force at this call, or None outside a function (or if mypy hides it)."""
        at = self._tiles_at(ctx)
        if at is None:
            return None
        key = (at[0], at[1])
        state = at[0]
        env = self._envs.get(key)
        if env is None:  # a handful of distinct tile states per run: build each Env once
            if len(self._envs) > 1024:
                self._envs.clear()
            env = self._envs[key] = Env(state.vec, state.cube, self.config.has_reduce_align_rule,
                                        self.config.reduce_align_fallback, vec_set_in_kernel=key[1],
                                        dynamic_dim_rule=self.config.has_dynamic_dim_rules)
        return copy_memo.watched(env)
