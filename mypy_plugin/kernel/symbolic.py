"""Which expressions of one kernel are provably a SymbolicScalar with no value while the frontend
traces it (rule: dynamic-dim-not-concrete): a dynamic dim of the annotations (``x.shape[i]`` of a
tensor parameter the kernel never rebinds), the index of ``pypto.loop`` (probed: ``min(idx + 1, 4)``
raises ``ValueError: Not concrete value``), names bound once from such an expression
(``n, d = x.shape``), and arithmetic, comparisons and ``.min()`` / ``.max()`` of those."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    ComparisonExpr,
    Decorator,
    Expression,
    ForStmt,
    IndexExpr,
    IntExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    RefExpr,
    TupleExpr,
    UnaryExpr,
)

from ..knowledge.shapes import Dim, dynamic_axes, fmt_dim, is_dynamic
from .body_walk import assignment_counts, statements
from .local_buffers import LocalBuffers
from .parameters import kernel_parameters

_LOOP: Final = "pypto.loop"
_ARITH: Final = frozenset({"+", "-", "*", "/", "//", "%"})
DIM: Final = "a dynamic dim"
LOOP_INDEX: Final = "a pypto.loop index"


@dataclass(frozen=True)
class Symbol:
    text: str  # as written, with the annotation's dim: "x.shape[0] (DYNAMIC)", "n (= x.shape[0] (DYNAMIC))", "idx"
    kind: str  # DIM or LOOP_INDEX


class SymbolicValues:
    """The symbols of one kernel (the module docstring says which), each described as written."""

    def __init__(self, deco: Decorator) -> None:
        self.params: dict[str, tuple[Dim, ...]] = {}
        self.names: dict[str, Symbol] = {}
        params = kernel_parameters(deco.func)
        dynamic = params is not None and any(dynamic_axes(v.shape) for v in params.declared)
        loops = [s for s in statements(deco.func.body.body) if isinstance(s, ForStmt) and _loop_index(s) is not None]
        if not dynamic and not loops:
            return  # most kernels: nothing symbolic to follow, no walk
        assigned = _assignment_counts(deco)
        if params is not None and dynamic:
            retyped = LocalBuffers(deco.func).retyped  # ``x[:] = v`` gives x v's shape (rule: move-retypes-local)
            for p, val in zip(params.spec.tensors, params.declared):
                if val.shape is not None and p.name not in assigned and p.name not in retyped:
                    self.params[p.name] = val.shape
        for loop in loops:
            index = _loop_index(loop)
            if index is not None and assigned.get(index.name) == 1:
                self.names[index.name] = Symbol(index.name, LOOP_INDEX)
        for s in statements(deco.func.body.body):
            if isinstance(s, AssignmentStmt) and len(s.lvalues) == 1:
                self._bind(s.lvalues[0], s.rvalue, assigned)

    def __bool__(self) -> bool:
        return bool(self.params or self.names)

    def _bind(self, target: Expression, value: Expression, assigned: Mapping[str, int]) -> None:
        if isinstance(target, NameExpr) and assigned.get(target.name) == 1:
            described = self.of(value)
            if described is not None and target.name not in self.names:
                self.names[target.name] = described
        elif isinstance(target, TupleExpr) and isinstance(value, MemberExpr) and value.name == "shape":
            dims = self.param_dims(value.expr)
            if dims is not None and len(dims) == len(target.items):
                for i, item in enumerate(target.items):
                    if isinstance(item, NameExpr) and assigned.get(item.name) == 1 and is_dynamic(dims[i]):
                        self.names[item.name] = Symbol(f"{item.name} (= {_dim_text(value.expr, i, dims)})", DIM)

    def param_dims(self, e: Expression) -> tuple[Dim, ...] | None:
        return self.params.get(e.name) if isinstance(e, NameExpr) else None

    def of(self, e: Expression) -> Symbol | None:
        """The symbol ``e`` is (or does arithmetic on); None otherwise."""
        if isinstance(e, NameExpr):
            return self.names.get(e.name)
        if isinstance(e, IndexExpr) and isinstance(e.base, MemberExpr) and e.base.name == "shape":
            dims = self.param_dims(e.base.expr)
            index = int_of(e.index)
            if dims is None or index is None or not -len(dims) <= index < len(dims) or not is_dynamic(dims[index]):
                return None
            return Symbol(_dim_text(e.base.expr, index, dims), DIM)
        if isinstance(e, OpExpr) and e.op in _ARITH:
            return self.of(e.left) or self.of(e.right)
        if isinstance(e, ComparisonExpr):
            return next((d for d in map(self.of, e.operands) if d is not None), None)
        if isinstance(e, UnaryExpr) and e.op == "-":
            return self.of(e.expr)
        if isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr) and e.callee.name in ("min", "max"):
            return self.of(e.callee.expr)
        return None


def _loop_index(s: ForStmt) -> NameExpr | None:
    """``idx`` of ``for idx in pypto.loop(...)``."""
    call = s.expr
    if not (isinstance(call, CallExpr) and isinstance(call.callee, RefExpr) and call.callee.fullname == _LOOP):
        return None
    return s.index if isinstance(s.index, NameExpr) else None


def _dim_text(tensor: Expression, index: int, dims: tuple[Dim, ...]) -> str:
    name = tensor.name if isinstance(tensor, NameExpr) else "x"
    return f"{name}.shape[{index}] ({fmt_dim(dims[index])})"


def int_of(e: Expression) -> int | None:
    if isinstance(e, IntExpr):
        return e.value
    if isinstance(e, UnaryExpr) and e.op == "-" and isinstance(e.expr, IntExpr):
        return -e.expr.value
    return None


def _assignment_counts(deco: Decorator) -> Mapping[str, int]:
    """How often each name is bound in the kernel."""
    return assignment_counts(deco.func)


