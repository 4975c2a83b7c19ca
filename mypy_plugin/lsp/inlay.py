"""Inlay hints after tensor assignments: `` [16, 1] FP32`` at the end of the statement (``a: [8] FP32,
b: [8] FP32`` after one that unpacks). A tensor not fully known is hidden by default; the
``inlayHints.unknown`` setting shows it (``show``), or shows the shapes of the calls the function
was checked again for (``callSites``)."""

from __future__ import annotations

from dataclasses import dataclass

from mypy.nodes import AssignmentStmt, Expression, FuncDef, ListExpr, MypyFile, NameExpr, StarExpr, TupleExpr

from .. import insight
from ..kernel.body_walk import statements
from ..knowledge.values import TensorVal
from .engine import Engine
from .hover import describe, known
from .lookup import functions


@dataclass(frozen=True)
class Hint:
    line: int  # mypy's: 1-based
    column: int  # 0-based, where the hint goes (the statement's end)
    label: str
    tooltip: str


def hints(engine: Engine, path: str, tree: MypyFile, unknown: str, first: int = 1, last: int = 1 << 30) -> list[Hint]:
    """The hints of the statements that end on lines ``first`` to ``last``."""
    out: list[Hint] = []
    for func in functions(tree):
        for s in statements(func.body.body):
            if not isinstance(s, AssignmentStmt) or s.end_line is None or not first <= s.end_line <= last:
                continue
            hint = _hint(engine, path, func, s, unknown)
            if hint is not None:
                out.append(hint)
    return out


def _targets(s: AssignmentStmt) -> list[NameExpr]:
    names: list[NameExpr] = []
    for lvalue in s.lvalues:
        items = lvalue.items if isinstance(lvalue, (TupleExpr, ListExpr)) else [lvalue]
        names += [i for i in items if isinstance(i, NameExpr)]
        names += [i.expr for i in items if isinstance(i, StarExpr) and isinstance(i.expr, NameExpr)]
    return names


def _hint(engine: Engine, path: str, func: FuncDef, s: AssignmentStmt, unknown: str) -> Hint | None:
    names = _targets(s)
    single = len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr)
    parts: list[str] = []
    tips: list[str] = []
    for name in names:
        val = _tensor(engine, name, s.rvalue if single else None)
        if val is None:
            continue
        text = describe(val, short=True)
        tip = [f"{name.name}: {describe(val)}"]
        if not known(val) and unknown == "hide":
            continue
        if not known(val) and unknown == "callSites":
            seen = _at_calls(path, func, name)
            if not seen:
                continue
            text = " | ".join(dict.fromkeys(describe(v, short=True) for _label, v in seen))
            tip = [f"{name.name} with {label}: {describe(v)}" for label, v in seen]
        parts.append(text if single else f"{name.name}: {text}")
        tips += tip
    if not parts:
        return None
    end = s.rvalue
    column = end.end_column if end.end_column is not None else end.column
    return Hint(end.end_line if end.end_line is not None else s.line, column, ", ".join(parts), "\n".join(tips))


def _tensor(engine: Engine, name: NameExpr, rvalue: Expression | None) -> TensorVal | None:
    val = insight.tensor_of(engine.type_of(name))
    if val is None and rvalue is not None:
        val = insight.tensor_of(engine.type_of(rvalue))
    return val


def _at_calls(path: str, func: FuncDef, name: NameExpr) -> list[tuple[str, TensorVal]]:
    where = insight.span(name)
    found = [(copy.label, copy.tensors.get(where)) for copy in insight.copies(path, func)]
    return [(label, v) for label, v in found if v is not None]
