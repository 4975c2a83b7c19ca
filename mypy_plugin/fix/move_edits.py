"""pypto-use-after-move: write the output after the last read instead of before it.

``gate[:] = g`` hands ``g``'s storage to ``gate``; a later ``g * 0.5`` reads an empty tensor.
Moving the write below the last statement of the same block that reads ``g`` keeps every value
the kernel computes: nothing in between may mention the output, bind ``g`` again, or leave the
block early (``break`` / ``continue`` / ``return`` / ``raise``). A read in an earlier loop
iteration, a move in a branch read after it, or a multi-statement line: no fix.
"""

from __future__ import annotations

import re
from typing import Final

import libcst as cst

from .cst_tools import names_in, replace
from .findings import Finding
from .locate import Located

_MOVED: Final = re.compile(r'^"(?P<name>\w+)" is empty here: line (?P<line>\d+) moved it into "(?P<dest>\w+)" \(.*?\)(?P<loop> in an earlier loop iteration)?;')
_LEAVES: Final = (cst.Break, cst.Continue, cst.Return, cst.Raise)


def use_after_move(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    m = _MOVED.match(f.message)
    if m is None or m["loop"]:
        return None
    name, dest, line = m["name"], m["dest"], int(m["line"])
    move = next((n for n, where in loc.positions.items()
                 if isinstance(n, cst.SimpleStatementLine) and where.start.line == line == where.end.line), None)
    if move is None or len(move.body) != 1 or not _moves(move.body[0], dest, name):
        return None
    block = loc.parents.get(move)
    if not isinstance(block, (cst.IndentedBlock, cst.Module)):
        return None
    body = list(block.body)
    i = body.index(move)
    readers = [k for k in range(i + 1, len(body)) if name in names_in(body[k])]
    if not readers or not any(_spans(loc, body[k], f.line) for k in readers):
        return None  # the read is not in this block (the move sits in a branch)
    last = readers[-1]
    between = body[i + 1:last + 1]
    if any(dest in names_in(s) or name in _bound(s) or _leaves(s) for s in between):
        return None
    new_body = body[:i] + between + [move] + body[last + 1:]
    return replace(loc, block, block.with_changes(body=new_body))


def _moves(small: cst.BaseSmallStatement, dest: str, name: str) -> bool:
    """``dest[...] = name`` or ``dest.move(name)``."""
    if isinstance(small, cst.Assign):
        return (len(small.targets) == 1 and isinstance(t := small.targets[0].target, cst.Subscript)
                and isinstance(t.value, cst.Name) and t.value.value == dest
                and isinstance(small.value, cst.Name) and small.value.value == name)
    if isinstance(small, cst.Expr) and isinstance(call := small.value, cst.Call):
        return (isinstance(call.func, cst.Attribute) and call.func.attr.value == "move"
                and isinstance(call.func.value, cst.Name) and call.func.value.value == dest
                and len(call.args) == 1 and isinstance(call.args[0].value, cst.Name)
                and call.args[0].value.value == name)
    return False


def _spans(loc: Located, stmt: cst.CSTNode, line: int) -> bool:
    where = loc.positions.get(stmt)
    return where is not None and where.start.line <= line <= where.end.line


def _bound(node: cst.CSTNode) -> set[str]:
    """Names a statement may bind: assignment, for, with, walrus, del, import and def targets."""
    found: set[str] = set()

    def targets(t: cst.CSTNode) -> None:
        found.update(names_in(t))

    class _Visitor(cst.CSTVisitor):
        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            targets(n.target)

        def visit_AugAssign(self, n: cst.AugAssign) -> None:
            targets(n.target)

        def visit_AnnAssign(self, n: cst.AnnAssign) -> None:
            targets(n.target)

        def visit_For(self, n: cst.For) -> None:
            targets(n.target)

        def visit_AsName(self, n: cst.AsName) -> None:
            targets(n.name)

        def visit_NamedExpr(self, n: cst.NamedExpr) -> None:
            targets(n.target)

        def visit_Del(self, n: cst.Del) -> None:
            targets(n.target)

        def visit_CompFor(self, n: cst.CompFor) -> None:
            targets(n.target)

        def visit_FunctionDef(self, n: cst.FunctionDef) -> None:
            found.add(n.name.value)

    node.visit(_Visitor())
    return found


def _leaves(node: cst.CSTNode) -> bool:
    """Does the statement hold a break / continue / return / raise (anywhere: conservative)?"""
    hit = False

    class _Visitor(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal hit
            hit = hit or isinstance(n, _LEAVES)
            return not hit

    node.visit(_Visitor())
    return hit
