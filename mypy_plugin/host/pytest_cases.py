"""pytest's own calls of a test function: one per ``@pytest.mark.parametrize`` case whose values
the source writes, with the fixtures of this module (functions marked ``@pytest.fixture``)."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable
from typing import Final

from .ast_facts import is_jit
from .env import Env
from .expressions import Args
from .values import UNKNOWN, Value

MAX_CASES: Final = 16  # parametrized calls walked per test function


def _mark(node: ast.expr, name: str) -> bool:
    """``pytest.mark.<name>`` / ``mark.<name>`` / ``pytest.<name>`` (a fixture), called or not."""
    target = node.func if isinstance(node, ast.Call) else node
    if not isinstance(target, ast.Attribute) or target.attr != name:
        return False
    head = target.value
    if name == "fixture":
        return isinstance(head, ast.Name) and head.id == "pytest"
    return (isinstance(head, ast.Attribute) and head.attr == "mark" and isinstance(head.value, ast.Name)
            and head.value.id == "pytest") or isinstance(head, ast.Name) and head.id == "mark"


def is_fixture(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A fixture without ``params=`` (its value is what its body returns or yields)."""
    for d in func.decorator_list:
        if _mark(d, "fixture") or isinstance(d, ast.Name) and d.id == "fixture":
            return not (isinstance(d, ast.Call) and any(k.arg in ("params", "name") for k in d.keywords))
    return False


def cases(func: ast.FunctionDef, expr: Callable[[ast.expr], Value]) -> list[tuple[str, dict[str, Value]]] | None:
    """(a label, the parameters' values) of each case of the function's parametrize marks; None
    when it has none, or a case the source does not write (``pytest.param``, a computed list)."""
    marks = [d for d in func.decorator_list if isinstance(d, ast.Call) and _mark(d, "parametrize")]
    if not marks:
        return None
    per_mark: list[list[dict[str, Value]]] = []
    for mark in marks:
        if len(mark.args) < 2 or any(k.arg == "indirect" for k in mark.keywords):
            return None
        names = _names(expr(mark.args[0]))
        values = expr(mark.args[1])
        if names is None or not isinstance(values, tuple) or not values:
            return None
        rows: list[dict[str, Value]] = []
        for row in values:
            items = (row,) if len(names) == 1 else row
            if not isinstance(items, tuple) or len(items) != len(names) or UNKNOWN in items:
                return None
            rows.append(dict(zip(names, items)))
        per_mark.append(rows)
    out: list[tuple[str, dict[str, Value]]] = []
    for combo in itertools.islice(itertools.product(*per_mark), MAX_CASES):
        merged: dict[str, Value] = {}
        for part in combo:
            merged.update(part)
        out.append(("-".join(_label(v) for v in merged.values()), merged))
    return out


def _names(value: Value) -> list[str] | None:
    if isinstance(value, str):
        names = [n.strip() for n in value.split(",") if n.strip()]
    elif isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        names = [str(v) for v in value]
    else:
        return None
    return names if names and all(n.isidentifier() for n in names) else None


def _label(v: Value) -> str:
    """pytest's id of a value, near enough for a note: ``16-64`` style."""
    if isinstance(v, (int, float, str, bool)) or v is None:
        return str(v)
    if isinstance(v, tuple):
        return "(" + ", ".join(_label(i) for i in v) + ")"
    name = getattr(v, "name", None)
    return name.removeprefix("torch.") if isinstance(name, str) else "?"


class PytestCalls:
    """Walks each test function as pytest calls it (see :class:`evaluate.HostEvaluator`)."""

    tree: ast.Module
    _reaching: set[int]  # the functions that may reach a kernel call (reach.py)

    def _expr(self, node: ast.expr, env: Env) -> Value:
        raise NotImplementedError

    def _generator(self, func: ast.FunctionDef) -> bool:
        raise NotImplementedError

    def _walk(self, func: ast.FunctionDef, args: Args, closure: Env, via: tuple[str, ...], factory: str | None = None,
              depth: int | None = None) -> Value:
        raise NotImplementedError

    def _pytest_calls(self, env: Env) -> None:
        """Each test function as pytest calls it: once per parametrize case the source writes,
        with the values of this module's fixtures."""
        fixtures = {s.name: s for s in self.tree.body if isinstance(s, ast.FunctionDef) and is_fixture(s)}
        for test in self.tree.body:
            if not isinstance(test, ast.FunctionDef) or not test.name.startswith("test") or is_jit(test) \
                    or id(test) not in self._reaching:
                continue
            params = [a.arg for a in [*test.args.posonlyargs, *test.args.args]]
            found = cases(test, lambda e: self._expr(e, env))
            if found is None and not set(params) & set(fixtures):
                continue
            for label, given in found or [("", {})]:
                values = [given[p] if p in given else self._fixture(fixtures[p], fixtures, env, 0) if p in fixtures
                          else UNKNOWN for p in params]
                via = f"{test.name}[{label}]" if label else f"{test.name} with its fixtures"
                self._walk(test, Args(values, [None] * len(values), False, {}), env, (via,), depth=0)

    def _fixture(self, func: ast.FunctionDef, fixtures: dict[str, ast.FunctionDef], env: Env, level: int) -> Value:
        """What a fixture returns (or yields first), given the fixtures it asks for."""
        params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
        if level > 3 or func.args.vararg is not None:
            return UNKNOWN
        values = [self._fixture(fixtures[p], fixtures, env, level + 1) if p in fixtures else UNKNOWN for p in params]
        if not self._generator(func):
            return self._walk(func, Args(values, [None] * len(values), False, {}), env, (), depth=1)
        at = next((i for i, s in enumerate(func.body) if isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield)), None)
        stmt = func.body[at] if at is not None else None
        yielded = stmt.value if isinstance(stmt, ast.Expr) else None
        if at is None or not isinstance(yielded, ast.Yield) or yielded.value is None:
            return UNKNOWN
        head = ast.FunctionDef(func.name, func.args, [*func.body[:at], ast.Return(yielded.value)], [], None, None)
        return self._walk(head, Args(values, [None] * len(values), False, {}), env, (), depth=1)
