"""``pypto.set_verify_options(**options)``: a dict of options unpacked into a pypto function.

mypy checks the value type of an unpacked ``dict[str, V]`` against every parameter the dict may
fill, so ``{"enable_pass_verify": True, "pass_verify_save_tensor_dir": "out"}`` (a
``dict[str, object]``, or ``dict[str, bool]`` against a ``str | None`` parameter) is an arg-type
error although 0.2.0 takes it (probed: regression submodule_op_wrapper_and_verify_options_ok). The
parameters such a mapping fills accept Any; the count and the other arguments keep mypy's checks.
A ``TypedDict`` keeps mypy's precise answer. Not for the op functions (their hooks read the
arguments by position, and ops take no option dicts).
"""

from __future__ import annotations

from mypy.nodes import ARG_STAR2, CallExpr
from mypy.plugin import FunctionSigContext
from mypy.types import AnyType, FunctionLike, TypedDictType, TypeOfAny, get_proper_type

from ..debug import degrade


def signature_hook(ctx: FunctionSigContext) -> FunctionLike:
    sig = ctx.default_signature
    try:
        call = ctx.context
        if not isinstance(call, CallExpr) or ARG_STAR2 not in call.arg_kinds:
            return sig
        spread = []
        for arg, kind in zip(call.args, call.arg_kinds):
            if kind == ARG_STAR2:
                with ctx.api.msg.filter_errors():  # reported when mypy checks it
                    t = get_proper_type(ctx.api.get_expression_type(arg))
                if not isinstance(t, TypedDictType):
                    spread.append(arg)
        if not spread:
            return sig
        any_t = AnyType(TypeOfAny.special_form)
        types = [any_t if any(a is s for a in actuals for s in spread) else t
                 for t, actuals in zip(sig.arg_types, ctx.args)]
        return sig.copy_modified(arg_types=types)
    except Exception as err:  # never crash mypy: mypy's own answer
        degrade(err)
        return sig
