"""The codes of host calls of a kernel (static checks of host code, and the runtime guard)."""

from __future__ import annotations

from typing import Final

from .table import Code

CALL_SHAPE: Final = Code(
    "pypto-call-shape",
    summary="A kernel call whose tensor dims differ from the annotation",
    catches="A kernel call whose torch tensor has a dim that differs from a static annotation dim.",
    compiler=(
        "Nothing: it compiles the kernel for the annotation's shape over the tensor's buffer (wrong "
        "data), or ignores the annotation for a []/STATIC/DYNAMIC kernel; with runtime_debug_mode=3, "
        "ValueError at the call."
    ),
    bad="mm(torch.randn(16, 32), w, out)     # a: pypto.Tensor([16, 64], pypto.DT_FP32)",
    fixed="mm(torch.randn(16, 64), w, out)",
    rules=("runtime-debug-mode-3-checks-calls",),
)

CALL_DTYPE: Final = Code(
    "pypto-call-dtype",
    summary="A kernel call whose tensor dtype differs from the annotation",
    catches=(
        "A kernel call whose torch tensor's dtype differs from the annotated one (or from the FP32 "
        "default of a dtype-less static annotation)."
    ),
    compiler=(
        "Nothing: it reads the bytes as the annotated dtype (out of bounds when the torch element is "
        "smaller); with runtime_debug_mode=3 and a dtype the annotation writes, ValueError at the call."
    ),
    bad="k(x.half())     # x: pypto.Tensor([8, 64])  (FP32 by default)",
    fixed="k(x.float())",
    rules=("runtime-debug-mode-3-checks-calls",),
)

CALL_RANK: Final = Code(
    "pypto-call-rank",
    summary="A kernel call whose tensor rank differs from the annotation",
    catches="A kernel call whose torch tensor has another number of dims than the annotation.",
    compiler=("Nothing for a static kernel (wrong data); a []/DYNAMIC kernel is traced with the tensor's rank; "
              "with runtime_debug_mode=3, ValueError at the call."),
    bad="k(x[0])     # x: torch [8, 64], annotation [8, 64]",
    fixed="k(x)",
    rules=("runtime-debug-mode-3-checks-calls",),
)

CALL_SYMBOL: Final = Code(
    "pypto-call-symbol",
    summary="A kernel call binding one shape symbol to two sizes",
    catches="A kernel call binding one pypto.frontend.dynamic symbol to two sizes.",
    compiler="Nothing: each tensor keeps its own size (wrong data).",
    bad="add(torch.ones(16, 64), torch.ones(32, 64))     # both [N, 64]",
    fixed="add(torch.ones(16, 64), torch.ones(16, 64))",
)

CALL_LAYOUT: Final = Code(
    "pypto-call-layout",
    summary="A kernel call with a non-contiguous tensor",
    catches="A kernel call with a non-contiguous view (.t(), .T, .transpose, .permute, .expand, step slices).",
    compiler="RuntimeError 'not all tensors are contiguous' inside the call.",
    bad="mm(a, b.t(), out)",
    fixed="mm(a, b.t().contiguous(), out)",
    rules=("call-arguments-bound-at-run-time",),
)

CALL_ARGS: Final = Code(
    "pypto-call-args",
    summary="A kernel call whose arguments the frontend cannot bind",
    catches=(
        "A kernel call passing tensors by keyword, too few or too many arguments, a tensor for a "
        "non-tensor parameter or the reverse."
    ),
    compiler="RuntimeError / AttributeError inside the call.",
    bad="k(x, out=y)",
    fixed="k(x, y)",
    rules=("call-arguments-bound-at-run-time",),
)
