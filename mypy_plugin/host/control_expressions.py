"""Expressions with their own control flow: ``and`` / ``or`` (the short circuit), comparison
chains, ``a if t else b``, comprehensions (their variables their own, each known item in turn),
dict displays.
A part that runs only under an unknown condition that may depend on known values is evaluated
silenced: a kernel call there is not a call site."""

from __future__ import annotations

import ast

from ..ast_fields import all_nodes
from . import dicts
from .builtins import MAX_ITEMS
from .conditions import compare, depends, truth
from .env import Env
from .values import UNKNOWN, DictVal, ListVal, Value


def iterated(v: Value) -> Value:
    """What a ``for`` over ``v`` goes through: a dict's keys, a tuple or list's items."""
    return tuple(k for k, _ in v.items) if isinstance(v, DictVal) else v


class ControlExpressions:
    _silence: int

    def _expr(self, node: ast.expr, env: Env) -> Value:
        raise NotImplementedError

    def _assign(self, target: ast.expr, value: Value, env: Env) -> None:
        raise NotImplementedError

    def _bind_name(self, name: str, value: Value, env: Env) -> None:
        raise NotImplementedError

    def _boolop(self, node: ast.BoolOp, env: Env) -> Value:
        """Operands in order until one decides (``DEBUG and k(x)`` with DEBUG False calls nothing);
        after an unknown one, the rest run only maybe."""
        result: Value = UNKNOWN
        unknown = silenced = False
        stop_on = isinstance(node.op, ast.Or)
        for value in node.values:
            v = self._expr(value, env)
            result = v
            known = truth(v)
            if known is None:
                if not silenced and depends(value, env):
                    self._silence += 1
                    silenced = True
                unknown = True
            elif known is stop_on:
                break
        if silenced:
            self._silence -= 1
        return UNKNOWN if unknown else result

    def _compare(self, node: ast.Compare, env: Env) -> Value:
        left = self._expr(node.left, env)
        result: bool | None = True
        silenced = False
        for op, right_node in zip(node.ops, node.comparators):
            right = self._expr(right_node, env)
            step = compare(op, left, right)
            if step is False:  # the chain is False whatever came before; the rest is not evaluated
                result = False
                break
            if step is None:
                if not silenced and depends(node, env):
                    self._silence += 1
                    silenced = True
                result = None
            left = right
        if silenced:
            self._silence -= 1
        return UNKNOWN if result is None else result

    def _ifexp(self, node: ast.IfExp, env: Env) -> Value:
        known = truth(self._expr(node.test, env))
        if known is not None:
            return self._expr(node.body if known else node.orelse, env)
        dep = depends(node.test, env)
        self._silence += dep
        a, b = self._expr(node.body, env), self._expr(node.orelse, env)
        self._silence -= dep
        return a if a == b and a is not UNKNOWN else UNKNOWN

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, env: Env) -> Value:
        lazy = isinstance(node, ast.GeneratorExp)  # runs as it is consumed: maybe never
        self._silence += lazy
        out = self._generators(node, 0, env.child(), [])
        self._silence -= lazy
        for sub in all_nodes(node):  # ``:=`` in a comprehension binds in the enclosing scope
            if isinstance(sub, ast.NamedExpr):
                self._bind_name(sub.target.id, UNKNOWN, env)
        if out is None or not isinstance(node, (ast.ListComp, ast.DictComp)):
            return UNKNOWN
        return ListVal(out) if isinstance(node, ast.ListComp) else dicts.make(out)  # type: ignore[arg-type]

    def _dict(self, node: ast.Dict, env: Env) -> Value:
        """``{k: v, **other}``: keys and values in order; UNKNOWN unless every key is known."""
        pairs: list[tuple[Value, Value]] = []
        known = True
        for key_node, value_node in zip(node.keys, node.values):
            key = self._expr(key_node, env) if key_node is not None else None
            value = self._expr(value_node, env)
            if key_node is None:  # ``**other``
                if isinstance(value, DictVal):
                    pairs.extend(value.items)
                else:
                    known = False
            else:
                pairs.append((key, value))
        return dicts.make(pairs) if known else UNKNOWN

    def _generators(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, i: int, env: Env,
                    out: list[Value] | None) -> list[Value] | None:
        if i == len(node.generators):
            if isinstance(node, ast.DictComp):
                pair = (self._expr(node.key, env), self._expr(node.value, env))
                if out is not None:
                    out.append(pair)
                return out
            value = self._expr(node.elt, env)
            if out is not None:
                out.append(value)
            return out
        gen = node.generators[i]
        items = iterated(self._expr(gen.iter, env))
        if isinstance(items, tuple) and len(items) <= MAX_ITEMS and not gen.is_async:
            for item in items:
                it_env = env.child()
                self._assign(gen.target, item, it_env)
                out = self._filtered(node, i, gen, it_env, out)
            return out
        dep = depends(gen.iter, env)
        self._silence += dep
        it_env = env.child()
        self._assign(gen.target, UNKNOWN, it_env)
        self._filtered(node, i, gen, it_env, None)
        self._silence -= dep
        return None

    def _filtered(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, i: int,
                  gen: ast.comprehension, env: Env, out: list[Value] | None) -> list[Value] | None:
        silenced = 0
        for cond in gen.ifs:
            known = truth(self._expr(cond, env))
            if known is False:
                self._silence -= silenced
                return out
            if known is None:
                out = None
                if depends(cond, env):
                    self._silence += 1
                    silenced += 1
        out = self._generators(node, i + 1, env, out)
        self._silence -= silenced
        return out
