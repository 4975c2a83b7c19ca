"""Python's ``min`` / ``max`` on PyPTO tensors (rule: builtin-min-max).

``max(a, b)`` compares with ``>``, whose result on tensors is a tensor, always true: 0.2.0
compiles the kernel and the call returns one argument whole. mypy rejects the call with a
``call-overload`` error that does not say so, and calls no hook for a call whose overloads all
fail; the signature hook runs before the overloads are matched, so the finding is reported there
and the call is given a signature that takes it (its result is unknown: nothing is guessed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import (
    ARG_POS, CallExpr, Expression, FloatExpr, IndexExpr, IntExpr, MemberExpr, NameExpr, OpExpr, UnaryExpr,
)
from mypy.plugin import FunctionSigContext
from mypy.types import AnyType, CallableType, FunctionLike, Instance, Type, TypeOfAny, get_proper_type

from ..bridge.diagnostics import report
from ..bridge.expr_text import expr_text
from ..bridge.tensor_types import is_tensor
from ..debug import degrade
from ..knowledge.codes.op_codes import BUILTIN_MINMAX
from ..knowledge.findings import Finding

SYMBOLIC_SCALAR: Final = "pypto.SymbolicScalar"
NAMES: Final = {"builtins.min": "minimum", "builtins.max": "maximum"}


def _nested(op: str, texts: list[str]) -> str:
    """``pypto.maximum(pypto.maximum(a, b), c)`` for ``max(a, b, c)``."""
    out = texts[0]
    for t in texts[1:]:
        out = f"pypto.{op}({out}, {t})"
    return out


def _plain(e: Expression) -> bool:
    """Names, attributes, subscripts, numbers, operators and calls of those: expressions whose type
    does not depend on a type context, so asking for it early changes no answer."""
    if isinstance(e, (NameExpr, IntExpr, FloatExpr)):
        return True
    if isinstance(e, MemberExpr):
        return _plain(e.expr)
    if isinstance(e, IndexExpr):
        return _plain(e.base) and _plain(e.index)
    if isinstance(e, UnaryExpr):
        return _plain(e.expr)
    if isinstance(e, OpExpr):
        return _plain(e.left) and _plain(e.right)
    if isinstance(e, CallExpr):
        return _plain(e.callee) and all(_plain(a) for a in e.args)
    return False


def _types(ctx: FunctionSigContext, args: list[Expression]) -> list[Type]:
    with ctx.api.msg.filter_errors():  # mypy reports the arguments' own errors when it checks them
        return [ctx.api.get_expression_type(a) for a in args]


def _symbolic(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, Instance) and p.type.fullname == SYMBOLIC_SCALAR


def _any_signature(sig: CallableType, n: int) -> CallableType:
    """Takes the call's ``n`` arguments, result unknown."""
    any_type = AnyType(TypeOfAny.special_form)
    return sig.copy_modified(arg_types=[any_type] * n, arg_kinds=[ARG_POS] * n, arg_names=[None] * n,
                             ret_type=any_type, variables=[])


def signature_hook(fullname: str) -> Callable[[FunctionSigContext], FunctionLike]:
    op = NAMES[fullname]
    name = fullname.rsplit(".", 1)[1]

    def hook(ctx: FunctionSigContext) -> FunctionLike:
        call = ctx.context
        try:
            if not isinstance(call, CallExpr) or len(call.args) < 2 or any(k != ARG_POS for k in call.arg_kinds) \
                    or not all(_plain(a) for a in call.args):
                return ctx.default_signature
            types = _types(ctx, call.args)
            if any(_symbolic(t) for t in types):
                # a SymbolicScalar: min() asks for its value, which a loop index or a dynamic dim has
                # not while the kernel is traced (kernel/dims.py reports those); a value from
                # pypto.min(16, 32) has one. Either way the result is not typeshed's protocol.
                return _any_signature(ctx.default_signature, len(call.args))
            if not all(is_tensor(t) for t in types):
                return ctx.default_signature
            texts = [expr_text(a) for a in call.args]
            if all(t is not None for t in texts):
                known = [t for t in texts if t is not None]
                fix = f"use the elementwise op: {_nested(op, known)}"
                last = f" ({known[-1]} here)"
            else:
                fix, last = f"use the elementwise op pypto.{op}(a, b)", ""
            report(ctx.api, Finding(
                BUILTIN_MINMAX,
                f"Python's {name}() on PyPTO tensors compares them with {'>' if name == 'max' else '<'}, whose "
                f"tensor result is always true: 0.2.0 compiles it and the call returns one argument whole"
                f"{last}; no elementwise {name} is computed",
                fix,
            ), call, once=True)
            return _any_signature(ctx.default_signature, len(call.args))
        except Exception as err:  # never crash mypy: the default signature (mypy's own answer)
            degrade(err)
            return ctx.default_signature

    return hook
