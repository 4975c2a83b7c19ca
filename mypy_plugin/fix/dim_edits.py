"""The ``pypto-not-concrete`` edit: ``min(x.shape[0], 8)`` on a dynamic dim becomes the symbolic
method ``x.shape[0].min(8)`` (``max`` likewise), which 0.2.0 traces (rule: dynamic-dim-not-concrete).
The other builtins have no single equivalent and are left."""

from __future__ import annotations

import ast
import re
from typing import Final

import libcst as cst

from .cst_tools import replace
from .findings import Finding
from .locate import Located

# The checker's note: "use the symbolic method: <dynamic argument>.min(<other argument>)".
_NOTE: Final = re.compile(r"^use the symbolic method: (?P<receiver>.+)\.(?P<method>min|max)\(")
_ATOMS: Final = (cst.Name, cst.Attribute, cst.Subscript, cst.Call)  # need no parentheses as a receiver


def not_concrete(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    match = next((m for m in map(_NOTE.match, f.notes) if m), None)
    if match is None:
        return None
    method = match["method"]
    call = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Call) and isinstance(n.func, cst.Name)
                  and n.func.value == method)
    if not isinstance(call, cst.Call) or len(call.args) != 2 or any(a.keyword or a.star for a in call.args):
        return None
    codes = [loc.module.code_for_node(a.value) for a in call.args]
    wanted = _normal(match["receiver"])
    which = [i for i, code in enumerate(codes) if _normal(code) == wanted]
    if len(which) != 1:
        return None
    receiver, other = call.args[which[0]].value, call.args[1 - which[0]].value
    if not isinstance(receiver, _ATOMS):
        receiver = receiver.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    fixed = cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(method)), args=[cst.Arg(other)])
    return replace(loc, call, fixed)


def _normal(code: str) -> str | None:
    """One spelling of an expression (parentheses and spaces as ``ast.unparse`` writes them)."""
    try:
        return ast.unparse(ast.parse(code.strip(), mode="eval"))
    except SyntaxError:
        return None
