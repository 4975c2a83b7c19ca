"""What a call does to the tile pass: the two tile setters, whether a helper, a method or a class
of the program may set tiles, and the calls that only read a list argument (the list stays followed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mypy.nodes import CallExpr, Decorator, FuncDef, MemberExpr, MypyFile, OverloadedFuncDef, RefExpr, TypeInfo
from mypy.types import (
    CallableType, Instance, LiteralType, NoneType, Overloaded, TupleType, Type, TypedDictType, TypeType, UnionType,
    get_proper_type,
)

from .body_walk import body_expressions
from .tile_receivers import Read, Receivers, real_info

SET_VEC: Final = "pypto.set_vec_tile_shapes"
SET_CUBE: Final = "pypto.set_cube_tile_shapes"
_LIST_READERS: Final = ("builtins.len", "builtins.list", "builtins.tuple")
_NOT_THE_PROGRAM: Final = ("pypto", "builtins", "typing", "torch", "numpy")


def may_set_tiles(func: FuncDef, module: MypyFile, modules: Mapping[str, MypyFile], read: Read) -> bool:
    """May the helper change the tiles: does its body call a tile setter, another function of
    this module (which may; the walk then computes what it does), a function of another module,
    a method or a class of the program, or a method of an object not known here?"""
    calls = TileCalls(func, module, modules, read)
    return any(isinstance(e, CallExpr) and calls.may_set(e, shallow=True) for e in body_expressions(func.body.body))


def reads_lists(call: CallExpr) -> bool:
    """Does ``call`` only read a list argument (the tile setters, a pypto op, len/list/tuple)?"""
    callee = call.callee
    return isinstance(callee, RefExpr) and bool(callee.fullname) and (
        callee.fullname.startswith("pypto.") or callee.fullname in _LIST_READERS)


class TileCalls:
    """What a call inside ``func`` (of ``module``) may do to the tiles."""

    def __init__(self, func: FuncDef, module: MypyFile, modules: Mapping[str, MypyFile], read: Read,
                 followed: frozenset[int] | None = None) -> None:
        self.module = module
        self.modules = modules
        self.read = read
        self.receivers = Receivers(func, modules, read, followed)
        self._shadowed: frozenset[str] | None = None

    def may_set(self, call: CallExpr, shallow: bool = False) -> bool:
        """May ``call`` change the tiles? ``shallow``: a method or class of the program counts as
        may (the caller then walks or asks again, one level deeper); otherwise its body decides.
        A same-module function is the flow's (it walks it): here it counts only when shallow."""
        callee = call.callee
        if not isinstance(callee, RefExpr):
            return True  # ``FNS[0](x)``, ``make()(x)``: a callee not known here
        if callee.fullname in (SET_VEC, SET_CUBE):
            return True
        node = callee.node
        if isinstance(node, TypeInfo):
            return self._class_call(node, shallow)
        if node is None and isinstance(callee, MemberExpr):
            return self._method(callee, shallow)
        func = node.func if isinstance(node, Decorator) else node
        if not isinstance(func, (FuncDef, OverloadedFuncDef)):
            return False  # a callable variable: as before
        if func.fullname.startswith(f"{self.module.fullname}."):
            return shallow
        return self._program(func.fullname.rsplit(".", 1)[0] if "." in func.fullname else "")

    def _program(self, owner: str) -> bool:
        """Is ``owner`` a module of the program (not a stub, nor pypto, builtins, typing, torch, numpy)?"""
        home = self.modules.get(owner)
        return home is not None and not home.is_stub and owner.split(".")[0] not in _NOT_THE_PROGRAM

    def _class_call(self, info: TypeInfo, shallow: bool) -> bool:
        """``Layout(8, 16)``: its ``__init__`` (``__new__``, ``__post_init__``) runs."""
        return any(self._member(info, name, shallow) for name in ("__new__", "__init__", "__post_init__")
                   if info.get(name) is not None)

    def _method(self, callee: MemberExpr, shallow: bool) -> bool:
        if isinstance(callee.expr, RefExpr) and isinstance(callee.expr.node, MypyFile):
            return False  # ``pypto.silu(x)``: no such name in the module (mypy says so); it raises
        typ = self.receivers.type_of(callee.expr)
        if typ is None:
            return self._unknown(callee.name)
        return self._on_type(typ, callee.name, shallow)

    def _on_type(self, typ: Type, name: str, shallow: bool) -> bool:
        t = get_proper_type(typ)
        if isinstance(t, UnionType):
            return any(self._on_type(i, name, shallow) for i in t.items)
        if isinstance(t, TypeType):
            t = t.item
        if isinstance(t, TupleType):
            t = t.partial_fallback
        if isinstance(t, (TypedDictType, LiteralType)):
            t = t.fallback
        if isinstance(t, (NoneType, CallableType, Overloaded)):
            return False
        if isinstance(t, Instance):
            return self._member(t.type, name, shallow)
        return self._unknown(name)  # Any, an unbound type variable ...

    def _member(self, info: TypeInfo, name: str, shallow: bool) -> bool:
        """A method of an object of the program that may set tiles (a method of another module
        may: its body is traced from its source, not walked here; one of this module may when it
        calls a setter, a function of its module or a method or class of the program)."""
        if not self._program(info.module_name):
            return False
        sym = info.get(name)
        node = sym.node if sym is not None else None
        func = node.func if isinstance(node, Decorator) else node
        if not isinstance(func, FuncDef):
            return True  # an attribute holding a callable, an overload, ``__getattr__``
        owner = real_info(func.info)
        if owner is not None and not self._program(owner.module_name):
            return False  # inherited from a class that is not the program's
        if shallow or owner is None or owner.module_name != self.module.fullname:
            return True
        self.read(func, "body")
        return may_set_tiles(func, self.module, self.modules, self.read)

    def _unknown(self, name: str) -> bool:
        """A receiver whose type is not known here: it may be an object of the program, unless the
        method is one of pypto's Tensor (``x.sum()`` on an unannotated parameter) that no class of
        this module defines."""
        tensor = self.modules.get("pypto")
        sym = tensor.names.get("Tensor") if tensor is not None else None
        members = sym.node.names if sym is not None and isinstance(sym.node, TypeInfo) else {}
        if name not in members or name.startswith("__"):
            return True
        if self._shadowed is None:
            self._shadowed = frozenset(
                n for s in self.module.names.values() if isinstance(s.node, TypeInfo)
                and s.node.module_name == self.module.fullname for n in s.node.names)
        return name in self._shadowed
