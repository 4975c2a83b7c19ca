"""Checks of one call's written form, run around the call's own hook (if any): list literals of the
wrong length (rules: view-offsets-rank, cube-tile-entries) and tensor creation in host code (rule:
host-tensor-creation).

Each check reads only what the source proves: a list or tuple literal's length (no starred
item), a call at module level. Anything else: silence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar, Union

from mypy.nodes import CallExpr, Expression, FuncItem, ListExpr, RefExpr, StarExpr, Statement, TupleExpr
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Type

from ..bridge.diagnostics import report
from ..bridge.tensor_types import tensor_val
from ..debug import degrade
from ..kernel.body_walk import body_has, expressions
from ..kernel.decorators import jit_kernel
from ..knowledge.codes.kernel_codes import HOST_CREATION
from ..knowledge.codes.op_codes import CUBE_TILE_ENTRIES, VIEW_RANK
from ..knowledge.findings import Finding

Ctx = Union[FunctionContext, MethodContext]
C = TypeVar("C", FunctionContext, MethodContext)

CREATION: Final = ("pypto.zeros", "pypto.ones", "pypto.full")
VIEWS: Final = ("pypto.view", "pypto.Tensor.view")
CUBE: Final = "pypto.set_cube_tile_shapes"
NAMES: Final = frozenset((*CREATION, *VIEWS, CUBE))


def _arg(ctx: Ctx, name: str) -> Expression | None:
    """The expression passed for the formal ``name`` (by position or keyword), or None."""
    try:
        i = ctx.callee_arg_names.index(name)
    except ValueError:
        return None
    return ctx.args[i][0] if i < len(ctx.args) and len(ctx.args[i]) == 1 else None


def _length(e: Expression | None) -> int | None:
    if isinstance(e, (ListExpr, TupleExpr)) and not any(isinstance(i, StarExpr) for i in e.items):
        return len(e.items)
    return None


def _viewed_rank(ctx: Ctx) -> int | None:
    """The rank of the tensor viewed: the receiver of ``x.view``, the input of ``pypto.view``."""
    if isinstance(ctx, MethodContext):
        viewed = tensor_val(ctx.type)
    else:
        i = ctx.callee_arg_names.index("input") if "input" in ctx.callee_arg_names else -1
        viewed = tensor_val(ctx.arg_types[i][0]) if 0 <= i < len(ctx.arg_types) and len(ctx.arg_types[i]) == 1 else None
    return None if viewed is None or viewed.shape is None else len(viewed.shape)


def _check_view(ctx: Ctx, label: str) -> None:
    """rule: view-offsets-rank."""
    rank = _length(_arg(ctx, "shape"))
    if rank is None:
        return
    viewed = _viewed_rank(ctx)
    if viewed is not None and viewed != rank:
        return  # a view to another rank: pypto-reshape reports that root cause (rule: view-rank)
    for name in ("offsets", "valid_shape"):
        n = _length(_arg(ctx, name))
        if n is not None and n != rank:
            report(ctx.api, Finding(
                VIEW_RANK,
                f"{label}: {name} has {n} entries but the shape has {rank}; 0.2.0 fails when it compiles "
                "(F21004, blamed on no line of the kernel)",
                f"give {name} one entry per dim of the shape ({rank})",
            ), ctx.context)


def _check_cube(ctx: Ctx) -> None:
    """rule: cube-tile-entries: m and n are [L0, L1]; k is [L0, L1] or [L0, L1a, L1b]."""
    for name, allowed in (("m", (2,)), ("k", (2, 3)), ("n", (2,))):
        n = _length(_arg(ctx, name))
        if n is not None and n not in allowed:
            want = "exactly 2 elements" if allowed == (2,) else "2 or 3 elements"
            report(ctx.api, Finding(
                CUBE_TILE_ENTRIES,
                f"pypto.set_cube_tile_shapes: {name} has {n} entries; 0.2.0 raises "
                f'"ValueError: {name} must have {want}, got {n}"',
                f"give {name} as [L0, L1]" + (" (or [L0, L1a, L1b])" if name == "k" else "")
                + ", e.g. set_cube_tile_shapes([16, 16], [32, 32], [16, 16])",
            ), ctx.context)
            return  # 0.2.0 stops at the first (m, then k, then n)


def _at_module_level(ctx: Ctx) -> bool:
    """Is the call in the module's own code (no function or class around it)? (mypy internals:
    the checker's scope stack holds the module alone there; if they move, silence.)"""
    stack = getattr(getattr(ctx.api, "scope", None), "stack", None)
    return isinstance(stack, list) and len(stack) == 1


def _calls_a_kernel(s: Statement) -> bool:
    """Does the statement call a jit kernel? A function whose body does is host code: a kernel's
    trace never calls another jit kernel."""
    return any(isinstance(e, CallExpr) and isinstance(e.callee, RefExpr) and jit_kernel(e.callee.node) is not None
               for e in expressions(s))


def _in_host_code(ctx: Ctx) -> bool:
    """Module-level code, or a function that calls a jit kernel (a test's ``run()``)."""
    if _at_module_level(ctx):
        return True
    scope = getattr(ctx.api, "scope", None)
    func = scope.current_function() if scope is not None and hasattr(scope, "current_function") else None
    return isinstance(func, FuncItem) and body_has(func, _calls_a_kernel)


def _check_creation(ctx: Ctx, fullname: str) -> None:
    """rule: host-tensor-creation (host code runs outside any kernel)."""
    if not _in_host_code(ctx):
        return
    name = fullname.rsplit(".", 1)[1]
    report(ctx.api, Finding(
        HOST_CREATION,
        f"pypto.{name} outside a jit kernel builds a graph op with no function being traced; 0.2.0 raises "
        "RuntimeError: Errcode: F21003! (func Operation)",
        f"make the tensor with torch on the host (torch.{name}(...)), or call pypto.{name} inside the kernel",
    ), ctx.context)


def check(fullname: str, ctx: Ctx) -> None:
    if fullname in VIEWS:
        _check_view(ctx, "pypto.view" if fullname == "pypto.view" else "Tensor.view")
    elif fullname == CUBE:
        _check_cube(ctx)
    elif fullname in CREATION:
        _check_creation(ctx, fullname)


def wrap(fullname: str, hook: Callable[[C], Type] | None) -> Callable[[C], Type] | None:
    """``hook`` with this module's check of ``fullname`` first (``hook`` itself when none applies)."""
    if fullname not in NAMES:
        return hook

    def checked(ctx: C) -> Type:
        try:
            check(fullname, ctx)
        except Exception as err:  # never crash mypy
            degrade(err)
        return hook(ctx) if hook is not None else ctx.default_return_type

    return checked
