"""The ``pypto-transpose`` edits: ``.T`` on a matmul operand becomes ``a_trans`` / ``b_trans``."""

from __future__ import annotations

import libcst as cst

from .cst_tools import replace, with_keyword
from .findings import Finding
from .locate import Located, dotted


# ---- pypto-transpose: `.T` on a matmul operand becomes a_trans / b_trans ----------------------

def transpose(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    node = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Attribute) and n.attr.value == "T")
    if not isinstance(node, cst.Attribute):
        return None
    arg = loc.parents.get(node)
    call = loc.parents.get(arg) if arg is not None else None
    if not isinstance(arg, cst.Arg) or not isinstance(call, cst.Call) or dotted(call.func) != f"{pypto}.matmul":
        return None
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if arg.keyword is not None:
        flag = {"input": "a_trans", "mat2": "b_trans"}.get(arg.keyword.value)
    else:
        flag = {0: "a_trans", 1: "b_trans"}.get(positional.index(arg)) if arg in positional else None
    if flag is None:
        return None
    current = next((a for a in call.args if a.keyword is not None and a.keyword.value == flag), None)
    fixed_arg = arg.with_changes(value=node.value)
    args = [fixed_arg if a is arg else a for a in call.args]
    if current is None:
        new_call = with_keyword(call.with_changes(args=args), flag, cst.Name("True"))
    elif isinstance(current.value, cst.Name) and current.value.value in ("True", "False"):
        flipped = "False" if current.value.value == "True" else "True"
        args = [a.with_changes(value=cst.Name(flipped)) if a is current else a for a in args]
        new_call = call.with_changes(args=args)
    else:
        return None  # a flag computed at run time: flipping it is the user's call
    return replace(loc, call, new_call)
