"""mypy hooks for op calls: read the arguments, ask the op table, return the result type.

A hook never decides semantics: :mod:`knowledge.ops` does. Any internal failure degrades
to the declared return type ("some tensor"), never to a traceback (``PYPTO_STUBS_DEBUG=1``
re-raises it instead, see :mod:`debug`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import Decorator
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import AnyType, TupleType, Type, TypeOfAny

from ..bridge import diagnostics
from ..bridge.tensor_types import result_type, tensor_type, tensor_val
from ..calls import call_sites, copy_memo, coverage, op_coverage
from ..debug import degrade
from ..kernel.checks import check_kernel
from ..kernel.decorators import checks_calls, decorated_with
from ..kernel.root_causes import report_grouped
from ..knowledge.checks.out import Write, check_write, is_whole
from ..knowledge.checks.registry import Call, Env, op_checks, recovered, run_checks
from ..knowledge.findings import Finding
from ..knowledge.frontend import KERNEL_DECORATORS
from ..knowledge.members import MISSING
from ..knowledge.ops import ANY, OPS, SCALAR, Op, Result, TensorVal
from . import kernel_calls
from .op_args import CallArgs
from .session import Session


def _result_type(result: Result, default: Type, api: CheckerPluginInterface) -> Type:
    named = api.named_generic_type
    if result is SCALAR:
        return named("pypto.SymbolicScalar", [])
    if result is ANY or result is None:
        return AnyType(TypeOfAny.special_form) if result is ANY else default
    if isinstance(result, tuple):
        items: list[Type] = [result_type(r, api, named) for r in result]
        return TupleType(items, named("builtins.tuple", [AnyType(TypeOfAny.special_form)]))
    assert isinstance(result, TensorVal)
    return result_type(result, api, named)


def _apply(session: Session, op: Op, args: CallArgs, ctx: FunctionContext | MethodContext, label: str) -> Type:
    operator = op.is_operator  # see diagnostics.report(unwatched=...)
    session.read_shape_lists(ctx, args)
    # After an error the result is the row's recovery, so later checks still run.
    result, err = op.infer(args)
    if err is not None:
        # Still run the checks: which error the compiler raises first varies by op (a comparison
        # with no tile fails on the tile before its shapes), so report every one that holds.
        diagnostics.report(ctx.api, err, ctx.context, op=label, unwatched=operator, once=True)
    call: Call | None = None
    if op_checks(op):
        env = session.env(ctx) or session.unknown_env
        moved, out_dtype = session.written_into(ctx)
        retyped = session.retyped_names(ctx) if op.on_dynamic is not None else frozenset()
        call = Call(op.name, op.kind, label, args, env, result, op.tile == "copy" and moved, retyped, out_dtype)
        problems = run_checks(op, call)
        for problem in problems:
            scope = session.cause_scope(ctx) if problem.cause is not None else None
            causes = session.causes(ctx, scope[0]) if scope is not None else None
            if scope is None or causes is None:
                diagnostics.report(ctx.api, problem, ctx.context, op=label, unwatched=operator, once=True)
            else:
                copy_memo.grouped(scope[0])  # (a copy's finding here depends on its caller's check)
                report_grouped(ctx.api, causes, scope[1], problem, ctx.context, op=label, unwatched=operator,
                               where=scope[2])
        result = recovered(problems, result)
    if coverage.active() is not None:
        where = session._where(ctx.api)
        if where is not None:
            call = call or Call(op.name, op.kind, label, args, session.unknown_env, result)
            op_coverage.record(ctx.api, where[1], op, call, args.operand_types(), result, ctx.context)
    return _result_type(result, ctx.default_return_type, ctx.api)


def function_hook(session: Session, op: Op) -> Callable[[FunctionContext], Type]:
    def hook(ctx: FunctionContext) -> Type:
        try:
            return _apply(session, op, CallArgs.of_function(ctx), ctx, op.function_label)
        except Exception as err:  # never crash mypy
            degrade(err)
            return ctx.default_return_type

    return hook


def method_hook(session: Session, op: Op) -> Callable[[MethodContext], Type]:
    label = op.method_label

    def hook(ctx: MethodContext) -> Type:
        try:
            if tensor_val(ctx.type) is None:
                return ctx.default_return_type
            return _apply(session, op, CallArgs.of_method(ctx), ctx, label)
        except Exception as err:
            degrade(err)
            return ctx.default_return_type

    return hook


# ``2.0 == t``, ``0 != t``: mypy types ``float.__eq__`` (it takes any object) as bool, but Python
# gets NotImplemented from it and runs ``t.__eq__(2.0)``: a tensor comparison (and its checks).
REFLECTED_COMPARISONS: Final = {
    f"builtins.{cls}.{dunder}": dunder for cls in ("int", "float") for dunder in ("__eq__", "__ne__")
}


def reflected_comparison_hook(session: Session, op: Op) -> Callable[[MethodContext], Type]:
    label = op.method_label

    def hook(ctx: MethodContext) -> Type:
        try:
            if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1 or tensor_val(ctx.arg_types[0][0]) is None:
                return ctx.default_return_type  # no PyPTO tensor on the right: mypy's own answer
            args = CallArgs.of_reflected(ctx, op.rhs)
            return ctx.default_return_type if args is None else _apply(session, op, args, ctx, label)
        except Exception as err:
            degrade(err)
            return ctx.default_return_type

    return hook


def no_method_hook(name: str) -> Callable[[MethodContext], Type]:
    member = MISSING[name]

    def hook(ctx: MethodContext) -> Type:
        try:
            val = tensor_val(ctx.type)
            receiver = diagnostics.describe(val)
            diagnostics.no_method(ctx.api, name, receiver, ctx.context)
            # Carry on with what torch would give, so one mistake does not hide the next.
            args = CallArgs.of_torch_method(ctx, member.params) if member.torch is not None else None
            if args is not None and member.torch is not None and val is not None:
                try:
                    return _result_type(member.torch(args), ctx.default_return_type, ctx.api)
                except Finding:
                    pass  # the torch call itself is wrong too (an axis out of range): unknown
        except Exception as err:
            degrade(err)
        return ctx.default_return_type

    return hook


def constructor_hook(session: Session) -> Callable[[FunctionContext], Type]:
    return lambda ctx: _constructor(session, ctx)


def _constructor(session: Session, ctx: FunctionContext) -> Type:
    """``pypto.Tensor([8, 64], pypto.DT_FP32)`` as a value: a tensor of that shape (no shape and no
    dtype for a local buffer that a whole write re-types: local_buffers.py)."""
    try:
        if session.is_retyped_buffer(ctx):
            return tensor_type(TensorVal(None, None), ctx.api.named_generic_type)
        args = CallArgs.of_function(ctx)
        dims = args.dims("shape", 0)
        dtype = args.dtype("dtype", 1) if args.given("dtype", 1) else ("DT_FP32" if dims else None)
        shape = tuple(dims) if dims else None
        return tensor_type(TensorVal(shape, dtype), ctx.api.named_generic_type)
    except Exception as err:
        degrade(err)
        return ctx.default_return_type


METHOD_TABLE = {f"pypto.Tensor.{name}": op for name, op in OPS.items()}
FUNCTION_TABLE = {f"pypto.{name}": op for name, op in OPS.items() if not name.startswith("__")}


def decorator_hook(session: Session) -> Callable[[FunctionContext | MethodContext], Type]:
    def hook(ctx: FunctionContext | MethodContext) -> Type:
        """``@pypto.frontend.jit`` / ``@...jit(...)`` / ``@...function``: check the kernel's
        definition, and relax what callers may pass."""
        try:
            check_kernel(ctx.api, ctx.context, session.config)
            if isinstance(ctx.context, Decorator):
                call_sites.kernel_defined(ctx.api, ctx.context)
        except Exception as err:
            degrade(err)
        try:
            jit = isinstance(ctx.context, Decorator) and decorated_with(ctx.context, KERNEL_DECORATORS)
            checked = jit and isinstance(ctx.context, Decorator) and checks_calls(ctx.context)
            return kernel_calls.relaxed(ctx.default_return_type, ctx.api, jit, checked)
        except Exception as err:
            degrade(err)
            return ctx.default_return_type

    return hook


def write_hook(session: Session, kind: str) -> Callable[[MethodContext], Type]:
    """``out[...] = value`` (``__setitem__``) and ``out.move(value)`` into a parameter of the
    function (an output), and ``buf[a:b, ...] = value`` into a local ``pypto.tensor(...)`` buffer.
    (A whole write into a local moves the value there and re-types it: nothing is wrong.)"""

    def hook(ctx: MethodContext) -> Type:
        try:
            dest = tensor_val(ctx.type)
            if dest is None:
                return ctx.default_return_type
            args = CallArgs.of_method(ctx)
            keys = args.index_keys() if kind == "setitem" else None
            region = keys is not None and not is_whole(keys)  # an assemble, not a move
            receiver = args.receiver_expr
            if not (session.is_parameter(ctx, receiver) or region and session.is_local_buffer(ctx, receiver)):
                return ctx.default_return_type
            value = args.tensor("value", 2) if kind == "setitem" else args.tensor("other", 1)
            if value is None:
                return ctx.default_return_type
            if keys is not None and any(k is None for k in keys):
                return ctx.default_return_type
            target = args.source("input", 0) or "the output"
            written = args.text("value", 2) if kind == "setitem" else args.text("other", 1)
            for problem in check_write(Write(dest, keys, value, target, written)):
                diagnostics.report(ctx.api, problem, ctx.context)
        except Exception as err:
            degrade(err)
        return ctx.default_return_type

    return hook
