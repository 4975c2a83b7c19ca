"""The frontend's rules for a ``@pypto.frontend.jit`` kernel definition (docs/rules.md, "Kernel definitions").

Checked where mypy applies the decorator (its context is the :class:`Decorator` node):
no ``return`` statement (rule: kernel-no-return), no return annotation, tensor parameters before all others
(an unannotated parameter is not a tensor), no ``from __future__ import annotations``
(PEP 563 strings are not tensor annotations to the frontend), and no shape written as a tuple
holding DYNAMIC, DYN, STATIC or ``...`` (``Invalid value type`` when the module is imported).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    Decorator,
    FuncDef,
    MypyFile,
    ReturnStmt,
    Statement,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    AnyType, CallableType, RawExpressionType, Type, TypeOfAny, UnboundType, UnionType, get_proper_type,
)

from ..bridge.diagnostics import report
from ..bridge.tensor_types import is_tensor, tensor_val
from ..knowledge.codes import kernel_codes as codes
from ..knowledge.findings import Finding
from ..rewrite.annotation_items import TUPLE_SHAPE
from ..rewrite.kernel_returns import KERNEL_RETURN_ALIAS
from .body_walk import statements


def _returns(stmts: list[Statement]) -> Iterator[ReturnStmt]:
    return (s for s in statements(stmts) if isinstance(s, ReturnStmt))


# Libraries whose classes have no ``to_tensor`` (``torch.Tensor``, ``np.ndarray``): an annotation
# naming one is a non-tensor to the frontend, also where mypy does not analyse the library.
_LIBRARIES: Final = ("torch", "numpy", "np")


def _library_class(written: Type) -> bool:
    return isinstance(written, UnboundType) and written.name.split(".")[0] in _LIBRARIES


def param_kind(analyzed: Type | None, written: Type) -> bool | None:
    """Is the parameter a tensor (True), not one (False), or unknown (None)? Decided on the
    analyzed type, so aliases (``Act = pypto.Tensor[...]``, ``from pypto import Tensor as PT``)
    count and a user's own class named ``Tensor`` does not."""
    if isinstance(written, AnyType) and written.type_of_any == TypeOfAny.unannotated:
        return False  # no annotation: the frontend takes it as a non-tensor
    if analyzed is None:
        return None
    if is_tensor(analyzed):
        return True
    p = get_proper_type(analyzed)
    if isinstance(p, AnyType):
        if p.type_of_any == TypeOfAny.from_unimported_type and _library_class(written):
            return False  # ``y: torch.Tensor`` with torch not analysed: no ``to_tensor``, a non-tensor
        return False if p.type_of_any == TypeOfAny.explicit else None  # None: mypy could not read it
    if isinstance(p, UnboundType):
        # mypy left the name unresolved (``X: X_def``, ``X_def = TensorAnnotation(...)``): the
        # frontend takes any object with a ``to_tensor`` method as a tensor annotation
        return None
    if isinstance(p, UnionType) and tensor_val(p) is not None:
        return None  # tensors of several shapes
    return False


def _tuple_shape(t: Type) -> bool:
    """The source rewrite's mark of a tuple shape with a status dim (rule: annotation-tuple-status)."""
    return isinstance(t, UnboundType) and any(
        isinstance(a, RawExpressionType) and a.literal_value == TUPLE_SHAPE for a in t.args)


def check_signature(api: CheckerPluginInterface, context: Decorator) -> None:
    func: FuncDef = context.func
    name = func.name
    sig = func.unanalyzed_type
    for ret in _returns(func.body.body):
        report(api, Finding(
            codes.KERNEL_SIGNATURE,
            f'jit kernel "{name}" has a return statement; the frontend rejects it (ValueError: Return statements are not allowed)',
            "write results into an output parameter: out[:] = result (or out.move(result))",
        ), ret)
    if not isinstance(sig, CallableType):
        return
    ret_type = sig.ret_type
    written = not (isinstance(ret_type, AnyType) and ret_type.type_of_any == TypeOfAny.unannotated)
    if isinstance(ret_type, UnboundType) and ret_type.name == KERNEL_RETURN_ALIAS:
        written = False  # the source rewrite's None for --strict (kernel_returns.py)
    if written:
        report(api, Finding(
            codes.KERNEL_SIGNATURE,
            f'jit kernel "{name}" has a return annotation; the frontend rejects any, even "-> None" '
            "(ValueError: Return annotation is not allowed)",
            "remove the return annotation; write results into an output parameter",
        ), func)
    scope = getattr(api, "scope", None)
    enclosing = scope.current_function() if scope is not None else None
    # A kernel a function defines is built at each call of it: the error comes there (probed).
    when = (f'each time "{enclosing.name}" defines the kernel' if isinstance(enclosing, FuncDef)
            else "when the module is imported")
    for arg, t in zip(func.arguments, sig.arg_types):
        if _tuple_shape(t):
            report(api, Finding(
                codes.KERNEL_SIGNATURE,
                f'jit kernel "{name}": parameter "{arg.variable.name}" has a shape written as a tuple holding '
                f"DYNAMIC, DYN, STATIC or ...; 0.2.0 raises ValueError (Invalid value type) {when}: "
                "such a shape must be a list",
                "write the shape as a list: pypto.Tensor([pypto.DYNAMIC, 64], ...) instead of (pypto.DYNAMIC, 64)"
                + (", also where a named shape is built (x_shape = [t, n])" if isinstance(enclosing, FuncDef) else ""),
            ), func)
    seen_other: str | None = None
    has_tensor = False
    analyzed = func.type.arg_types if isinstance(func.type, CallableType) else []
    for i, (arg, kind, t) in enumerate(zip(func.arguments, sig.arg_kinds, sig.arg_types)):
        if kind in (ARG_STAR, ARG_STAR2):
            continue
        tensor = param_kind(analyzed[i] if i < len(analyzed) else None, t)
        if tensor is None:
            continue
        if tensor:
            has_tensor = True
            if seen_other is not None:
                report(api, Finding(
                    codes.KERNEL_SIGNATURE,
                    f'jit kernel "{name}": tensor parameter "{arg.variable.name}" comes after the non-tensor '
                    f'parameter "{seen_other}"; the frontend rejects it (Non-tensor parameters must come after all '
                    "tensor parameters)",
                    "put all tensor parameters first (an unannotated parameter counts as non-tensor)",
                ), func)
                break
        elif seen_other is None:
            seen_other = arg.variable.name
    module = getattr(api, "tree", None)
    if has_tensor and isinstance(module, MypyFile) and module.is_future_flag_set("annotations"):
        report(api, Finding(
            codes.KERNEL_SIGNATURE,
            f'jit kernel "{name}" is in a module with "from __future__ import annotations": its tensor annotations '
            "become strings and the frontend fails (Non-tensor parameter ... must not be a torch.Tensor)",
            'remove "from __future__ import annotations" from this module',
        ), func)
