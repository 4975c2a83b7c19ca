"""``torch.tensor(data)``: the shape and dtype of nested host data, from a literal value or, without
building it, from a comprehension over a known range or a repeated row (``[[0] * k] * n``)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Final

from .env import Env
from .values import BOOL, INT64, UNKNOWN, HostTensor, TorchDType, Value, dtype_kw, fresh, leaf_dtype

MAX_LENGTH: Final = 1 << 20  # the longest dim read without building the data

Shape = tuple[tuple[int, ...], Value]  # (shape, a leaf)


def tensor_of(shape: tuple[int, ...], leaf: Value, kwargs: dict[str, Value], default_float: TorchDType | None) -> Value:
    """``torch.tensor(data)`` of a nested list whose shape is known and whose leaves are like ``leaf``."""
    return fresh(shape, dtype_kw(kwargs, leaf_dtype(leaf, default_float)))


def literal(data: Value, kwargs: dict[str, Value], default_float: TorchDType | None) -> Value:
    """``torch.tensor(data)`` of a value the evaluator built (nested tuples of numbers)."""
    shape: list[int] = []
    level = data
    while isinstance(level, tuple):
        shape.append(len(level))
        if not level:
            break
        level = level[0]
    leaves = _leaves(data)
    ragged = shape[-1:] != [0] and nested_shape(data) is None  # torch's error, not a shape
    if leaves is None or ragged or type(level) not in (int, float, bool) and shape[-1:] != [0]:
        # Some element is not known (a variable, a call): so is the shape.
        return HostTensor(None, dtype_kw(kwargs, None), None)
    default = (
        BOOL if leaves and all(type(v) is bool for v in leaves)
        else INT64 if leaves and all(type(v) in (int, bool) for v in leaves)
        else default_float if all(type(v) in (int, float, bool) for v in leaves)
        else None
    )
    return fresh(tuple(shape), dtype_kw(kwargs, default))


def _leaves(data: Value) -> list[Value] | None:
    if isinstance(data, tuple):
        out: list[Value] = []
        for item in data:
            sub = _leaves(item)
            if sub is None:
                return None
            out.extend(sub)
        return out
    return None if data is UNKNOWN else [data]


class DataShapes:
    """Shapes of data expressions; ``expr`` evaluates an expression in an environment."""

    def __init__(self, expr: Callable[[ast.expr, Env], Value]) -> None:
        self.expr = expr

    def of(self, node: ast.expr, env: Env) -> Shape | None:
        """(shape, a leaf) for a comprehension over a known range (the element of one shape and
        leaf kind at the first and the last value: a ragged list is torch's error, not a shape),
        ``[row] * n``, a display of such rows, or a value the evaluator knows."""
        if isinstance(node, ast.ListComp):
            return self._comprehension(node, env)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for data, count in ((node.left, node.right), (node.right, node.left)):
                n = self.expr(count, env)
                if type(n) is int and n >= 0 and isinstance(data, (ast.List, ast.Tuple, ast.ListComp, ast.BinOp)):
                    sub = self.of(data, env)
                    if sub is not None and sub[0] and n * sub[0][0] <= MAX_LENGTH:
                        return (n * sub[0][0], *sub[0][1:]), sub[1]
            return None
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts and not any(isinstance(e, ast.Starred) for e in node.elts):
            subs = [self.of(e, env) for e in node.elts]
            first = subs[0]
            if first is None or any(s is None or s[0] != first[0] or type(s[1]) is not type(first[1]) for s in subs):
                return None
            return (len(node.elts), *first[0]), first[1]
        return nested_shape(self.expr(node, env))

    def _comprehension(self, node: ast.ListComp, env: Env) -> Shape | None:
        if len(node.generators) != 1:
            return None
        gen = node.generators[0]
        it = gen.iter
        if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name) or not (
                isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and it.func.id not in env and not it.keywords and 1 <= len(it.args) <= 3):
            return None
        bounds = [self.expr(a, env) for a in it.args]
        if not all(type(b) is int for b in bounds) or bounds[-1] == 0 and len(bounds) == 3:
            return None
        values = range(*[b for b in bounds if type(b) is int])
        if not values or len(values) > MAX_LENGTH:
            return None
        seen: list[tuple[tuple[int, ...], type]] = []
        leaf: Value = UNKNOWN
        for v in (values[0], values[-1]):
            scope = env.child()
            scope[gen.target.id] = v
            sub = self.of(node.elt, scope)
            if sub is None:
                return None
            leaf = sub[1]
            seen.append((sub[0], type(leaf)))
        if seen[0] != seen[1]:
            return None
        return (len(values), *seen[0][0]), leaf


def nested_shape(value: Value) -> Shape | None:
    """A number, or nested tuples of one shape with numbers at the bottom: (shape, a leaf)."""
    if type(value) in (int, float, bool):
        return (), value
    if not isinstance(value, tuple) or not value:
        return None
    subs = [nested_shape(v) for v in value]
    if any(s is None for s in subs):
        return None
    first = subs[0]
    assert first is not None
    if any(s is not None and (s[0] != first[0] or type(s[1]) is not type(first[1])) for s in subs):
        return None
    return (len(value), *first[0]), first[1]
