"""Host expressions as far as the source proves them, evaluated once each in Python's order
(literals, arithmetic, torch calls and tensor methods, pypto dtype names, comparisons, ``and`` /
``or`` / ``if`` with their short circuit, comprehensions, ``:=``). Calls go through ``_effect``
first: the statement walker in :mod:`evaluate` records kernel calls and follows helpers there."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from types import EllipsisType
from typing import Final

from ..knowledge.arith import AST_OPS, fold
from . import dicts, numpy_ops, tensor_data, torch_ops
from .attributes import attribute
from .builtins import FLOAT_OPS, MAX_ITEMS, builtin, math_call
from .conditions import truth
from .control_expressions import ControlExpressions
from .env import Env
from .numpy_ops import NUMPY_DTYPES
from .values import DTYPES, OBJECTS, UNKNOWN, Defined, DictVal, HostTensor, ListVal, NdArray, PyptoDType, TorchDType, \
    Value

# An f-string with a part the source does not prove: still a str (``t.to(f"npu:{i}")`` is a device).
SOME_STR: Final = "<str>"
_MEMORY_FORMATS: Final = frozenset({"torch.contiguous_format", "torch.preserve_format", "torch.channels_last"})
NO_EFFECT: Final = object()  # ``_effect``: the call is an ordinary one

__all__ = ["Env", "ExpressionEvaluator", "MAX_ITEMS", "Args", "NO_EFFECT"]


@dataclass
class Args:
    """A call's arguments, evaluated: positional values (a known ``*xs`` spread), the node each
    one was written as (None for a spread item), keywords."""

    values: list[Value]
    nodes: list[ast.expr | None]
    unknown_spread: bool  # a ``*xs`` or ``**kw`` the source does not prove
    kwargs: dict[str, Value]


class ExpressionEvaluator(ControlExpressions):
    """The imported names it reads are filled in by the subclass's module scan."""

    _torch: dict[str, str]  # local name -> "torch" / "torch.randn"
    _math: dict[str, str]  # local name -> "math" / "math.sqrt"
    _numpy: dict[str, str]  # local name -> "numpy" / "numpy.zeros"
    tree: ast.Module
    constant: Callable[[str, str], Value]  # another module's constant (imported_constants.py)
    _module_names: dict[int, str]  # a module bound by ``import`` (its Defined id) -> its name
    _attr_targets: set[str]  # names whose attributes the module sets (module_facts)
    _pypto: set[str]  # local names of the pypto module
    _pypto_dtypes: dict[str, str]  # ``from pypto import DT_FP16 as h``
    _default_float: TorchDType | None
    _silence: int  # > 0: the expression runs only under a condition that may depend on known values
    _stale: dict[int, Value]  # lists and tensors changed in place, by id: any alias reads unknown
    _replaced: dict[int, Value]  # ... unless the change is followed: the list's new items

    def _effect(self, node: ast.Call, callee: Value, receiver: Value, args: Args, env: Env) -> object:
        """A call with effects the walker follows (a kernel, a helper, a list change); NO_EFFECT else."""
        return NO_EFFECT

    def _bind_name(self, name: str, value: Value, env: Env) -> None:
        env[name] = value

    def _qualname(self, node: ast.expr) -> str | None:
        """``th.randn`` -> "torch.randn" when ``th`` is torch; None for anything else."""
        if isinstance(node, ast.Name):
            return self._torch.get(node.id)
        if isinstance(node, ast.Attribute):
            head = self._qualname(node.value)
            return None if head is None else f"{head}.{node.attr}"
        return None

    def _npqual(self, node: ast.expr) -> str | None:
        """``np.random.randn`` -> "numpy.random.randn" when ``np`` is numpy."""
        if isinstance(node, ast.Name):
            return self._numpy.get(node.id)
        if isinstance(node, ast.Attribute):
            head = self._npqual(node.value)
            return None if head is None else f"{head}.{node.attr}"
        return None

    def _is_stale(self, v: Value) -> bool:
        if id(v) in self._stale:
            return True
        inner = [i for pair in v.items for i in pair] if isinstance(v, DictVal) else v if isinstance(v, tuple) else ()
        return any(isinstance(i, (tuple, DictVal)) and self._is_stale(i) for i in inner)

    def _expr(self, node: ast.expr, env: Env) -> Value:
        t = type(node)
        if t is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            return value if isinstance(value, (int, float, bool, str)) or value is None else UNKNOWN
        if t is ast.Name:
            return self._name(node.id, env)  # type: ignore[attr-defined]
        if t is ast.Tuple or t is ast.List:
            items = self._items(node.elts, env)  # type: ignore[attr-defined]
            return UNKNOWN if items is None else ListVal(items) if t is ast.List else tuple(items)
        if t is ast.BinOp:
            return self._binop(node, env)  # type: ignore[arg-type]
        if t is ast.Attribute:
            return self._attribute(node, env)  # type: ignore[arg-type]
        if t is ast.Subscript:
            return self._subscript(node, env)  # type: ignore[arg-type]
        if t is ast.Call:
            return self._call(node, env)  # type: ignore[arg-type]
        if t is ast.UnaryOp:
            return self._unary(node, env)  # type: ignore[arg-type]
        if t is ast.NamedExpr:
            value = self._expr(node.value, env)  # type: ignore[attr-defined]
            self._bind_name(node.target.id, value, env)  # type: ignore[attr-defined]
            return value
        if t is ast.BoolOp:
            return self._boolop(node, env)  # type: ignore[arg-type]
        if t is ast.Compare:
            return self._compare(node, env)  # type: ignore[arg-type]
        if t is ast.IfExp:
            return self._ifexp(node, env)  # type: ignore[arg-type]
        if t in _COMPREHENSIONS:
            return self._comprehension(node, env)  # type: ignore[arg-type]
        if t is ast.JoinedStr:
            return self._fstring(node, env)  # type: ignore[arg-type]
        if t is ast.Lambda:
            return UNKNOWN  # its body runs when called
        if t is ast.Dict:
            return self._dict(node, env)  # type: ignore[arg-type]
        for child in ast.iter_child_nodes(node):  # dict and set displays, await ...: their effects
            if isinstance(child, ast.expr):
                self._expr(child, env)
        return UNKNOWN

    def _name(self, name: str, env: Env) -> Value:
        if name in self._torch:
            return DTYPES.get(self._torch[name], UNKNOWN)
        if name in self._numpy:
            return NUMPY_DTYPES.get(self._numpy[name], UNKNOWN)
        if name in self._pypto_dtypes and name not in env:
            return PyptoDType(self._pypto_dtypes[name])
        value = env.get(name, UNKNOWN)
        if self._stale and isinstance(value, OBJECTS):
            while id(value) in self._replaced:  # an alias of a list changed in place: its new items
                value = self._replaced[id(value)]
            if self._is_stale(value):
                return UNKNOWN
        return value

    def _items(self, elts: list[ast.expr], env: Env) -> list[Value] | None:
        items: list[Value] = []
        known = True
        for elt in elts:
            if isinstance(elt, ast.Starred):
                inner = self._expr(elt.value, env)
                if isinstance(inner, tuple):
                    items.extend(inner)
                else:
                    known = False
            else:
                items.append(self._expr(elt, env))
        return items if known else None

    def _unary(self, node: ast.UnaryOp, env: Env) -> Value:
        v = self._expr(node.operand, env)
        if isinstance(node.op, ast.Not):
            known = truth(v)
            return UNKNOWN if known is None else not known
        if isinstance(v, HostTensor):
            return torch_ops.method(v, "neg", [], {}) if isinstance(node.op, ast.USub) else UNKNOWN
        if type(v) in (int, float) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return -v if isinstance(node.op, ast.USub) else v  # type: ignore[operator]
        return UNKNOWN

    def _binop(self, node: ast.BinOp, env: Env) -> Value:
        a, b = self._expr(node.left, env), self._expr(node.right, env)
        op = AST_OPS.get(type(node.op))
        if type(a) is int and type(b) is int and op is not None:
            folded = fold(op, a, b)
            return UNKNOWN if folded is None else folded
        if isinstance(a, HostTensor) or isinstance(b, HostTensor):
            return torch_ops.arithmetic(a, b, type(node.op), self._default_float)
        if (isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool)
                and not isinstance(b, bool) and type(node.op) in FLOAT_OPS):
            # a float on either side, or a true division: Python's float arithmetic
            return UNKNOWN if type(node.op) is ast.Div and b == 0 else FLOAT_OPS[type(node.op)](a, b)
        made: Value = UNKNOWN
        if isinstance(a, tuple) and isinstance(b, tuple) and op == "+":
            made = a + b
        elif isinstance(a, tuple) and type(b) is int and op == "*" and 0 <= b <= 64:
            made = a * b
        elif type(a) is int and isinstance(b, tuple) and op == "*" and 0 <= a <= 64:
            made = a * b
        return ListVal(made) if isinstance(made, tuple) and (isinstance(a, ListVal) or isinstance(b, ListVal)) else made

    def _attribute(self, node: ast.Attribute, env: Env) -> Value:
        qual = self._qualname(node)
        if qual is not None:
            return qual if qual in _MEMORY_FORMATS else DTYPES.get(qual, UNKNOWN)
        if isinstance(node.value, ast.Name) and node.value.id in self._pypto and node.attr.startswith("DT_"):
            return PyptoDType(node.attr)
        npq = self._npqual(node)
        if npq is not None:
            return NUMPY_DTYPES.get(npq, UNKNOWN)
        base = self._expr(node.value, env)
        if isinstance(base, Defined) and base.node in self._module_names:  # ``k.COLS`` of ``import k``
            return self.constant(self._module_names[base.node], node.attr)
        return attribute(base, node.attr)

    def _subscript(self, node: ast.Subscript, env: Env) -> Value:
        base = self._expr(node.value, env)
        raw = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        items: list[Value | slice | EllipsisType] = []
        unknown = False
        for item in raw:
            if isinstance(item, ast.Constant) and item.value is Ellipsis:
                items.append(...)  # ``t[..., ::2]``: torch_ops.index spreads it
            elif isinstance(item, ast.Slice):
                parts = [None if p is None else self._expr(p, env) for p in (item.lower, item.upper, item.step)]
                unknown = unknown or any(p is UNKNOWN for p in parts)
                items.append(slice(*parts))
            else:
                value = self._expr(item, env)
                unknown = unknown or isinstance(item, ast.Starred)
                items.append(value)
        if isinstance(base, HostTensor):
            if unknown or any(i is UNKNOWN or i is None for i in items):
                return HostTensor(None, base.dtype, None)
            return torch_ops.index(base, items)
        if isinstance(base, DictVal) and len(raw) == 1 and not isinstance(raw[0], ast.Slice) and not unknown:
            found = dicts.lookup(base, items[0])  # type: ignore[arg-type]
            return UNKNOWN if found is dicts.MISSING else found  # type: ignore[return-value]
        if isinstance(base, tuple) and len(items) == 1 and items[0] is not ... and not unknown:
            key = items[0]
            if type(key) is int and -len(base) <= key < len(base):
                return base[key]
            if isinstance(key, slice) and all(v is None or type(v) is int for v in (key.start, key.stop, key.step)):
                if key.step == 0:
                    return UNKNOWN
                part = base[key]
                return ListVal(part) if isinstance(base, ListVal) else part
        return UNKNOWN

    def _assign(self, target: ast.expr, value: Value, env: Env) -> None:
        """Bind a target (a name, a tuple or list of targets) to a value; an attribute or subscript
        target changes an object (:meth:`_store_into`)."""
        if isinstance(target, ast.Name):
            self._bind_name(target.id, value, env)
        elif isinstance(target, (ast.Tuple, ast.List)):
            starred = any(isinstance(e, ast.Starred) for e in target.elts)
            if isinstance(value, tuple) and len(value) == len(target.elts) and not starred:
                for elt, item in zip(target.elts, value):
                    self._assign(elt, item, env)
            else:
                for elt in target.elts:
                    self._assign(elt.value if isinstance(elt, ast.Starred) else elt, UNKNOWN, env)
        elif isinstance(target, ast.Starred):
            self._assign(target.value, UNKNOWN, env)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):  # ``xs[0], xs[1] = xs[1], xs[0]``
            self._store_into(target, value, env)

    def _store_into(self, target: ast.Subscript | ast.Attribute, value: Value, env: Env) -> None:
        """``xs[i] = v`` / ``o.a = v``: the statement walker follows or forgets the object."""
        raise NotImplementedError

    def _fstring(self, node: ast.JoinedStr, env: Env) -> Value:
        parts = [self._expr(v.value, env) if isinstance(v, ast.FormattedValue) else self._expr(v, env)
                 for v in node.values]
        known = all(type(p) in (str, int) for p in parts) and not any(isinstance(v, ast.FormattedValue) and (
            v.conversion != -1 or v.format_spec is not None) for v in node.values)
        return "".join(str(p) for p in parts) if known else SOME_STR

    def _call(self, node: ast.Call, env: Env) -> Value:
        func = node.func
        qual = self._qualname(func)
        if qual == "torch.tensor" and node.args and isinstance(node.args[0], (ast.ListComp, ast.BinOp)):
            kwargs = {k.arg: self._expr(k.value, env) for k in node.keywords if k.arg is not None}
            nested = tensor_data.DataShapes(self._expr).of(node.args[0], env)
            if nested is not None:
                return tensor_data.tensor_of(nested[0], nested[1], kwargs, self._default_float)
        receiver: Value = UNKNOWN
        callee: Value = UNKNOWN
        if isinstance(func, ast.Attribute) and qual is None:
            receiver = self._expr(func.value, env)
        elif isinstance(func, ast.Name):
            callee = env.get(func.id, UNKNOWN)
        elif qual is None:
            callee = self._expr(func, env)
        args = Args([], [], False, {})
        for a in node.args:
            if isinstance(a, ast.Starred):
                inner = self._expr(a.value, env)
                spread = inner if isinstance(inner, tuple) else (UNKNOWN,)
                args.unknown_spread = args.unknown_spread or not isinstance(inner, tuple)
                args.values.extend(spread)
                args.nodes.extend(None for _ in spread)
            else:
                args.values.append(self._expr(a, env))
                args.nodes.append(a)
        for k in node.keywords:
            value = self._expr(k.value, env)
            if k.arg is None:
                args.unknown_spread = True
            else:
                args.kwargs[k.arg] = value
        effect = self._effect(node, callee, receiver, args, env)
        if effect is not NO_EFFECT:
            return effect  # type: ignore[return-value]
        if args.unknown_spread:
            return UNKNOWN
        if qual in _FROM_NUMPY and len(args.values) == 1 and isinstance(args.values[0], NdArray):
            return numpy_ops.to_tensor(qual[len("torch."):], args.values[0]) if not args.kwargs else UNKNOWN
        npq = self._npqual(func)
        if npq is not None and npq.startswith("numpy."):
            return numpy_ops.call(npq[len("numpy."):], args.values, args.kwargs)
        if isinstance(receiver, NdArray) and isinstance(func, ast.Attribute):
            return numpy_ops.method(receiver, func.attr, args.values, args.kwargs)
        if qual is not None and qual.startswith("torch.") and qual.count(".") == 1:
            return torch_ops.factory(qual[len("torch."):], args.values, args.kwargs, self._default_float)
        if isinstance(receiver, HostTensor) and isinstance(func, ast.Attribute):
            return torch_ops.method(receiver, func.attr, args.values, args.kwargs)
        if isinstance(receiver, DictVal) and isinstance(func, ast.Attribute):
            return dicts.method(receiver, func.attr, args.values, args.kwargs)
        math_name = self._math_name(func)
        if math_name is not None:
            return math_call(math_name, args.values) if not args.kwargs else UNKNOWN
        if isinstance(func, ast.Name) and func.id not in env:
            return builtin(func.id, args.values, args.kwargs)
        return UNKNOWN

    def _math_name(self, callee: ast.expr) -> str | None:
        """``math.sqrt`` (or ``m.sqrt``, ``sqrt`` imported from math) -> "sqrt"."""
        if isinstance(callee, ast.Name):
            full = self._math.get(callee.id)
            return full[len("math."):] if full is not None and full.startswith("math.") else None
        if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
            return callee.attr if self._math.get(callee.value.id) == "math" else None
        return None


_FROM_NUMPY: Final = frozenset({"torch.from_numpy", "torch.as_tensor", "torch.tensor"})
_COMPREHENSIONS: Final = frozenset({ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp})
