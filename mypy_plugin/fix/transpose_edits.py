"""The ``pypto-transpose`` edits: ``.T`` on a matmul operand becomes ``a_trans`` / ``b_trans``;
elsewhere, on a matrix under a rank-2 vec tile, ``pypto.transpose(x, 0, 1)``."""

from __future__ import annotations

import re
from typing import Final

import libcst as cst

from .cst_tools import build_call, replace, tile_in_force, with_keyword
from .findings import Finding
from .locate import Located, dotted

# The checker's note for a .T outside a matmul operand, when it knows the tensor's rank.
_RANK: Final = re.compile(r"^use pypto\.transpose\(.*\); it needs a vec tile of rank (?P<rank>\d+) ")


def transpose(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    node = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Attribute) and n.attr.value == "T")
    if not isinstance(node, cst.Attribute):
        return None
    arg = loc.parents.get(node)
    call = loc.parents.get(arg) if arg is not None else None
    if not isinstance(arg, cst.Arg) or not isinstance(call, cst.Call) or dotted(call.func) != f"{pypto}.matmul":
        return _standalone(loc, f, pypto, node)
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


def _standalone(loc: Located, f: Finding, pypto: str, node: cst.Attribute) -> cst.Module | None:
    """``x.T`` -> ``pypto.transpose(x, 0, 1)`` for a matrix only (torch's ``.T`` reverses every
    dim of a bigger tensor, which no single transpose does), and only when the vec tile in force
    is set in this function with two entries: 0.2.0's transpose needs a tile of the tensor's rank,
    and which tile to add is the author's choice."""
    rank = next((m["rank"] for m in map(_RANK.match, f.notes) if m), None)
    if rank != "2":
        return None
    tile = tile_in_force(loc, f.line, f"{pypto}.set_vec_tile_shapes")
    if tile is None or len(tile.args) != 2 or any(a.star or a.keyword for a in tile.args):
        return None
    fixed = build_call(f"{pypto}.transpose", node.value, cst.Integer("0"), cst.Integer("1"))
    return replace(loc, node, fixed)
