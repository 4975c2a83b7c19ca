"""``pypto.max`` / ``pypto.min`` take two SymbolicScalars (the tensor forms are
``pypto.maximum`` / ``pypto.minimum``). Given a tensor, mypy reports the argument, and 0.2.0
fails there too; the declared ``SymbolicScalar`` result would then meet the next op as a second,
follow-on error of the same mistake. The result of such a call is unknown instead."""

from __future__ import annotations

from typing import Final

from mypy.plugin import FunctionContext
from mypy.types import AnyType, Type, TypeOfAny

from ..bridge.tensor_types import is_tensor
from ..debug import degrade

NAMES: Final = frozenset({"pypto.max", "pypto.min"})


def hook(ctx: FunctionContext) -> Type:
    try:
        if any(is_tensor(t) for types in ctx.arg_types for t in types):
            return AnyType(TypeOfAny.from_error)
    except Exception as err:  # never crash mypy
        degrade(err)
    return ctx.default_return_type
