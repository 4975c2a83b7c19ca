"""Host expressions as far as the source proves them (literals, arithmetic, torch calls and tensor
methods, pypto dtype names); the statement walker in :mod:`evaluate` builds on it."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Sequence
from types import EllipsisType
from typing import Final

from ..knowledge.arith import AST_OPS, fold
from . import tensor_data, torch_ops
from .values import DTYPES, UNKNOWN, DType, HostTensor, PyptoDType, Value, fresh

MAX_ITEMS: Final = 16  # sequences walked item by item (ranges here, loops in evaluate)
# An f-string with a part the source does not prove: still a str (``t.to(f"npu:{i}")`` is a device).
SOME_STR: Final = "<str>"

Env = dict[str, Value]


class ExpressionEvaluator:
    """The imported names it reads are filled in by the subclass's module scan."""

    _torch: dict[str, str]  # local name -> "torch" / "torch.randn"
    _math: dict[str, str]  # local name -> "math" / "math.sqrt"
    _pypto: set[str]  # local names of the pypto module
    _pypto_dtypes: dict[str, str]  # ``from pypto import DT_FP16 as h``
    _default_float: DType | None

    def _factory_name(self, callee: ast.expr, env: Env) -> str | None:
        """A call of a kernel factory (see :class:`evaluate.HostEvaluator`)."""
        return None

    def _factory(self, name: str, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
        return UNKNOWN

    def _qualname(self, node: ast.expr) -> str | None:
        """``th.randn`` -> "torch.randn" when ``th`` is torch; None for anything else."""
        if isinstance(node, ast.Name):
            return self._torch.get(node.id)
        if isinstance(node, ast.Attribute):
            head = self._qualname(node.value)
            return None if head is None else f"{head}.{node.attr}"
        return None

    def _expr(self, node: ast.expr, env: Env) -> Value:
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, (int, float, bool, str)) or node.value is None else UNKNOWN
        if isinstance(node, ast.Name):
            if node.id in self._torch:
                return DTYPES.get(self._torch[node.id], UNKNOWN)
            if node.id in self._pypto_dtypes and node.id not in env:
                return PyptoDType(self._pypto_dtypes[node.id])
            return env.get(node.id, UNKNOWN)
        if isinstance(node, (ast.Tuple, ast.List)):
            items: list[Value] = []
            for elt in node.elts:
                if isinstance(elt, ast.Starred):
                    inner = self._expr(elt.value, env)
                    if not isinstance(inner, tuple):
                        return UNKNOWN
                    items.extend(inner)
                else:
                    items.append(self._expr(elt, env))
            return tuple(items)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self._expr(node.operand, env)
            if isinstance(v, HostTensor):
                return fresh(v.shape, v.dtype)
            return -v if type(v) in (int, float) else UNKNOWN  # type: ignore[operator]
        if isinstance(node, ast.BinOp):
            return self._binop(node, env)
        if isinstance(node, ast.Attribute):
            return self._attribute(node, env)
        if isinstance(node, ast.Subscript):
            return self._subscript(node, env)
        if isinstance(node, ast.Call):
            return self._call(node, env)
        if isinstance(node, ast.JoinedStr):
            parts = [self._expr(v.value, env) if isinstance(v, ast.FormattedValue) else self._expr(v, env)
                     for v in node.values]
            known = all(type(p) in (str, int) for p in parts) and not any(isinstance(v, ast.FormattedValue) and (
                v.conversion != -1 or v.format_spec is not None) for v in node.values)
            return "".join(str(p) for p in parts) if known else SOME_STR
        return UNKNOWN

    def _binop(self, node: ast.BinOp, env: Env) -> Value:
        a, b = self._expr(node.left, env), self._expr(node.right, env)
        op = AST_OPS.get(type(node.op))
        if type(a) is int and type(b) is int and op is not None:
            folded = fold(op, a, b)
            return UNKNOWN if folded is None else folded
        if isinstance(a, HostTensor) or isinstance(b, HostTensor):
            return torch_ops.arithmetic(a, b, type(node.op) is ast.Div, self._default_float)
        if (isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool)
                and not isinstance(b, bool) and type(node.op) in _FLOAT_OPS):
            # a float on either side, or a true division: Python's float arithmetic
            return UNKNOWN if type(node.op) is ast.Div and b == 0 else _FLOAT_OPS[type(node.op)](a, b)
        if isinstance(a, tuple) and isinstance(b, tuple) and op == "+":
            return a + b
        if isinstance(a, tuple) and type(b) is int and op == "*" and 0 <= b <= 64:
            return a * b
        if type(a) is int and isinstance(b, tuple) and op == "*" and 0 <= a <= 64:
            return a * b
        return UNKNOWN

    def _attribute(self, node: ast.Attribute, env: Env) -> Value:
        qual = self._qualname(node)
        if qual is not None:
            return DTYPES.get(qual, UNKNOWN)
        if isinstance(node.value, ast.Name) and node.value.id in self._pypto and node.attr.startswith("DT_"):
            return PyptoDType(node.attr)
        base = self._expr(node.value, env)
        if isinstance(base, HostTensor):
            if node.attr == "shape":
                return base.shape if base.shape is not None else UNKNOWN
            if node.attr == "dtype":
                return base.dtype if base.dtype is not None else UNKNOWN
            if node.attr in ("T", "mT") and (node.attr == "T" or base.shape is not None and len(base.shape) == 2):
                return torch_ops.transpose_attr(base)
            if node.attr == "ndim" and base.shape is not None:
                return len(base.shape)
        return UNKNOWN

    def _subscript(self, node: ast.Subscript, env: Env) -> Value:
        base = self._expr(node.value, env)
        raw = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        items: list[Value | slice | EllipsisType] = []
        for item in raw:
            if isinstance(item, ast.Constant) and item.value is Ellipsis:
                items.append(...)  # ``t[..., ::2]``: torch_ops.index spreads it
            elif isinstance(item, ast.Slice):
                parts = [None if p is None else self._expr(p, env) for p in (item.lower, item.upper, item.step)]
                if any(p is UNKNOWN for p in parts):
                    return UNKNOWN if not isinstance(base, HostTensor) else HostTensor(None, base.dtype, None)
                items.append(slice(*parts))
            elif isinstance(item, ast.Starred):
                return UNKNOWN
            else:
                items.append(self._expr(item, env))
        if isinstance(base, HostTensor):
            if any(i is UNKNOWN or i is None for i in items):
                return HostTensor(None, base.dtype, None)
            return torch_ops.index(base, items)
        if isinstance(base, tuple) and len(items) == 1 and items[0] is not ...:
            key = items[0]
            if type(key) is int and -len(base) <= key < len(base):
                return base[key]
            if isinstance(key, slice) and all(v is None or type(v) is int for v in (key.start, key.stop, key.step)):
                return base[key]
        return UNKNOWN

    def _call(self, node: ast.Call, env: Env) -> Value:
        args: list[Value] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                inner = self._expr(a.value, env)
                if not isinstance(inner, tuple):
                    return UNKNOWN
                args.extend(inner)
            else:
                args.append(self._expr(a, env))
        if any(k.arg is None for k in node.keywords):
            return UNKNOWN
        kwargs = {k.arg: self._expr(k.value, env) for k in node.keywords if k.arg is not None}
        qual = self._qualname(node.func)
        if qual == "torch.tensor" and node.args and isinstance(node.args[0], (ast.ListComp, ast.BinOp)):
            nested = tensor_data.DataShapes(self._expr).of(node.args[0], env)
            if nested is not None:
                return tensor_data.tensor_of(nested[0], nested[1], kwargs, self._default_float)
        if qual is not None and qual.startswith("torch.") and qual.count(".") == 1:
            return torch_ops.factory(qual[len("torch."):], args, kwargs, self._default_float)
        if isinstance(node.func, ast.Attribute):
            receiver = self._expr(node.func.value, env)
            if isinstance(receiver, HostTensor):
                return torch_ops.method(receiver, node.func.attr, args, kwargs)
        factory = self._factory_name(node.func, env)
        if factory is not None:
            return self._factory(factory, args, kwargs)
        math_name = self._math_name(node.func)
        if math_name is not None:
            return _math(math_name, args) if not kwargs else UNKNOWN
        if isinstance(node.func, ast.Name) and node.func.id not in env:
            return _builtin(node.func.id, args, kwargs)
        return UNKNOWN

    def _math_name(self, callee: ast.expr) -> str | None:
        """``math.sqrt`` (or ``m.sqrt``, ``sqrt`` imported from math) -> "sqrt"."""
        if isinstance(callee, ast.Name):
            full = self._math.get(callee.id)
            return full[len("math."):] if full is not None and full.startswith("math.") else None
        if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
            return callee.attr if self._math.get(callee.value.id) == "math" else None
        return None


_FLOAT_OPS: Final[dict[type, Callable[[float, float], float]]] = {
    ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,
    ast.Div: lambda x, y: x / y,
}
# math functions of known numbers, as Python computes them.
_MATH: Final[dict[str, Callable[..., int | float]]] = {
    "sqrt": math.sqrt, "ceil": math.ceil, "floor": math.floor, "log2": math.log2, "exp": math.exp,
    "log": math.log, "pow": math.pow, "gcd": math.gcd, "isqrt": math.isqrt,
}


def _math(name: str, args: Sequence[Value]) -> Value:
    items = args[0] if name == "prod" and len(args) == 1 and isinstance(args[0], tuple) else args
    nums = [a for a in items if isinstance(a, (int, float)) and not isinstance(a, bool)]
    if not nums or len(nums) != len(items):
        return UNKNOWN
    try:
        return math.prod(nums) if name == "prod" else _MATH[name](*nums) if name in _MATH else UNKNOWN
    except (ValueError, OverflowError, TypeError):  # a domain error, or a float where an int is needed
        return UNKNOWN


def _builtin(name: str, args: Sequence[Value], kwargs: dict[str, Value] | None = None) -> Value:
    if kwargs and not (name == "enumerate" and set(kwargs) == {"start"}):
        return UNKNOWN
    if name == "enumerate" and args and isinstance(args[0], tuple) and len(args) <= 2:
        start = args[1] if len(args) == 2 else (kwargs or {}).get("start", 0)
        if type(start) is not int or len(args[0]) > MAX_ITEMS:
            return UNKNOWN
        return tuple((start + i, v) for i, v in enumerate(args[0]))
    if name == "zip" and args and all(isinstance(a, tuple) for a in args):
        return tuple(zip(*[a for a in args if isinstance(a, tuple)]))
    if name in ("tuple", "list") and len(args) == 1 and isinstance(args[0], tuple):
        return args[0]
    if name == "int" and len(args) == 1 and type(args[0]) is int:
        return args[0]
    if name == "len" and len(args) == 1 and isinstance(args[0], tuple):
        return len(args[0])
    if name in ("max", "min") and args and all(type(a) is int for a in args):
        ints = [a for a in args if type(a) is int]
        return max(ints) if name == "max" else min(ints)
    if name == "range" and all(type(a) is int for a in args) and 1 <= len(args) <= 3:
        bounds = [a for a in args if type(a) is int]
        values = range(*bounds)
        return tuple(values) if len(values) <= MAX_ITEMS else UNKNOWN
    return UNKNOWN
