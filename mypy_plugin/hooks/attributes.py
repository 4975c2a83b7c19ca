"""The attribute hooks: ``x.T`` (PyPTO has none: reported, then torch's meaning), members PyPTO
lacks read as attributes (``x.ndim``), ``x.shape`` and ``x.dtype``."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import MemberExpr
from mypy.plugin import AttributeContext
from mypy.types import Type

from ..bridge import diagnostics
from ..bridge.expr_text import expr_text
from ..bridge.tensor_types import DIM, dtype_type, tensor_type, tensor_val
from ..debug import degrade
from ..knowledge.members import torch_transpose
from ..knowledge.shapes import is_dynamic
from .session import Session


def attribute_no_method_hook(name: str) -> Callable[[AttributeContext], Type]:
    def hook(ctx: AttributeContext) -> Type:
        try:
            if isinstance(ctx.context, MemberExpr):
                val = tensor_val(ctx.type)
                receiver = diagnostics.describe(val)
                diagnostics.no_method(ctx.api, name, receiver, ctx.context)
        except Exception as err:
            degrade(err)
        return ctx.default_attr_type

    return hook


def transpose_attribute_hook(session: Session) -> Callable[[AttributeContext], Type]:
    def hook(ctx: AttributeContext) -> Type:
        try:
            if isinstance(ctx.context, MemberExpr):
                val = tensor_val(ctx.type)
                receiver = diagnostics.describe(val)
                rank = None if val is None or val.shape is None else len(val.shape)
                expr = expr_text(ctx.context.expr)  # (h * 2.0).T: the note names h * 2.0, not a parameter
                fix = session.transpose_fix(ctx)
                if fix is not None:
                    fix = fix.replace("{dtype}", val.dtype if val is not None and val.dtype else "out_dtype")
                diagnostics.transpose_attr(ctx.api, receiver, expr, rank, fix, ctx.context)
                if val is not None:
                    # Carry on with torch's meaning, so one mistake does not cascade.
                    return tensor_type(torch_transpose(val), ctx.api.named_generic_type)
        except Exception as err:
            degrade(err)
        return ctx.default_attr_type

    return hook


def shape_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.shape``: ints when every dim is static (closure dims too: they are ints at run time);
    otherwise ``pypto._Dim`` items (a DYNAMIC dim is a SymbolicScalar, an unknown one either):
    an int and a SymbolicScalar for mypy, and not ``Any``, so that ``t * x.shape[0]`` still
    reaches the operator's hook (mypy gives up on an operator with an ``Any`` operand)."""
    try:
        val = tensor_val(ctx.type)
        if val is None:
            return ctx.default_attr_type
        named = ctx.api.named_generic_type
        static = val.shape is not None and all(d is not None and not is_dynamic(d) for d in val.shape)
        item: Type = named("builtins.int", []) if static else named(DIM, [])
        return named("builtins.list", [item])
    except Exception as err:
        degrade(err)
        return ctx.default_attr_type


def dtype_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.dtype``: the dtype's own marker type when the tensor's dtype is known (a subclass of
    ``DataType``), so that ``out_dtype=x.dtype`` and ``pypto.cast(y, x.dtype)`` carry it."""
    try:
        val = tensor_val(ctx.type)
        if val is None or val.dtype is None:
            return ctx.default_attr_type
        return dtype_type(val.dtype, ctx.api.named_generic_type)
    except Exception as err:
        degrade(err)
        return ctx.default_attr_type
