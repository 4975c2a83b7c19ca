"""Calls of helpers from kernels (``def core(x)``, ``def core(x: pypto.Tensor, eps, hidden)``,
``@pypto.frontend.function``): the helper runs as plain Python inside the kernel's trace, so it
is checked again (the same copy as for host calls, :mod:`specialize`) with what the call gives it:
the caller's tensors where they say more than the helper's annotations (an unannotated parameter
that receives a tensor is that tensor), the ints a call passes, and the tiles in force at the
call (tile setting is global state; rule: helper-runs-in-the-trace). Through any depth of helpers:
a helper's copy calls the next helper with its own state.

Only a module-level function of the module being checked (its body is here: an edit of either
side rechecks this module). A finding names the helper's line; its note names the call, and
inside a kernel (or helper) checked for a call, that call too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from mypy.nodes import CallExpr, Decorator, FuncDef, MemberExpr, MypyFile, RefExpr, Statement, Var
from mypy.plugin import FunctionContext, MethodContext
from mypy.subtypes import is_same_type
from mypy.types import AnyType, CallableType, Instance, TupleType, Type, TypeOfAny, get_proper_type

from ..bridge.tensor_types import tensor_type, tensor_val
from ..debug import degrade
from ..host.call_check import fmt_binding
from ..kernel import copies as kernel_copies
from ..kernel.body_walk import body_has
from ..kernel.copies import Entry
from ..kernel.decorators import is_helper_decorator, is_kernel
from ..kernel.tile_values import SHAPE
from ..knowledge.codes import op_codes
from ..knowledge.tiles import HELPER_ENTRY, NOT_SET, TileState, fmt_cube, fmt_vec
from ..knowledge.values import TensorVal, merge_tensors
from ..trace.values import Obj, Seq
from . import coverage, cross_module, specialize
from .helper_params import defaults, only_values, replaced_parameters, untyped_signature
from ..trace.state import OpRecord
from .op_coverage import function_key, record_traced

# The findings whose check reads the vec tile, the cube tile: the helper note names those tiles only.
_VEC_CODES = frozenset(c.name for c in (op_codes.REDUCE_ALIGN, op_codes.TILE_MISSING, op_codes.TILE_RANK,
                                       op_codes.RESHAPE_ALIGN))
_CUBE_CODES = frozenset(c.name for c in (op_codes.CUBE_TILE, op_codes.TILE_MISSING))


def helper_function(node: object) -> FuncDef | None:
    """The function of a helper that may be called from kernels: a plain function with a body,
    or a ``@pypto.frontend.function`` (not a jit kernel, not otherwise decorated)."""
    if isinstance(node, Decorator):
        if len(node.original_decorators) != 1 or not is_helper_decorator(node):
            return None
        node = node.func
    if not isinstance(node, FuncDef) or not node.body.body or node.is_overload or node.is_property:
        return None
    return None if _defines_functions(node) else node


def _is_definition(s: Statement) -> bool:
    return isinstance(s, (FuncDef, Decorator))


def _defines_functions(func: FuncDef) -> bool:
    """A kernel factory or a closure maker: what it defines is checked where it is defined."""
    return body_has(func, _is_definition)


class HelperCalls:
    """The function hook of a helper call; ``entry_at`` gives the caller's state at the call."""

    def __init__(self, session: object) -> None:
        self.session = session

    def hook(self, ctx: FunctionContext) -> Type:
        try:
            returned = self._check(ctx)
        except Exception as err:  # never crash mypy
            degrade(err)
            returned = None
        return returned if returned is not None else ctx.default_return_type

    def _check(self, ctx: FunctionContext) -> Type | None:
        """Checks the helper for this call; returns the tensor(s) it returns here when its own
        signature says nothing (an unannotated helper's result feeds the kernel's next ops)."""
        call = ctx.context
        if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr):
            return None
        other = cross_module.other_module_function(ctx.api, call.callee.node)
        if other is not None:
            return self._other_module(ctx, call, *other)
        func = helper_function(call.callee.node)
        module = getattr(ctx.api, "tree", None)
        if func is None or not isinstance(module, MypyFile):
            return None
        sym = module.names.get(func.name)
        if sym is None or sym.node not in (func, call.callee.node):
            return None  # not a module-level helper of this module
        path = getattr(ctx.api, "path", "") or ""
        _record_edge(ctx, path, func)
        typ = func.type if isinstance(func.type, CallableType) else untyped_signature(func, ctx)
        if typ is None or len(typ.arg_types) != len(ctx.arg_types):
            return None
        named = getattr(ctx.api, "named_generic_type")
        replaced = replaced_parameters(typ, ctx.arg_types, lambda v: tensor_type(v, named), defaults(func, named))
        if not any(tensor_val(t) is not None for t in replaced.values()) and not _in_a_kernel(ctx, module):
            return None  # a call from host code (ints alone do not make a kernel's trace)
        entry_at = getattr(self.session, "helper_entry")
        entry: Entry | None = entry_at(ctx)
        if entry is not None and entry.tiles == HELPER_ENTRY and not entry.values:
            entry = None  # the helper's own pass already assumes nothing about the tiles
        if only_values(replaced) and entry is None:
            return None
        note = functools.partial(_note, func.name, f"{Path(path).name}:{call.line}", typ, replaced, entry)
        returned = specialize.check(ctx.api, func, replaced, note, typ=typ, entry=entry)
        if not returned:
            return None
        found = _one_tensor_type(returned)
        if found is None or isinstance(get_proper_type(typ.ret_type), AnyType):
            return found
        # ``-> pypto.Tensor`` (or a tuple of them): the call's tensors, where they only add to what
        # the annotation says
        return found if _refines(typ.ret_type, found) else None


    def method_hook(self, ctx: MethodContext) -> Type:
        """``LAYOUT.split(x)`` on a module-level object of a class whose body is read: the method is
        traced with the object (:mod:`cross_module`), in this module or another."""
        try:
            returned = self._method(ctx)
        except Exception as err:  # never crash mypy
            degrade(err)
            returned = None
        return returned if returned is not None else ctx.default_return_type

    def _method(self, ctx: MethodContext) -> Type | None:
        call, tree = ctx.context, getattr(ctx.api, "tree", None)
        if not isinstance(call, CallExpr) or not isinstance(call.callee, MemberExpr) or not isinstance(tree, MypyFile):
            return None
        receiver = call.callee.expr
        var = receiver.node if isinstance(receiver, RefExpr) else None
        if not isinstance(var, Var) or not var.fullname or "." not in var.fullname:
            return None
        in_kernel = _in_a_kernel(ctx, tree)
        if not in_kernel and not any(tensor_val(t) is not None for ts in ctx.arg_types for t in ts):
            return None  # host code
        module, _, name = var.fullname.rpartition(".")
        obj = cross_module.module_object(ctx.api, module, name)
        if not isinstance(obj, Obj):
            return None
        p = get_proper_type(ctx.type)
        method = p.type.get_method(call.callee.name) if isinstance(p, Instance) else None
        entry_at = getattr(self.session, "helper_entry")
        traced = cross_module.helper_trace(ctx.api, call, obj.cls.module, f"{obj.cls.name}.{call.callee.name}",
                                           lambda: entry_at(ctx), lambda: in_kernel, obj,
                                           method if isinstance(method, FuncDef) else None)
        if traced is None:
            return None
        if traced.baseline is not traced.found:
            cross_module.report_new(ctx.api, call, traced.found, traced.baseline, traced.where)
        _record_traced(ctx, traced.found.ops)
        return _returned_type(traced.found.returned, method, getattr(ctx.api, "named_generic_type"))

    def _other_module(self, ctx: FunctionContext, call: CallExpr, module: str, name: str) -> Type | None:
        """A helper of another module: traced from its source (:mod:`cross_module`)."""
        tree = getattr(ctx.api, "tree", None)
        if not isinstance(tree, MypyFile):
            return None
        entry_at = getattr(self.session, "helper_entry")
        traced = cross_module.helper_trace(ctx.api, call, module, name, lambda: entry_at(ctx),
                                           lambda: _in_a_kernel(ctx, tree))
        if traced is None:
            return None
        if traced.baseline is not traced.found:
            cross_module.report_new(ctx.api, call, traced.found, traced.baseline, traced.where)
        _record_traced(ctx, traced.found.ops)
        return _returned_type(traced.found.returned, call.callee.node if isinstance(call.callee, RefExpr) else None,
                              getattr(ctx.api, "named_generic_type"))


def _record_traced(ctx: FunctionContext | MethodContext, ops: tuple[OpRecord, ...]) -> None:
    """For op coverage: the ops a traced helper checked count for the kernel the call is in."""
    scope = getattr(ctx.api, "scope", None)
    caller = scope.current_function() if scope is not None else None
    path = getattr(ctx.api, "path", "") or ""
    if ops and isinstance(caller, FuncDef):
        record_traced(function_key(path, kernel_copies.root(caller)), ops)


def _returned_type(value: object, node: object, named: Callable[..., Instance]) -> Type | None:
    """The tensor (or tuple of tensors) a traced helper returns, where its signature says nothing."""
    func = node.func if isinstance(node, Decorator) else node
    typ = func.type if isinstance(func, FuncDef) else None
    found: Type | None = None
    if isinstance(value, TensorVal):
        found = tensor_type(value, named)
    elif isinstance(value, Seq) and value.items and all(isinstance(i, TensorVal) for i in value.items):
        items: list[Type] = [tensor_type(i, named) for i in value.items if isinstance(i, TensorVal)]
        found = TupleType(items, named("builtins.tuple", [AnyType(TypeOfAny.special_form)]))
    if found is not None and isinstance(typ, CallableType) and not isinstance(get_proper_type(typ.ret_type), AnyType):
        return found if _refines(typ.ret_type, found) else None  # a signature that says less
    return found


def _refines(declared: Type, found: Type) -> bool:
    """Does ``found`` only add to ``declared`` (a tensor type, or a tuple of them item by item),
    and add something?"""
    d, f = get_proper_type(declared), get_proper_type(found)
    if isinstance(d, TupleType) or isinstance(f, TupleType):
        return (isinstance(d, TupleType) and isinstance(f, TupleType) and len(d.items) == len(f.items)
                and all(_adds_nothing_wrong(a, b) for a, b in zip(d.items, f.items))
                and any(tensor_val(a) != tensor_val(b) for a, b in zip(d.items, f.items)))
    dv, fv = tensor_val(declared), tensor_val(found)
    return dv is not None and fv is not None and merge_tensors(dv, fv) == fv != dv


def _adds_nothing_wrong(declared: Type, found: Type) -> bool:
    dv, fv = tensor_val(declared), tensor_val(found)
    return dv is not None and fv is not None and merge_tensors(dv, fv) == fv


def _one_tensor_type(returned: list[Type]) -> Type | None:
    """What every return of the copy gives, when that is one tensor type (or a tuple of them)."""
    first = returned[0]
    if any(not is_same_type(first, t) for t in returned[1:]):
        return None
    p = get_proper_type(first)
    items = p.items if isinstance(p, TupleType) else [first]
    return first if items and all(tensor_val(i) is not None for i in items) else None


def _record_edge(ctx: FunctionContext, path: str, helper: FuncDef) -> None:
    """For op coverage: which helpers each function calls (a copy's calls are its original's)."""
    if coverage.active() is None:
        return
    scope = getattr(ctx.api, "scope", None)
    caller = scope.current_function() if scope is not None else None
    if isinstance(caller, FuncDef):
        coverage.helper_called(function_key(path, kernel_copies.origin(caller)), function_key(path, helper))


def _in_a_kernel(ctx: FunctionContext | MethodContext, module: MypyFile) -> bool:
    """Is the call in a jit kernel, a ``@pypto.frontend.function`` helper, or a copy checked
    for a call (host code calling a plain helper is not a kernel's trace)?"""
    scope = getattr(ctx.api, "scope", None)
    caller = scope.current_function() if scope is not None else None
    if not isinstance(caller, FuncDef):
        return False
    if kernel_copies.entry(caller) is not None or kernel_copies.origin(caller) is not caller:
        return True
    if is_kernel(module, caller):
        return True
    sym = module.names.get(caller.name)
    return sym is not None and isinstance(sym.node, Decorator) and is_helper_decorator(sym.node)


def _fmt_tiles(tiles: TileState, code: str) -> str:
    """``vec tile (8, 4)``, ``cube tile [16, 16], [16, 16], [16, 16]``, ``no vec tile set``: the
    tiles the finding's check reads (a matmul's finding is not about the vec tile)."""
    parts = []
    if code in _VEC_CODES:
        if tiles.vec is NOT_SET:
            parts.append("no vec tile set")
        elif isinstance(tiles.vec, tuple):
            parts.append(f"vec tile {fmt_vec(tiles.vec)}")
    if code in _CUBE_CODES and isinstance(tiles.cube, tuple):  # not set: the matmul says so itself
        parts.append(f"cube tile {fmt_cube(tiles.cube)}")
    return ", ".join(parts)


def _note(name: str, where: str, typ: CallableType, replaced: dict[int, Type], entry: Entry | None, code: str) -> str:
    parts = []
    tensors = {i: v for i, v in ((i, tensor_val(t)) for i, t in replaced.items()) if v is not None}
    if tensors:
        names = [typ.arg_names[i] or f"#{i}" for i in tensors]
        parts.append(fmt_binding(names, tuple(tensors.values())))
    for i, t in replaced.items():
        p = get_proper_type(t)
        if i not in tensors and isinstance(p, Instance) and p.last_known_value is not None:
            parts.append(f"{typ.arg_names[i] or f'#{i}'}={p.last_known_value.value!r}")
    if entry is not None:
        parts.extend(f"{k}={list(v) if isinstance(v, tuple) else v}" for k, v in entry.values.items()
                     if not k.endswith(SHAPE) and not any(typ.arg_names[i] == k for i in replaced))
        tiles = _fmt_tiles(entry.tiles, code)
        if tiles:
            parts.append(f"entered with {tiles}")
    return f"{specialize.CALL_NOTE} of {name} at {where}: {'; '.join(parts)}"
