"""What one call of a helper pins down of its parameters, for the helper's copy
(:mod:`helpers`): the call's tensors where they say more than the annotations, and the values of
its scalars (passed, or the defaults it leaves), so that the copy skips the branches the trace
skips."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import ARG_NAMED, ARG_OPT, ARG_POS, FuncDef, IntExpr, NameExpr
from mypy.plugin import FunctionContext
from mypy.types import AnyType, CallableType, Instance, LiteralType, Type, TypeOfAny, get_proper_type

from ..bridge.tensor_types import tensor_val
from ..knowledge.values import TensorVal, merge_tensors

_KINDS = (ARG_POS, ARG_OPT, ARG_NAMED)
# An untyped parameter that receives one of these is checked as one (a scalar operand, not Any).
_SCALARS = frozenset({"builtins.int", "builtins.float", "builtins.bool"})
# A parameter declared one of these takes the call's value (its default's) in the copy.
_LITERAL_SCALARS = frozenset({"builtins.int", "builtins.bool"})


def untyped_signature(func: FuncDef, ctx: FunctionContext) -> CallableType | None:
    """The signature of an unannotated function, every parameter ``Any`` (as mypy sees it)."""
    named = getattr(ctx.api, "named_generic_type", None)
    if named is None:
        return None
    untyped = AnyType(TypeOfAny.unannotated)
    return CallableType([untyped] * len(func.arguments), [a.kind for a in func.arguments],
                        [a.variable.name for a in func.arguments], untyped, named("builtins.function", []),
                        definition=func, implicit=True)


def replaced_parameters(typ: CallableType, actuals: list[list[Type]], as_type: Callable[[TensorVal], Type],
                        defaults: list[LiteralType | None]) -> dict[int, Type]:
    """The parameters whose type the call pins down further: a tensor more precise than the
    declared one, any tensor for an untyped parameter, an int, float or bool (with its value,
    when the call's type knows it) for an untyped one, and the value of a bool or int one
    (``quant(x, True, has_smooth=False)``): the copy then skips the branches the trace skips."""
    out: dict[int, Type] = {}
    for i, (declared_type, given) in enumerate(zip(typ.arg_types, actuals)):
        if typ.arg_kinds[i] not in _KINDS:
            continue
        default = defaults[i] if i < len(defaults) else None
        if not given and default is not None and _takes_a_value(declared_type):
            out[i] = default  # not passed: the default's value
            continue
        if len(given) != 1:
            continue
        actual_type = given[0]
        actual = tensor_val(actual_type)
        untyped = isinstance(get_proper_type(declared_type), AnyType)
        value = _literal(actual_type)
        if value is not None and _takes_a_value(declared_type):
            out[i] = value
            continue
        if untyped:
            p = get_proper_type(actual_type)
            if actual is not None or (isinstance(p, Instance) and p.type.fullname in _SCALARS):
                out[i] = actual_type
            continue
        declared = tensor_val(declared_type)
        if declared is None or actual is None:
            continue
        merged = merge_tensors(declared, actual)
        if merged is not None and merged != declared:
            out[i] = as_type(merged)
    return out


def _literal(t: Type) -> LiteralType | None:
    """A bool or int the call's type knows the value of (``True``, ``64``, a Final constant)."""
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.last_known_value is not None:
        p = p.last_known_value
    if isinstance(p, LiteralType) and p.fallback.type.fullname in _LITERAL_SCALARS:
        return p
    return None


def defaults(func: FuncDef, named: Callable[..., Instance]) -> list[LiteralType | None]:
    """Each parameter's default when it is ``True``, ``False`` or an int literal."""
    out: list[LiteralType | None] = []
    for a in func.arguments:
        e = a.initializer
        if isinstance(e, NameExpr) and e.fullname in ("builtins.True", "builtins.False"):
            out.append(LiteralType(e.fullname == "builtins.True", named("builtins.bool", [])))
        elif isinstance(e, IntExpr):
            out.append(LiteralType(e.value, named("builtins.int", [])))
        else:
            out.append(None)
    return out


def _takes_a_value(t: Type) -> bool:
    """A parameter declared ``bool`` or ``int`` (not a literal already, not a union)."""
    p = get_proper_type(t)
    return isinstance(p, Instance) and p.type.fullname in _LITERAL_SCALARS and p.last_known_value is None


def only_values(replaced: dict[int, Type]) -> bool:
    """Nothing but scalars' values pinned down: alone, not worth a copy (the helper's own pass
    already checks both branches with what its annotations say)."""
    return all(isinstance(get_proper_type(t), LiteralType) for t in replaced.values())
