"""Python builtins and ``math`` functions of values the source proves (``range``, ``len``,
``enumerate``, ``zip``, ``list``, ``math.sqrt`` ...), as Python computes them."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Sequence
from typing import Final

from .values import UNKNOWN, ListVal, Raised, Value

MAX_ITEMS: Final = 16  # sequences walked item by item (ranges here, loops in evaluate)

FLOAT_OPS: Final[dict[type, Callable[[float, float], float]]] = {
    ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,
    ast.Div: lambda x, y: x / y,
}
# math functions of known numbers, as Python computes them.
_MATH: Final[dict[str, Callable[..., int | float]]] = {
    "sqrt": math.sqrt, "ceil": math.ceil, "floor": math.floor, "log2": math.log2, "exp": math.exp,
    "log": math.log, "pow": math.pow, "gcd": math.gcd, "isqrt": math.isqrt,
}


def math_call(name: str, args: Sequence[Value]) -> Value:
    items = args[0] if name == "prod" and len(args) == 1 and isinstance(args[0], tuple) else args
    nums = [a for a in items if isinstance(a, (int, float)) and not isinstance(a, bool)]
    if not nums or len(nums) != len(items):
        return UNKNOWN
    try:
        return math.prod(nums) if name == "prod" else _MATH[name](*nums) if name in _MATH else UNKNOWN
    except (ValueError, OverflowError, TypeError):  # a domain error, or a float where an int is needed
        return UNKNOWN


def builtin(name: str, args: Sequence[Value], kwargs: dict[str, Value] | None = None) -> Value:
    if kwargs and not (name == "enumerate" and set(kwargs) == {"start"}):
        return UNKNOWN
    if name == "enumerate" and args and isinstance(args[0], tuple) and len(args) <= 2:
        start = args[1] if len(args) == 2 else (kwargs or {}).get("start", 0)
        if type(start) is not int or len(args[0]) > MAX_ITEMS:
            return UNKNOWN
        return tuple((start + i, v) for i, v in enumerate(args[0]))
    if name == "zip" and args and all(isinstance(a, tuple) for a in args):
        return tuple(zip(*[a for a in args if isinstance(a, tuple)]))
    if name == "list" and len(args) == 1 and isinstance(args[0], tuple):
        return ListVal(args[0])  # a new list
    if name == "tuple" and len(args) == 1 and isinstance(args[0], tuple):
        return tuple(args[0])
    if name == "int" and len(args) == 1 and type(args[0]) is int:
        return args[0]
    if name == "len" and len(args) == 1 and isinstance(args[0], tuple):
        return len(args[0])
    if name in ("max", "min") and args and all(type(a) is int for a in args):
        ints = [a for a in args if type(a) is int]
        return max(ints) if name == "max" else min(ints)
    if name == "range" and all(type(a) is int for a in args) and 1 <= len(args) <= 3:
        bounds = [a for a in args if type(a) is int]
        if len(bounds) == 3 and bounds[2] == 0:
            raise Raised("ValueError")  # Python's ``range() arg 3 must not be zero``
        values = range(*bounds)
        return tuple(values) if len(values) <= MAX_ITEMS else UNKNOWN
    return UNKNOWN
