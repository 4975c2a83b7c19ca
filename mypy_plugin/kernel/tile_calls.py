"""What a call does to the tile pass: the two tile setters, whether a helper may set tiles, and
the calls that only read a list argument (the list stays followed)."""

from __future__ import annotations

from typing import Final

from mypy.nodes import CallExpr, FuncDef, RefExpr

from .body_walk import body_expressions

SET_VEC: Final = "pypto.set_vec_tile_shapes"
SET_CUBE: Final = "pypto.set_cube_tile_shapes"
_LIST_READERS: Final = ("builtins.len", "builtins.list", "builtins.tuple")


def may_set_tiles(func: FuncDef, module: str) -> bool:
    """May the helper change the tiles: does its body call a tile setter, or another function of
    this module (which may; the walk then computes what it does)?"""
    for e in body_expressions(func.body.body):
        if isinstance(e, CallExpr) and isinstance(e.callee, RefExpr):
            name = e.callee.fullname or ""
            if name in (SET_VEC, SET_CUBE) or name.startswith(f"{module}."):
                return True
    return False


def reads_lists(call: CallExpr) -> bool:
    """Does ``call`` only read a list argument (the tile setters, a pypto op, len/list/tuple)?"""
    callee = call.callee
    return isinstance(callee, RefExpr) and bool(callee.fullname) and (
        callee.fullname.startswith("pypto.") or callee.fullname in _LIST_READERS)
