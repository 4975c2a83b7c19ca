"""pytest's own calls of a test function (module-level, or a method of a ``Test*`` class): one per
``@pytest.mark.parametrize`` case whose values the source writes (``pytest.param(...)`` cases too,
but not those marked ``skip``; ``indirect`` names go through their fixture, as
``request.param``), with the fixtures of this module and of the ``conftest.py`` files given
(``@pytest.fixture``, ``name=``, and one value per item of ``params=``)."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from .ast_facts import is_jit
from .env import Env
from .expressions import Args
from .values import UNKNOWN, PytestParam, Request, Value

MAX_CASES: Final = 16  # calls walked per test function
_LEVELS: Final = 3  # fixtures asking for fixtures
Case = tuple[str, Value]  # (a label for notes, a value)


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


@dataclass(frozen=True)
class Fixture:
    func: ast.FunctionDef
    params: ast.expr | None  # ``params=[...]``: one value per item
    method: bool  # a method of a test class (``self`` first)
    # a fixture of a ``conftest.py``: the walker of that module and the names its functions see
    owner: PytestCalls | None = None
    env: Env | None = None


def fixture_of(func: ast.stmt, method: bool = False) -> tuple[str, Fixture] | None:
    """(the fixture's name, the fixture) when ``func`` is a ``@pytest.fixture``."""
    if not isinstance(func, ast.FunctionDef):
        return None
    for d in func.decorator_list:
        if _mark(d, "fixture") or isinstance(d, ast.Name) and d.id == "fixture":
            keywords = {k.arg: k.value for k in d.keywords} if isinstance(d, ast.Call) else {}
            name = keywords.get("name")
            alias = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
            if name is not None and alias is None:
                return None
            return alias or func.name, Fixture(func, keywords.get("params"), method)
    return None


def skipping(marks: ast.AST) -> bool:
    """Marks that may keep pytest from running a test or a case: ``skip``, ``skipif``,
    ``xfail(run=False)`` (an expected failure still runs: its call is a call)."""
    if isinstance(marks, (ast.List, ast.Tuple)):
        return any(skipping(m) for m in marks.elts)
    target = marks.func if isinstance(marks, ast.Call) else marks
    if not isinstance(target, ast.Attribute):
        return False
    if target.attr in ("skip", "skipif"):
        return True
    return target.attr == "xfail" and isinstance(marks, ast.Call) and any(k.arg == "run" for k in marks.keywords)


def _pytestmark(body: list[ast.stmt]) -> list[ast.expr]:
    """The marks a module or class body applies to all its tests (``pytestmark = ...``)."""
    return [s.value for s in body if isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in s.targets)]


def is_fixture(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return fixture_of(func) is not None


def cases(decorators: Sequence[ast.expr], expr: Callable[[ast.expr], Value]
          ) -> tuple[list[tuple[str, dict[str, Value]]], set[str]] | None:
    """(a label and the parameters' values) of each case of the parametrize marks, and the
    ``indirect`` names; None when there is none, or a case the source does not write."""
    marks = [d for d in decorators if isinstance(d, ast.Call) and _mark(d, "parametrize")]
    if not marks:
        return None
    per_mark: list[list[tuple[str, dict[str, Value]]]] = []
    indirect: set[str] = set()
    for mark in marks:
        keywords = {k.arg: k.value for k in mark.keywords}
        if len(mark.args) < 2:
            return None
        names = _names(expr(mark.args[0]))
        values = expr(mark.args[1])
        if names is None or not isinstance(values, tuple) or not values:
            return None
        if "indirect" in keywords:
            chosen = expr(keywords["indirect"])
            if chosen is True:
                indirect.update(names)
            elif isinstance(chosen, tuple) and all(isinstance(n, str) for n in chosen):
                indirect.update(str(n) for n in chosen)
            elif chosen is not False:
                return None
        rows: list[tuple[str, dict[str, Value]]] = []
        for row in values:
            if isinstance(row, PytestParam):
                if row.skipped:
                    continue
                items: Value = row.values if len(names) > 1 or len(row.values) != 1 else (row.values[0],)
            else:
                items = (row,) if len(names) == 1 else row
            if not isinstance(items, tuple) or len(items) != len(names) or UNKNOWN in items:
                return None
            label = row.id if isinstance(row, PytestParam) and row.id is not None else "-".join(map(_label, items))
            rows.append((label, dict(zip(names, items))))
        per_mark.append(rows)
    out: list[tuple[str, dict[str, Value]]] = []
    for combo in itertools.islice(itertools.product(*per_mark), MAX_CASES):
        merged: dict[str, Value] = {}
        for _, part in combo:
            merged.update(part)
        out.append(("-".join(label for label, _ in combo), merged))
    return out, indirect


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

    def _conftest_fixtures(self) -> dict[str, Fixture]:
        """The fixtures of the ``conftest.py`` files pytest loads for this module (nearest wins)."""
        return {}

    def _pytest_calls(self, env: Env) -> None:
        """Each test function and test method as pytest calls it: once per parametrize case the
        source writes and per value of the fixtures it asks for."""
        fixtures = self._conftest_fixtures()
        fixtures.update(f for f in map(fixture_of, self.tree.body) if f is not None)  # the module's own win
        module_marks = _pytestmark(self.tree.body)
        for test in self.tree.body:
            if isinstance(test, ast.FunctionDef):
                self._test(test, module_marks, fixtures, env, False)
            elif isinstance(test, ast.ClassDef) and test.name.startswith("Test"):
                own = dict(fixtures)
                own.update(f for f in (fixture_of(s, True) for s in test.body) if f is not None)
                marks = [*module_marks, *test.decorator_list, *_pytestmark(test.body)]
                for method in test.body:
                    if isinstance(method, ast.FunctionDef):
                        self._test(method, marks, own, env, True)

    def _test(self, test: ast.FunctionDef, outer: list[ast.expr], fixtures: dict[str, Fixture], env: Env,
              method: bool) -> None:
        if not test.name.startswith("test") or is_jit(test) or id(test) not in self._reaching \
                or any(skipping(d) for d in [*outer, *test.decorator_list]):
            return  # a test pytest may not run: its cases are not calls
        params = [a.arg for a in [*test.args.posonlyargs, *test.args.args]][1 if method else 0:]
        found = cases([*outer, *test.decorator_list], lambda e: self._expr(e, env))
        if found is None and not set(params) & set(fixtures):
            return
        rows, indirect = found if found is not None else ([("", {})], set())
        walked = 0
        for label, given in rows:
            options: list[list[Case]] = []
            for p in params:
                if p in indirect and p not in fixtures:
                    options.append([("", UNKNOWN)])  # its fixture is elsewhere (a conftest.py)
                elif p in given and p not in indirect:
                    options.append([("", given[p])])
                elif p in fixtures:
                    request = Request(given[p]) if p in given else None
                    options.append(self._fixture(p, fixtures, env, 0, request))
                else:
                    options.append([("", UNKNOWN)])
            for combo in itertools.product(*options):
                if walked >= MAX_CASES:
                    return
                walked += 1
                parts = [label, *(part for part, _ in combo if part)]
                name = "-".join(p for p in parts if p)
                via = f"{test.name}[{name}]" if name else f"{test.name} with its fixtures"
                values: list[Value] = [UNKNOWN] * method
                values += [value for _, value in combo]
                self._walk(test, Args(values, [None] * len(values), False, {}), env, (via,), depth=0)

    def _fixture(self, name: str, fixtures: dict[str, Fixture], env: Env, level: int, request: Request | None
                 ) -> list[Case]:
        """What a fixture gives (returns, or yields first), once per item of its ``params=``
        (``request.param``), given the fixtures it asks for (their first value)."""
        fixture = fixtures[name]
        func = fixture.func
        if level > _LEVELS or func.args.vararg is not None:
            return [("", UNKNOWN)]
        # a conftest fixture runs in its own module, with the names of that module
        requests: list[Case] = [("", request)]
        if request is None and fixture.params is not None:
            items = (fixture.owner or self)._expr(fixture.params, fixture.env or env)
            if not isinstance(items, tuple) or not items:
                return [("", UNKNOWN)]
            requests = [(_label(v), Request(v)) for v in items[:MAX_CASES]]
        out: list[Case] = []
        for label, req in requests:
            values: list[Value] = [UNKNOWN] * fixture.method
            for p in [a.arg for a in [*func.args.posonlyargs, *func.args.args]][1 if fixture.method else 0:]:
                values.append(req if p == "request" and req is not None else
                              self._fixture(p, fixtures, env, level + 1, None)[0][1] if p in fixtures else UNKNOWN)
            out.append((label, (fixture.owner or self)._fixture_value(func, values, fixture.env or env)))
        return out

    def _fixture_value(self, func: ast.FunctionDef, values: list[Value], env: Env) -> Value:
        args = Args(values, [None] * len(values), False, {})
        if not self._generator(func):
            return self._walk(func, args, env, (), depth=1)
        at = next((i for i, s in enumerate(func.body) if isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield)), None)
        stmt = func.body[at] if at is not None else None
        yielded = stmt.value if isinstance(stmt, ast.Expr) else None
        if at is None or not isinstance(yielded, ast.Yield) or yielded.value is None:
            return UNKNOWN
        head = ast.FunctionDef(func.name, func.args, [*func.body[:at], ast.Return(yielded.value)], [], None, None)
        return self._walk(head, args, env, (), depth=1)
