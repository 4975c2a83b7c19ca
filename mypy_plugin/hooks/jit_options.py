"""Keywords of ``pypto.frontend.jit(...)`` that PyPTO 0.2.0 does not have (rule: jit-keywords), and
keys of its ``runtime_options`` dict that 0.2.0 does not have (rule: jit-runtime-options); with
another targeted release (``pypto_version``) they are accepted silently.

0.2.0's ``jit`` raises ``TypeError: jit() got an unexpected keyword argument 'new_ir'`` when the
module is imported. Code written for a newer PyPTO passes such keywords; the checker says so once
and checks the kernel as a 0.2.0 kernel, instead of mypy's two ``call-overload`` errors (the
signature hook accepts the unknown keywords, so mypy resolves the overload as usual).
"""

from __future__ import annotations

from mypy.nodes import ARG_NAMED, CallExpr, DictExpr, StrExpr
from mypy.plugin import FunctionSigContext
from mypy.types import AnyType, CallableType, FunctionLike, TypeOfAny

from ..bridge.diagnostics import report
from ..debug import degrade
from ..knowledge.codes import kernel_codes as codes
from ..knowledge.findings import Finding
from ..knowledge.frontend import RUNTIME_OPTIONS


def unknown_keywords(call: CallExpr, known: list[str | None]) -> list[str]:
    """The call's keyword names that the signature does not take, in call order."""
    return [n for n in call.arg_names if n is not None and n not in known]


def signature_hook(ctx: FunctionSigContext) -> FunctionLike:
    """For each overload item of ``jit``: accept the call's unknown keywords as ``Any``, and
    report them (once per call: mypy asks each item)."""
    sig = ctx.default_signature
    try:
        if not isinstance(ctx.context, CallExpr):
            return sig
        check_runtime_options(ctx)
        extra = unknown_keywords(ctx.context, sig.arg_names)
        if not extra:
            return sig
        taken = ", ".join(n for n, k in zip(sig.arg_names, sig.arg_kinds) if n and k.is_named())
        names = ", ".join(f'"{n}"' for n in extra)
        first = extra[0]
        report(ctx.api, Finding(
            codes.JIT_KEYWORD,
            f"pypto.frontend.jit() has no keyword {names} in PyPTO 0.2.0: importing this module raises "
            f"TypeError (jit() got an unexpected keyword argument '{first}')",
            f"0.2.0's jit takes {taken}; the kernel is checked as a 0.2.0 kernel",
        ), ctx.context, once=True)
        return _taking(sig, extra)
    except Exception as err:  # never crash mypy
        degrade(err)
        return sig


def check_runtime_options(ctx: FunctionSigContext) -> None:
    """``runtime_options={"launch_sched_aicpu_num": 4}``: keys written in the call's dict display."""
    assert isinstance(ctx.context, CallExpr)
    for arg, name in zip(ctx.context.args, ctx.context.arg_names):
        if name != "runtime_options" or not isinstance(arg, DictExpr):
            continue
        for key, _ in arg.items:
            if isinstance(key, StrExpr) and key.value not in RUNTIME_OPTIONS:
                report(ctx.api, Finding(
                    codes.JIT_KEYWORD,
                    f'runtime option "{key.value}" does not exist in PyPTO 0.2.0: the first call of the kernel raises '
                    "IndexError (map::at) when the frontend sets its runtime options",
                    f"remove it (it comes from a newer PyPTO); 0.2.0's runtime options are "
                    f"{', '.join(sorted(RUNTIME_OPTIONS))}",
                ), key, once=True)


def accept_keywords(ctx: FunctionSigContext) -> FunctionLike:
    """For a targeted release other than 0.2 (``pypto_version``): later releases' jit takes
    keywords 0.2.0's does not (``new_ir``), so they are accepted as ``Any``, silently."""
    sig = ctx.default_signature
    try:
        extra = unknown_keywords(ctx.context, sig.arg_names) if isinstance(ctx.context, CallExpr) else []
        return _taking(sig, extra) if extra else sig
    except Exception as err:  # never crash mypy
        degrade(err)
        return sig


def _taking(sig: CallableType, extra: list[str]) -> CallableType:
    anything = AnyType(TypeOfAny.special_form)
    return sig.copy_modified(
        arg_types=[*sig.arg_types, *(anything for _ in extra)],
        arg_kinds=[*sig.arg_kinds, *(ARG_NAMED for _ in extra)],
        arg_names=[*sig.arg_names, *extra],
    )
