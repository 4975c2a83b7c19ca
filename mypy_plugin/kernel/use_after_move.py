"""``pypto-use-after-move``: a tensor written into an output is empty afterwards (rule: move-empties-source).

``out[:] = t``, ``out[...] = t`` and ``out.move(t)`` hand ``t``'s storage to ``out``; reading
``t`` again fails at trace time with ``ValueError: Empty tensor.`` (or SIGSEGV in a reduction).
Assembling into a slice (``out[a:b, :] = t``) does not move, and only a PyPTO tensor moves into
a PyPTO tensor (``prev[:] = t`` on a Python list copies references). One pass over a kernel's body in
program order: branches merge (a name moved on any path counts), loop bodies are walked twice
so a move late in the body meets a read early in the next iteration, and assigning the name
again clears it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    Decorator,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    IndexExpr,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    RefExpr,
    SliceExpr,
    Statement,
    TempNode,
    TupleExpr,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import AnyType, CallableType, TypeOfAny

from ..bridge.diagnostics import report
from ..bridge.tensor_types import is_tensor
from ..knowledge.codes import kernel_codes as codes
from ..knowledge.findings import Finding
from ..knowledge.ops import OPS
from .body_walk import child_exprs, comprehension_names, statements
from .program_order import ProgramOrder


@dataclass(frozen=True)
class _Move:
    line: int
    target: str  # the output written, for the message
    how: str  # "o1[:] = t" / "o1.move(t)"


Moved = dict[str, _Move]


def whole_key(key: Expression) -> bool:
    """``[:]``, ``[:, :]``: a move (``Tensor._is_empty_slice``); ``[...]`` is an assemble, which
    leaves the value as it is (probed: rule move-empties-source)."""
    items = key.items if isinstance(key, TupleExpr) else [key]
    return bool(items) and all(
        isinstance(i, SliceExpr) and i.begin_index is None and i.end_index is None and i.stride is None
        for i in items
    )


def _name(e: Expression | None) -> str | None:
    return e.name if isinstance(e, NameExpr) else None


def _reads(e: Node | None) -> Iterator[NameExpr]:
    """Names read by an expression, in source order (not inside lambdas, not a comprehension's
    own ``for`` names inside it)."""
    stack: list[tuple[Node, frozenset[str]]] = [(e, frozenset())] if e is not None else []
    while stack:
        n, shadowed = stack.pop()
        if isinstance(n, NameExpr):
            if n.name not in shadowed:
                yield n
            continue
        inner = shadowed | comprehension_names(n)
        stack.extend((c, inner) for c in reversed(child_exprs(n)))


class Outputs:
    """Which names provably hold a PyPTO tensor, for a destination. Asked where mypy applies the
    decorator, before it checks the body: parameters have their declared types, locals only
    their assignments, so a local counts when every assignment to it is a ``pypto.*`` call."""

    def __init__(self, func: FuncDef) -> None:
        self.params: dict[str, bool] = {}
        analyzed = func.type.arg_types if isinstance(func.type, CallableType) else []
        for i, arg in enumerate(func.arguments):
            self.params[arg.variable.name] = i < len(analyzed) and is_tensor(analyzed[i])
        self.assigned: dict[str, list[Expression]] = {}
        for a in _assignments(func.body.body):
            for lv in a.lvalues:
                for t in lv.items if isinstance(lv, TupleExpr) else [lv]:
                    n = _name(t)
                    if n is not None:
                        # a tuple target or a chain a = b = ... gets an unknown value
                        simple = isinstance(lv, NameExpr) and len(a.lvalues) == 1
                        self.assigned.setdefault(n, []).append(a.rvalue if simple else TempNode(AnyType(TypeOfAny.special_form)))

    def tensor(self, e: Expression) -> str | None:
        """The name if it provably holds a PyPTO tensor (a list, Any or anything unknown: None)."""
        name = _name(e)
        if name is None:
            return None
        if name in self.params:
            return name if self.params[name] and name not in self.assigned else None
        values = self.assigned.get(name)
        if values and all(_pypto_call(v) for v in values):
            return name
        return None


def _pypto_call(e: Expression) -> bool:
    """``pypto.tensor(...)``, ``pypto.full(...)``, ``pypto.exp(x)`` ...: a call that returns one tensor."""
    if not (isinstance(e, CallExpr) and isinstance(e.callee, RefExpr) and e.callee.fullname.startswith("pypto.")):
        return False
    name = e.callee.fullname[len("pypto."):]
    return name in ("tensor", "Tensor") or (name in OPS and not name.startswith("__") and name != "topk")


def _assignments(stmts: list[Statement]) -> Iterator[AssignmentStmt]:
    """Every assignment in a body, nested blocks included (not nested functions)."""
    return (s for s in statements(stmts) if isinstance(s, AssignmentStmt))


class _Walker(ProgramOrder[Moved]):
    def __init__(self, api: CheckerPluginInterface, outputs: Outputs) -> None:
        self.api = api
        self.outputs = outputs
        # One error per name and line: ``t + t + ... + t`` is one mistake, and thousands of
        # errors on one line cost mypy quadratic time (it de-duplicates each line's errors).
        self.reported: set[tuple[str, int]] = set()

    def _check(self, e: Node | None, moved: Moved) -> None:
        if not moved:
            return  # nothing moved yet on this path: nothing to look for
        for n in _reads(e):
            m = moved.get(n.name)
            if m is None or (n.name, n.line) in self.reported:
                continue
            self.reported.add((n.name, n.line))
            when = " in an earlier loop iteration" if m.line >= n.line else ""
            report(self.api, Finding(
                codes.USE_AFTER_MOVE,
                f'"{n.name}" is empty here: line {m.line} moved it into "{m.target}" ({m.how}){when}; reading it '
                'again fails at trace time with "ValueError: Empty tensor." (a reduction crashes with SIGSEGV)',
                f"compute it again, write a copy into the first output ({m.target}[:] = pypto.clone({n.name})), "
                f'or read the output "{m.target}" instead',
            ), n)

    # --- the flow (control flow is ProgramOrder's) -----------------------------------
    def join(self, a: Moved, b: Moved) -> Moved:
        """Moved on any path counts (a may-analysis); the first move named wins."""
        return {**b, **a}

    def expr(self, e: Expression, moved: Moved) -> Moved:
        self._check(e, moved)
        return moved

    def loop_target(self, s: ForStmt, moved: Moved) -> Moved:
        return self._rebind(moved, s.index.items if isinstance(s.index, TupleExpr) else [s.index])

    @staticmethod
    def _rebind(moved: Moved, targets: list[Expression]) -> Moved:
        names = [n for n in map(_name, targets) if n is not None and n in moved]
        if not names:
            return moved
        moved = dict(moved)
        for n in names:
            moved.pop(n)  # assigned again: a new tensor
        return moved

    def simple(self, s: Statement, moved: Moved) -> Moved:
        if isinstance(s, AssignmentStmt):
            self._check(s.rvalue, moved)
            for lv in s.lvalues:
                if isinstance(lv, IndexExpr):
                    self._check(lv.base if not isinstance(lv.base, NameExpr) else None, moved)
                    self._check(lv.index, moved)
            for lv in s.lvalues:
                moved = self._rebind(moved, lv.items if isinstance(lv, TupleExpr) else [lv])
            src = _name(s.rvalue)
            if src is not None and len(s.lvalues) == 1:
                lv = s.lvalues[0]
                dest = self.outputs.tensor(lv.base) if isinstance(lv, IndexExpr) else None
                if isinstance(lv, IndexExpr) and dest is not None and whole_key(lv.index):
                    moved = {**moved, src: _Move(s.line, dest, f"{dest}[:] = {src}")}
            return moved
        if isinstance(s, OperatorAssignmentStmt):
            self._check(s.rvalue, moved)
            self._check(s.lvalue, moved)
            return self._rebind(moved, [s.lvalue])
        if isinstance(s, ExpressionStmt):
            self._check(s.expr, moved)
            e = s.expr
            if isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr) and e.callee.name == "move" and len(e.args) == 1:
                dest, src = self.outputs.tensor(e.callee.expr), _name(e.args[0])
                if dest is not None and src is not None:
                    moved = {**moved, src: _Move(s.line, dest, f"{dest}.move({src})")}
            return moved
        for e in child_exprs(s):
            self._check(e, moved)
        return moved


def check_moves(api: CheckerPluginInterface, deco: Decorator) -> None:
    func = deco.func
    _Walker(api, Outputs(func)).block(func.body.body, {})
