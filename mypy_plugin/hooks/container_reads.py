"""Tensors read out of a list or dict: any shape and dtype, unless mypy's element type holds for
every element (``kernel/local_containers.py`` says when, and why)."""

from __future__ import annotations

from typing import Final

from mypy.nodes import CallExpr, FuncDef, IndexExpr, MemberExpr, NameExpr, Var
from mypy.plugin import MethodContext
from mypy.type_visitor import TypeTranslator
from mypy.types import AnyType, Instance, TupleType, Type, TypeAliasType, TypeOfAny, UnionType, get_proper_type

from ..bridge.tensor_types import TENSOR
from ..debug import degrade
from ..kernel.local_containers import read_only_displays

_CONTAINERS: Final = ("builtins.list", "builtins.dict", "collections.defaultdict", "collections.OrderedDict",
                      "collections.deque")
_ELEMENT_METHODS: Final = ("__getitem__", "get", "pop", "popitem", "setdefault", "values", "items", "__iter__",
                           "__reversed__")
# The method fullnames mypy names for a call on such a container (the receiver's class + the name).
METHODS: Final = frozenset(f"{c}.{m}" for c in _CONTAINERS for m in _ELEMENT_METHODS)


class _AnyTensor(TypeTranslator):
    """Every ``pypto.Tensor[shape, dtype]`` inside a type, as ``Tensor[Any, Any]``."""

    def visit_instance(self, t: Instance) -> Type:
        if t.type.fullname == TENSOR and t.args:
            unknown = AnyType(TypeOfAny.special_form)
            return t.copy_modified(args=[unknown for _ in t.args])
        return super().visit_instance(t)

    def visit_type_alias_type(self, t: TypeAliasType) -> Type:
        return get_proper_type(t).accept(self)


def _has_tensor(t: Type, depth: int = 0) -> bool:
    p = get_proper_type(t)
    if depth > 4:
        return False
    if isinstance(p, UnionType):
        return any(_has_tensor(i, depth + 1) for i in p.items)
    if isinstance(p, TupleType):
        return any(_has_tensor(i, depth + 1) for i in p.items)
    if not isinstance(p, Instance):
        return False
    return p.type.fullname == TENSOR or any(_has_tensor(a, depth + 1) for a in p.args)


def _receiver(ctx: MethodContext) -> object:
    e = ctx.context
    if isinstance(e, NameExpr):
        return e  # ``for t in parts``: mypy asks ``__iter__`` with the iterable as the context
    if isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr):
        return e.callee.expr
    if isinstance(e, IndexExpr):
        return e.base
    return None


def _trusted(ctx: MethodContext) -> bool:
    recv = _receiver(ctx)
    func = getattr(getattr(ctx.api, "scope", None), "current_function", lambda: None)()
    if not isinstance(recv, NameExpr) or not isinstance(recv.node, Var) or not isinstance(func, FuncDef):
        return False
    return id(recv.node) in read_only_displays(func)


def hook(ctx: MethodContext) -> Type:
    ret = ctx.default_return_type
    try:
        if not _has_tensor(ret) or _trusted(ctx):
            return ret
        return ret.accept(_AnyTensor())
    except Exception as err:  # degrade: mypy's own answer
        degrade(err)
        return ret
