"""Types of the names the source rewrite writes into annotations: module constants that know
their value, and the None a jit kernel returns (``kernel_returns.py``).

``ROWS = 8`` in a PyPTO module is rewritten to ``ROWS: _PyptoStubsConst[8] = 8`` (tuples:
``_PyptoStubsConstTuple[8, 4]``), and this hook makes that ``int`` with the last known value 8
(mypy's ``Literal[8]?``, the type a ``Final`` constant gets). Why not ``Final``: a final name
cannot be assigned, so ``dims.ROWS = 4`` or ``from dims import *; ROWS = 16`` in another module
became errors that mypy alone does not give. The value in the declared type is enough: dims read
it, it is part of the module's interface (a changed value rechecks its users, warm and daemon),
and any int may still be assigned to the name.

All the aliases import ``typing.ForwardRef``: the rewrite needs a name every mypy resolves in every
Python version, whose analysis the plugin may take over (type-analyze hooks run before any of
mypy's own handling); a class nobody writes as an annotation. Any other spelling of it is
analysed as mypy would (the one message mypy gives for it included).
"""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import TYPE_ARG
from mypy.nodes import (
    AssignmentStmt,
    Block,
    Expression,
    ForStmt,
    IfStmt,
    ListExpr,
    MypyFile,
    NameExpr,
    OperatorAssignmentStmt,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    WhileStmt,
    WithStmt,
)
from mypy.plugin import AnalyzeTypeContext
from mypy.types import Instance, LiteralType, NoneType, RawExpressionType, TupleType, Type

from .annotation_edits import CONST_ALIAS, CONST_MARKER, CONST_TUPLE_ALIAS
from .kernel_returns import KERNEL_RETURN_ALIAS
from .module_marker import ALIAS as MODULE_ALIAS
from .module_marker import DIGEST_ALIAS

MARKER_FULLNAME: Final = f"typing.{CONST_MARKER}"


def analyze_marker(ctx: AnalyzeTypeContext) -> Type:
    name = ctx.type.name
    if name in (KERNEL_RETURN_ALIAS, MODULE_ALIAS):
        return NoneType()
    if name == DIGEST_ALIAS:  # the module's source digest (module_marker.py): an int that knows it
        args = ctx.type.args
        int_type = ctx.api.named_type("builtins.int", [])
        if len(args) == 1 and isinstance(args[0], RawExpressionType) and type(args[0].literal_value) is int:
            return int_type.copy_modified(last_known_value=LiteralType(args[0].literal_value, int_type))
        return int_type
    if name not in (CONST_ALIAS, CONST_TUPLE_ALIAS):
        return _as_mypy_would(ctx)
    int_type = ctx.api.named_type("builtins.int", [])
    items: list[Type] = []
    for arg in ctx.type.args:
        if not isinstance(arg, RawExpressionType) or type(arg.literal_value) is not int:
            return int_type  # not what the rewrite writes: the value is unknown, the type is not
        items.append(int_type.copy_modified(last_known_value=LiteralType(arg.literal_value, int_type)))
    if name == CONST_ALIAS:
        return items[0] if len(items) == 1 else int_type
    return TupleType(items, ctx.api.named_type("builtins.tuple", [int_type]))


def _as_mypy_would(ctx: AnalyzeTypeContext) -> Instance:
    if ctx.type.args:
        n = len(ctx.type.args)
        ctx.api.fail(f'"{CONST_MARKER}" expects no type arguments, but {n} given', ctx.context, code=TYPE_ARG)
    return ctx.api.named_type(MARKER_FULLNAME, [])


def assigned_at_top_level(module: MypyFile) -> set[str]:
    """Names the module's top-level statements (not its functions or classes) assign."""
    names: set[str] = set()
    blocks: list[list[Statement]] = [module.defs]
    while blocks:
        for stmt in blocks.pop():
            if isinstance(stmt, AssignmentStmt):
                targets: list[Expression] = list(stmt.lvalues)
            elif isinstance(stmt, (OperatorAssignmentStmt, ForStmt)):
                targets = [stmt.lvalue if isinstance(stmt, OperatorAssignmentStmt) else stmt.index]
            else:
                targets = []
            while targets:
                t = targets.pop()
                if isinstance(t, NameExpr):
                    names.add(t.name)
                elif isinstance(t, (TupleExpr, ListExpr)):
                    targets.extend(t.items)
                elif isinstance(t, StarExpr):
                    targets.append(t.expr)
            if isinstance(stmt, (IfStmt, WhileStmt, ForStmt, WithStmt, TryStmt)):
                blocks.extend(_blocks(stmt))
    return names


def _blocks(stmt: Statement) -> list[list[Statement]]:
    found: list[Block | None] = []
    if isinstance(stmt, IfStmt):
        found += [*stmt.body, stmt.else_body]
    elif isinstance(stmt, (WhileStmt, ForStmt)):
        found += [stmt.body, stmt.else_body]
    elif isinstance(stmt, WithStmt):
        found.append(stmt.body)
    elif isinstance(stmt, TryStmt):
        found += [stmt.body, *stmt.handlers, stmt.else_body, stmt.finally_body]
    return [b.body for b in found if b is not None]
