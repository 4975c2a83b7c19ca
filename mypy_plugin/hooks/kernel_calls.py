"""A jit kernel as a value, and what mypy checks where a call names it (rule: call-arguments-bound-at-run-time).

At run time ``@pypto.frontend.jit`` returns a ``JitCallableWrapper`` whose ``__call__(*args,
**kwargs)`` binds the arguments itself. So as a value -- a factory's ``return kernel`` under any
``Callable[...]`` annotation, a dict of kernels, a variable -- a kernel is that callable: the
decorator hook gives it ``def (*Any, **Any) -> Any``, marked ``_JitKernel`` (the mark survives
mypy's cache, so other modules know a kernel). A call that names the kernel (``k(x, out)``, also
imported or nested) gets the kernel's own signature back from :func:`signature_hook`, with tensor
parameters that accept anything (torch tensors, tensors whose dims are named differently), so
mypy still checks the count and the scalars. Not when the call unpacks a sequence or mapping of a
length mypy cannot know (``k(*inputs, a, b)``, ``k(**opts)``): mypy maps such a list onto every
parameter and counts the arguments after it as extra, while 0.2.0 binds them; the boundary checks
(``pypto-call-args``) judge those calls where host evaluation knows the list.

A kernel factory's call (``make(8)``, a module-level function that returns the jit kernel it
defines) gives that callable too, whatever the factory's annotation claims: 0.2.0 binds the call
of the result at run time, so ``-> Callable[[Tensor, Tensor], ...]`` over a six-parameter kernel
is no count error at the call.

A call through a variable stays permissive: with ``allow_redefinition`` (on in PyPTO modules),
the daemon re-checks a function body with the variable's narrowed type, which names the kernel
where a cold run did not, and a message would differ between the two.
"""

from __future__ import annotations

from mypy.nodes import ARG_STAR, ARG_STAR2, CallExpr, Decorator, FuncDef, RefExpr, ReturnStmt, Statement, SymbolNode
from mypy.plugin import CheckerPluginInterface, FunctionContext, FunctionSigContext
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    TupleType,
    Type,
    TypeOfAny,
    TypedDictType,
    get_proper_type,
)

from ..bridge.tensor_types import is_tensor
from ..debug import degrade
from ..kernel.body_walk import body_has
from ..kernel.decorators import jit_kernel
from ..knowledge.frontend import JIT_KERNEL_CHECKED_TYPE, JIT_KERNEL_TYPE


def _any() -> AnyType:
    return AnyType(TypeOfAny.special_form)


def relaxed(t: Type, api: CheckerPluginInterface, jit: bool, checked: bool = False) -> Type:
    """The decorated function's type: tensor parameters accept Any (a helper, called from kernels
    with tensors whose dims are named differently); a jit kernel becomes the permissive callable
    of the runtime wrapper, marked ``_JitKernel`` (``_JitKernelChecked`` for one whose calls 0.2.0
    checks: kernel.decorators.checks_calls; mypy's cache keeps the mark, not the decorators)."""
    p = get_proper_type(t)
    if not isinstance(p, CallableType):
        return t
    if not jit:
        return p.copy_modified(arg_types=[_any() if is_tensor(a) else a for a in p.arg_types])
    try:
        fallback = api.named_generic_type(JIT_KERNEL_CHECKED_TYPE if checked else JIT_KERNEL_TYPE, [])
    except Exception as err:  # a pypto without the stubs' class: the signature, unmarked
        degrade(err)
        return p.copy_modified(arg_types=[_any() if is_tensor(a) else a for a in p.arg_types])
    return p.copy_modified(arg_types=[_any(), _any()], arg_kinds=[ARG_STAR, ARG_STAR2], arg_names=[None, None],
                           ret_type=_any(), fallback=fallback, variables=[])


def _own_signature(dec: Decorator, permissive: CallableType) -> CallableType | None:
    """The kernel's own parameters (tensors accept Any) with the permissive type's mark."""
    declared = get_proper_type(dec.func.type)
    if isinstance(declared, CallableType):
        types = [_any() if is_tensor(a) else a for a in declared.arg_types]
        return declared.copy_modified(arg_types=types, fallback=permissive.fallback, name=permissive.name)
    if dec.func.type is None:  # no annotation at all: mypy's implicit signature
        n = len(dec.func.arg_kinds)
        return permissive.copy_modified(arg_types=[_any()] * n, arg_kinds=list(dec.func.arg_kinds),
                                        arg_names=list(dec.func.arg_names), ret_type=_any())
    return None


def _unknown_length(call: CallExpr, api: CheckerPluginInterface) -> bool:
    """``*xs`` that is not a tuple of known length, or ``**m`` that is not a TypedDict."""
    for arg, kind in zip(call.args, call.arg_kinds):
        if kind not in (ARG_STAR, ARG_STAR2):
            continue
        with api.msg.filter_errors():  # mypy reports the argument's own errors
            t = get_proper_type(api.get_expression_type(arg))
        if kind == ARG_STAR and not isinstance(t, TupleType):
            return True
        if kind == ARG_STAR2 and not isinstance(t, TypedDictType):
            return True
    return False


def signature_hook(ctx: FunctionSigContext) -> FunctionLike:
    permissive = ctx.default_signature
    try:
        call = ctx.context
        fallback = get_proper_type(permissive.fallback)
        if not (isinstance(call, CallExpr) and isinstance(call.callee, RefExpr)
                and isinstance(fallback, Instance) and fallback.type.fullname == JIT_KERNEL_TYPE):
            return permissive
        node = call.callee.node
        if not isinstance(node, Decorator) or jit_kernel(node) is None or _unknown_length(call, ctx.api):
            return permissive
        return _own_signature(node, permissive) or permissive
    except Exception as err:  # never crash mypy: the permissive signature
        degrade(err)
        return permissive


def _returns_kernel(s: Statement) -> bool:
    return isinstance(s, ReturnStmt) and isinstance(s.expr, RefExpr) and isinstance(s.expr.node, Decorator) and (
        jit_kernel(s.expr.node) is not None)


def is_factory(node: SymbolNode | None) -> bool:
    """A function whose body returns a jit kernel it defines (``return kernel``)."""
    return isinstance(node, FuncDef) and body_has(node, _returns_kernel)


def factory_hook(ctx: FunctionContext) -> Type:
    """The call of a kernel factory: the runtime wrapper's callable (see the module docstring)."""
    try:
        fallback = ctx.api.named_generic_type(JIT_KERNEL_TYPE, [])
        return CallableType([_any(), _any()], [ARG_STAR, ARG_STAR2], [None, None], _any(), fallback)
    except Exception as err:  # never crash mypy: the factory's declared type
        degrade(err)
        return ctx.default_return_type
