"""What a call does to the tile pass: the two tile setters, whether a helper may set tiles, and
the calls that only read a list argument (the list stays followed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mypy.nodes import CallExpr, Decorator, FuncDef, MemberExpr, MypyFile, NameExpr, RefExpr, Var
from mypy.types import Instance, get_proper_type

from .body_walk import body_expressions

SET_VEC: Final = "pypto.set_vec_tile_shapes"
SET_CUBE: Final = "pypto.set_cube_tile_shapes"
_LIST_READERS: Final = ("builtins.len", "builtins.list", "builtins.tuple")
_NOT_THE_PROGRAM: Final = ("pypto", "builtins", "typing", "torch", "numpy")


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


def method_may_set_tiles(callee: MemberExpr, modules: Mapping[str, MypyFile], module: str) -> bool:
    """``obj.method()`` on an object of a class of the program (``LAYOUT.tile()``, ``self.setup()``):
    may it change the tiles? A method of another module may (its body is traced from its source,
    not walked here: the tiles after it are unknown, as after another module's function); one of
    this module may when it calls a setter, a function of this module or a method of its own
    object. A tensor's method, or an object of a type not known here, changes nothing (as before)."""
    receiver = callee.expr.node if isinstance(callee.expr, RefExpr) else None  # (``pkg.layout.LAYOUT`` too)
    typ = get_proper_type(receiver.type) if isinstance(receiver, Var) and receiver.type is not None else None
    if not isinstance(typ, Instance):
        return False
    owner = typ.type.module_name
    home = modules.get(owner)
    if home is None or home.is_stub or owner.split(".")[0] in _NOT_THE_PROGRAM:
        return False
    method = typ.type.get_method(callee.name)
    func = method.func if isinstance(method, Decorator) else method
    if owner != module or not isinstance(func, FuncDef) or may_set_tiles(func, module):
        return True
    own = func.arg_names[0] if func.arg_names and not func.is_static else None
    return own is not None and any(
        isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr) and isinstance(e.callee.expr, NameExpr)
        and e.callee.expr.name == own for e in body_expressions(func.body.body))
