"""Local ``pypto.tensor(...)`` buffers that a whole write re-types (rule: move-retypes-local).

``buf[:] = x``, ``buf[...] = x`` and ``buf.move(x)`` hand ``x``'s storage to ``buf``: from there on
``buf`` has ``x``'s shape and dtype, whatever ``pypto.tensor(...)`` declared (0.2.0 compiles
``buf = pypto.tensor([8, 16], ...); buf[:] = a  # a: [8, 64]`` and later uses of ``buf`` as
[8, 64]). mypy keeps one type per variable, so such a buffer is given no shape and no dtype:
nothing about it is provable.
"""

from __future__ import annotations

import functools

from mypy.nodes import AssignmentStmt, CallExpr, ExpressionStmt, FuncDef, IndexExpr, MemberExpr, NameExpr
from mypy.types import CallableType

from ..bridge.tensor_types import tensor_val
from .body_walk import statements
from .local_linear import LinearNames
from .local_lists import ShapeLists
from .local_numbers import LocalNumbers
from .loop_defs import LoopDefs, loop_defs
from .use_after_move import Outputs, whole_key


class LocalBuffers:
    """For one function (the hooks keep the last one's: they come one function at a time): which
    assignment binds each call, which names receive a whole write somewhere in the function,
    which values a whole write moves into a parameter (an output), and which names hold tensors."""

    def __init__(self, func: FuncDef) -> None:
        self.func = func
        self.target: dict[int, str] = {}  # id(rvalue call) -> the name it is assigned to
        self.retyped: set[str] = set()
        self.into_output: set[int] = set()  # id of each call moved into an output as it is
        self.names_into_output: set[str] = set()  # names moved into an output
        self.stored_in: dict[int, str] = {}  # id of each value a whole write stores in a parameter -> it
        params = {a.variable.name for a in func.arguments}
        for s in statements(func.body.body):
            dest, value = None, None
            if isinstance(s, AssignmentStmt):
                if len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr) and isinstance(s.rvalue, CallExpr):
                    self.target[id(s.rvalue)] = s.lvalues[0].name
                for lv in s.lvalues:
                    if isinstance(lv, IndexExpr) and isinstance(lv.base, NameExpr) and whole_key(lv.index):
                        dest, value = lv.base.name, s.rvalue
            elif isinstance(s, ExpressionStmt) and isinstance(s.expr, CallExpr) and len(s.expr.args) == 1:
                callee = s.expr.callee
                if isinstance(callee, MemberExpr) and callee.name == "move" and isinstance(callee.expr, NameExpr):
                    dest, value = callee.expr.name, s.expr.args[0]
            if dest is None:
                continue
            self.retyped.add(dest)
            if dest in params:
                self.stored_in[id(value)] = dest
                if isinstance(value, CallExpr):
                    self.into_output.add(id(value))
                elif isinstance(value, NameExpr):
                    self.names_into_output.add(value.name)

    @functools.cached_property
    def shape_lists(self) -> ShapeLists:
        """The shape lists bound once in the function (asked by every op call with a name argument)."""
        return ShapeLists(self.func)

    @functools.cached_property
    def linear_names(self) -> LinearNames:
        """The index names bound once to int arithmetic (asked by every index with a slice)."""
        return LinearNames(self.func)

    @functools.cached_property
    def local_numbers(self) -> LocalNumbers:
        """The names bound once to number arithmetic (asked for an operand mypy types ``Any``)."""
        return LocalNumbers(self.func)

    @functools.cached_property
    def loop_defs(self) -> LoopDefs:
        """The values a name may hold at each read (asked for an operand mypy types as a union)."""
        return loop_defs(self.func)

    @functools.cached_property
    def outputs(self) -> Outputs:
        """Which names provably hold a PyPTO tensor (asked only for a region write into a local)."""
        return Outputs(self.func)

    def moved_into_output(self, call: object) -> bool:
        """Is ``call``'s result written whole into an output: ``out[:] = call`` or ``t = call`` and
        later ``out[:] = t`` / ``out.move(t)``?"""
        return id(call) in self.into_output or self.target.get(id(call)) in self.names_into_output

    def output_dtype(self, value: object) -> str | None:
        """The declared dtype of the parameter ``out[:] = value`` / ``out.move(value)`` stores
        ``value`` in (None: not such a write, or the dtype is not known)."""
        name = self.stored_in.get(id(value))
        typ = self.func.type
        if name is None or not isinstance(typ, CallableType):
            return None
        for arg, t in zip(self.func.arguments, typ.arg_types):
            if arg.variable.name == name:
                val = tensor_val(t)
                return val.dtype if val is not None else None
        return None

    def is_retyped(self, call: object) -> bool:
        """Is ``call`` the value of ``name = ...`` for a name some whole write re-types?"""
        name = self.target.get(id(call))
        return name is not None and name in self.retyped
