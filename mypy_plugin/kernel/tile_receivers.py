"""What a method call's receiver is, for the tile pass (``get_layout().tile()``, ``CFG.layout.tile()``,
``LAYOUTS[0].tile()``, ``self.layouts[i].tile()``): its type, read from mypy's symbol tables and the
function's own bindings. Never from the types mypy infers for the function's locals while it
checks the body: the pass runs at the body's first op, before the rest is typed, so those would
depend on when it ran. None: not known."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import (
    AssignmentStmt, BytesExpr, CallExpr, ComplexExpr, Decorator, DictExpr,
    DictionaryComprehension, Expression, FakeInfo, FloatExpr, FuncBase, FuncDef, IndexExpr, IntExpr, ListComprehension,
    ListExpr, MemberExpr, MypyFile, NameExpr, OpExpr, OverloadedFuncDef, RefExpr, SetComprehension, SetExpr,
    SliceExpr, StrExpr, TupleExpr, TypeInfo, UnaryExpr, Var,
)
from mypy.typevars import fill_typevars_with_any
from mypy.types import (
    CallableType, Instance, LiteralType, Overloaded, ProperType, TupleType, Type, TypedDictType, TypeType,
    UnboundType, UnionType, get_proper_type, has_type_vars,
)

from .body_walk import statements
from .copies import followed_vars_of
from .tile_values import unpacked_names

Read = Callable[[object, str], object]

_MAX_DEPTH: Final = 8
_LITERALS: Final[Mapping[type, str]] = {
    StrExpr: "builtins.str", BytesExpr: "builtins.bytes", IntExpr: "builtins.int", FloatExpr: "builtins.float",
    ComplexExpr: "builtins.complex", ListExpr: "builtins.list", ListComprehension: "builtins.list",
    DictExpr: "builtins.dict", DictionaryComprehension: "builtins.dict", SetExpr: "builtins.set",
    SetComprehension: "builtins.set", TupleExpr: "builtins.tuple",
}
# an item of a container: (the class it is mapped to, which type argument the item is)
_ITEMS: Final = (("typing.Mapping", 1), ("typing.Sequence", 0))


def _bindings(func: FuncDef, followed: frozenset[int]) -> dict[int, list[Expression]]:
    """id(local Var) -> the values ``name = value`` binds it to, for the locals bound that way only
    (copies.followed_vars_of: not in a function that defines a closure); any other binding form
    (for, with, unpacking, augmented, walrus) leaves the name unresolved."""
    found: dict[int, list[Expression]] = {}
    other: set[int] = set()
    for s in statements(func.body.body):
        if not isinstance(s, AssignmentStmt):
            continue
        for lv in s.lvalues:
            if len(s.lvalues) == 1 and isinstance(lv, NameExpr) and isinstance(lv.node, Var):
                found.setdefault(id(lv.node), []).append(s.rvalue)
            else:
                unpacked = unpacked_names(lv)
                names: list[Expression] = list(unpacked) if unpacked is not None else [lv]
                other.update(id(n.node) for n in names if isinstance(n, NameExpr))
    return {var: values for var, values in found.items() if var in followed and var not in other}


class Receivers:
    """Resolves receivers inside one function (``func``: its parameters and local bindings)."""

    def __init__(self, func: FuncDef, modules: Mapping[str, MypyFile], read: Read,
                 followed: frozenset[int] | None = None) -> None:
        """``followed``: copies.followed_vars_of of ``func`` when the caller has it."""
        self.func = func
        self.followed = followed
        self.modules = modules
        self.read = read
        self.params = {id(a.variable): i for i, a in enumerate(func.arguments)}
        self._bound: dict[int, list[Expression]] | None = None
        self._visiting: set[int] = set()
        # Each local's answer, kept: the tile pass asks for the receiver of every method call, and
        # a name bound n times (``y = y + x`` in a long kernel) cost n walks at each ask (a
        # 1,600-statement kernel took 30 s). The answer depends on the name, the names being
        # resolved (a cycle stops there) and the depth (the limit): that is the key.
        self._known: dict[tuple[int, frozenset[int], int], Type | None] = {}

    def type_of(self, e: Expression, depth: int = 0) -> Type | None:
        if depth > _MAX_DEPTH:
            return None
        literal = _LITERALS.get(type(e))
        if literal is not None:
            return self.named(literal)
        if isinstance(e, RefExpr) and e.node is not None:
            return self._node(e.node, depth)
        if isinstance(e, MemberExpr):
            base = self.type_of(e.expr, depth + 1)
            return None if base is None else self.attribute(base, e.name)
        if isinstance(e, CallExpr):
            return self._returned(e.callee, depth + 1)
        if isinstance(e, IndexExpr):
            base = self.type_of(e.base, depth + 1)
            return None if base is None else self._item(base, e.index)
        if isinstance(e, OpExpr) and e.op not in ("and", "or"):
            # ``(a + b).sum()``: an operator on a tensor gives a tensor
            for side in (e.left, e.right):
                t = get_proper_type(self.type_of(side, depth + 1))
                if isinstance(t, Instance) and t.type.fullname == "pypto.Tensor":
                    return t
        return None

    def named(self, fullname: str) -> Instance | None:
        module, _, name = fullname.rpartition(".")
        home = self.modules.get(module)
        sym = home.names.get(name) if home is not None else None
        return fill_typevars_with_any(sym.node) if sym is not None and isinstance(sym.node, TypeInfo) else None  # type: ignore[return-value]

    # --- names ----------------------------------------------------------------------
    def _node(self, node: object, depth: int) -> Type | None:
        if isinstance(node, TypeInfo):
            return TypeType.make_normalized(fill_typevars_with_any(node))
        if not isinstance(node, Var):
            return None
        if id(node) in self.params:
            return self._param(node)
        if "." in node.fullname:  # a module's or a class's name: its declared or inferred type
            declared = self.read(node, "type")
            return declared if isinstance(declared, Type) and not isinstance(declared, UnboundType) else None
        return self._local(node, depth)

    def _param(self, var: Var) -> Type | None:
        index = self.params[id(var)]
        if index == 0 and real_info(self.func.info) is not None and not self.func.is_static and self.func.name != "__new__":
            own = fill_typevars_with_any(self.func.info)
            return TypeType.make_normalized(own) if self.func.is_class else own
        # A copy checked with a call's tensors has them on its Vars; otherwise the signature.
        if isinstance(var.type, Type) and not isinstance(var.type, UnboundType):
            return var.type
        sig = self.func.type
        if isinstance(sig, CallableType) and index < len(sig.arg_types) and not sig.arg_kinds[index].is_star():
            return sig.arg_types[index]
        return None

    def _local(self, var: Var, depth: int) -> Type | None:
        if self._bound is None:
            followed = self.followed if self.followed is not None else followed_vars_of(self.func)[0]
            self._bound = _bindings(self.func, followed)
        values = self._bound.get(id(var))
        if not values or id(var) in self._visiting:
            return None
        key = (id(var), frozenset(self._visiting), depth)
        if key in self._known:
            return self._known[key]
        self._visiting.add(id(var))
        try:
            types = [self.type_of(v, depth + 1) for v in values]
        finally:
            self._visiting.discard(id(var))
        known = [t for t in types if t is not None]
        found = self._known[key] = UnionType.make_union(known) if len(known) == len(types) else None
        return found

    # --- members, calls, items --------------------------------------------------------
    def attribute(self, base: Type, name: str) -> Type | None:
        t = _instance(base)
        if isinstance(t, UnionType):
            return _union([self.attribute(i, name) for i in t.items])
        if not isinstance(t, Instance):
            return None
        sym = t.type.get(name)
        node = sym.node if sym is not None else None
        if isinstance(node, Var):
            declared = self.read(node, "type")
            if not isinstance(declared, Type) or isinstance(declared, UnboundType):
                return None
            return _expanded(declared, t, real_info(node.info))
        getter = node.items[0] if isinstance(node, OverloadedFuncDef) and node.items else node
        func = getter.func if isinstance(getter, Decorator) else getter
        if isinstance(func, FuncDef) and func.is_property and isinstance(func.type, CallableType):
            return _expanded(func.type.ret_type, t, real_info(func.info))
        return None

    def _returned(self, callee: Expression, depth: int) -> Type | None:
        if isinstance(callee, RefExpr) and isinstance(callee.node, TypeInfo):
            return fill_typevars_with_any(callee.node)  # ``Layout(8, 16)``
        if isinstance(callee, RefExpr) and callee.node is not None:
            return _result(_signature(callee.node), None)
        if isinstance(callee, MemberExpr):
            base = _instance(self.type_of(callee.expr, depth))
            if isinstance(base, Instance):
                sym = base.type.get(callee.name)
                return _result(_signature(sym.node) if sym is not None else None, base)
        return None

    def _item(self, base: Type, index: Expression) -> Type | None:
        t = get_proper_type(base)
        if isinstance(t, UnionType):
            return _union([self._item(i, index) for i in t.items])
        if isinstance(t, TupleType):
            at = index.value if isinstance(index, IntExpr) else None
            if isinstance(index, UnaryExpr) and index.op == "-" and isinstance(index.expr, IntExpr):
                at = -index.expr.value
            if at is not None and -len(t.items) <= at < len(t.items):
                return t.items[at]
            return None if isinstance(index, SliceExpr) else _union(list(t.items))
        if not isinstance(t, Instance):
            return None
        for fullname, arg in _ITEMS:
            sup = next((i for i in t.type.mro if i.fullname == fullname), None)
            if sup is not None:
                if isinstance(index, SliceExpr) and arg == 0:
                    return t
                mapped = map_instance_to_supertype(t, sup)
                return mapped.args[arg] if len(mapped.args) > arg else None
        sym = t.type.get("__getitem__")  # a tensor's item is a tensor
        return _result(_signature(sym.node) if sym is not None else None, t)


def real_info(info: TypeInfo | None) -> TypeInfo | None:
    """``info``, or None for mypy's placeholder (a function that is not a method, a module's Var)."""
    return None if info is None or isinstance(info, FakeInfo) else info


def _instance(base: Type | None) -> ProperType | None:
    t = get_proper_type(base)
    if isinstance(t, TypeType):
        t = t.item
    if isinstance(t, (TupleType, TypedDictType)):
        t = t.partial_fallback if isinstance(t, TupleType) else t.fallback
    if isinstance(t, LiteralType):
        t = t.fallback
    return t


def _signature(node: object) -> CallableType | Overloaded | None:
    if isinstance(node, Decorator):
        declared = node.var.type
        return declared if isinstance(declared, (CallableType, Overloaded)) else None
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        return node.type if isinstance(node.type, (CallableType, Overloaded)) else None
    if isinstance(node, Var) and isinstance(node.type, (CallableType, Overloaded)):
        return node.type
    return None


def _result(sig: CallableType | Overloaded | None, receiver: Instance | None) -> Type | None:
    """What a call of ``sig`` returns (a method's, on ``receiver``); None when a type variable of
    the call itself stays in it."""
    if sig is None:
        return None
    items = sig.items if isinstance(sig, Overloaded) else [sig]
    found: list[Type | None] = []
    for item in items:
        ret = item.ret_type
        if receiver is not None and isinstance(item.definition, FuncBase):
            ret = _expanded(ret, receiver, real_info(item.definition.info))
        found.append(None if has_type_vars(ret) else ret)
    return _union(found)


def _expanded(t: Type, receiver: Instance, owner: TypeInfo | None) -> Type:
    if owner is None or not owner.type_vars or owner not in receiver.type.mro:
        return t
    return expand_type_by_instance(t, map_instance_to_supertype(receiver, owner))


def _union(types: list[Type | None]) -> Type | None:
    known = [t for t in types if t is not None]
    return UnionType.make_union(known) if known and len(known) == len(types) else None
