"""Statements of a jit kernel's body that 0.2.0's frontend rejects or silently drops (rules:
kernel-no-while, kernel-parameter-rebind).

The frontend walks the kernel's tree (parser/parser.py): a ``while`` has no visitor (ParserError),
and a plain or augmented assignment to a name only rebinds the name in the parser's context
(``_assign_target``; ``out += y`` is evaluated as ``out = out + y``). Rebinding a tensor
parameter therefore never writes the tensor the caller passed in: when the new value is not
read afterwards, its ops are dropped from the graph and the output keeps what it had.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    AssignmentStmt,
    Decorator,
    ForStmt,
    FuncDef,
    ListExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    Statement,
    StarExpr,
    TupleExpr,
    WhileStmt,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import CallableType

from ..bridge.diagnostics import report
from ..knowledge.codes import kernel_codes as codes
from ..knowledge.findings import Finding
from .body_walk import blocks, expressions
from .signature import param_kind


def check_while(api: CheckerPluginInterface, deco: Decorator) -> None:
    """rule: kernel-no-while."""
    for s, _ in _walk(deco.func.body.body, ()):
        if isinstance(s, WhileStmt):
            report(api, Finding(
                codes.KERNEL_WHILE,
                f'jit kernel "{deco.func.name}" has a while loop; the 0.2.0 parser rejects it '
                "(ParserError: While is not supported by the PTO parser yet)",
                "loop a known number of times instead: for i in pypto.loop(n): ... (or for i in range(n) "
                "with an int n)",
            ), s)


def _walk(stmts: list[Statement], loops: tuple[Statement, ...]) -> Iterator[tuple[Statement, tuple[Statement, ...]]]:
    """Every statement in source order with the loops around it (nested definitions not entered)."""
    for s in stmts:
        yield s, loops
        if isinstance(s, (FuncDef, Decorator)):
            continue
        inner = loops + (s,) if isinstance(s, (ForStmt, WhileStmt)) else loops
        for b in blocks(s):
            yield from _walk(b.body, inner)


def _tensor_params(func: FuncDef) -> set[str]:
    sig = func.unanalyzed_type
    if not isinstance(sig, CallableType):
        return set()
    analyzed = func.type.arg_types if isinstance(func.type, CallableType) else []
    return {
        arg.variable.name
        for i, (arg, t) in enumerate(zip(func.arguments, sig.arg_types))
        if param_kind(analyzed[i] if i < len(analyzed) else None, t)
    }


def _bound_names(lvalue: Node) -> Iterator[NameExpr]:
    if isinstance(lvalue, NameExpr):
        yield lvalue
    elif isinstance(lvalue, (TupleExpr, ListExpr)):
        for item in lvalue.items:
            yield from _bound_names(item)
    elif isinstance(lvalue, StarExpr):
        yield from _bound_names(lvalue.expr)


def _reads(s: Statement, name: str) -> bool:
    """Does ``s`` (its own expressions, not its blocks) read ``name``? A plain name bound by an
    assignment is not a read; ``name[...] = v`` and ``name += v`` are."""
    roots: list[Node]
    if isinstance(s, AssignmentStmt):
        roots = [s.rvalue, *(lv for lv in s.lvalues if not isinstance(lv, (NameExpr, TupleExpr, ListExpr)))]
        for lv in s.lvalues:  # subscripts inside a tuple target read their base
            if isinstance(lv, (TupleExpr, ListExpr)):
                roots.extend(i for i in lv.items if not isinstance(i, NameExpr))
    else:
        roots = [s]
    for root in roots:
        for e in expressions(root):
            if isinstance(e, NameExpr) and e.name == name:
                return True
    return False


def check_parameter_rebind(api: CheckerPluginInterface, deco: Decorator) -> None:
    """rule: kernel-parameter-rebind: a tensor parameter rebound (``out = x``, ``out += x``)
    whose new value nothing reads afterwards (in source order, or anywhere in a loop around the
    rebinding, the rebinding statement itself included)."""
    func = deco.func
    params = _tensor_params(func)
    if not params:
        return
    walked = list(_walk(func.body.body, ()))
    for i, (s, loops) in enumerate(walked):
        if isinstance(s, OperatorAssignmentStmt) and isinstance(s.lvalue, NameExpr):
            targets = [s.lvalue]
        elif isinstance(s, AssignmentStmt) and not s.is_alias_def:
            targets = [n for lv in s.lvalues for n in _bound_names(lv)]
        else:
            continue
        for target in targets:
            name = target.name
            if name not in params:
                continue
            start = loops[0].line if loops else s.line
            # In a loop the statement itself reads what it bound on the next pass (out = t0 + out).
            later = [t for j, (t, _) in enumerate(walked) if j > i or (loops and t.line >= start)]
            if any(_reads(t, name) for t in later if not isinstance(t, (FuncDef, Decorator))):
                continue
            if isinstance(s, OperatorAssignmentStmt):
                form = f"{name} {s.op}= ..."
                fix = f"write into the tensor: {name}[:] = {name} {s.op} <value>"
            else:
                form = f"{name} = ..."
                fix = f"write into the tensor: {name}[:] = <value> (or {name}.move(<value>))"
            report(api, Finding(
                codes.PARAM_REBIND,
                f'jit kernel "{func.name}" rebinds its tensor parameter "{name}" ({form}) and never reads the new '
                f'value; 0.2.0 compiles it, but the tensor passed in as "{name}" is not written (the result is lost)',
                fix,
            ), s)
            break
