"""A kernel call's argument list against the kernel's parameters (count, keywords, tensor or not), as findings (rule: call-arguments-bound-at-run-time)."""

from __future__ import annotations

from collections.abc import Sequence

from ..codes.call_codes import CALL_ARGS
from ..findings import Finding
from .specs import KernelSpec, where


def check_args(kernel: KernelSpec, positional: Sequence[bool | None],
               keywords: dict[str, bool | None]) -> list[Finding]:
    """The call's arguments: ``positional[i]`` / ``keywords[k]`` say whether each is a tensor
    (None: unknown). 0.2.0 takes exactly the first len(tensors) positionals as tensors."""
    out: list[Finding] = []
    n = len(kernel.tensors)
    names = [p.name for p in kernel.tensors]
    tensor_kw = [k for k in keywords if k in names]
    for k in tensor_kw:
        out.append(Finding(
            CALL_ARGS,
            f'{where(kernel, k)}: tensor passed by keyword; 0.2.0 takes tensors only by position '
            f'(RuntimeError "Expected at least {n} tensor argument(s)" or a wrong binding)',
            f"pass the {n} tensor(s) positionally, in the order {', '.join(names)}",
        ))
    if len(positional) < n:
        missing = names[len(positional):]
        if not set(missing) <= set(tensor_kw):
            out.append(Finding(
                CALL_ARGS,
                f'Kernel "{kernel.name}": {len(positional)} positional argument(s) for {n} tensor '
                f'parameter(s) (missing {", ".join(missing)}); 0.2.0 raises RuntimeError '
                f'"Expected at least {n} tensor argument(s), got {len(positional)}."',
                f"pass one torch tensor per tensor parameter, in the order {', '.join(names)}",
            ))
    for i, is_tensor in enumerate(positional[:n]):
        if is_tensor is False:
            out.append(Finding(
                CALL_ARGS,
                f"{where(kernel, names[i])}: expected a torch tensor, got a non-tensor; 0.2.0 fails "
                f"at run time (AttributeError: ... has no attribute 'device')",
                "pass a contiguous torch tensor here; non-tensor parameters come after the tensors",
            ))
    extra = positional[n:]
    if len(extra) > len(kernel.non_tensors):
        out.append(Finding(
            CALL_ARGS,
            f'Kernel "{kernel.name}": {len(positional)} positional argument(s), but it has {n} tensor '
            f"and {len(kernel.non_tensors)} non-tensor parameter(s); 0.2.0 raises RuntimeError "
            f'"Too many positional arguments"',
            "remove the extra arguments",
        ))
    for i, is_tensor in enumerate(extra[:len(kernel.non_tensors)]):
        if is_tensor:
            out.append(_tensor_for_scalar(kernel, kernel.non_tensors[i]))
    for k, is_tensor in keywords.items():
        if k in names:
            continue
        if k not in kernel.non_tensors:
            out.append(Finding(
                CALL_ARGS,
                f'Kernel "{kernel.name}": unknown keyword argument "{k}"; 0.2.0 raises RuntimeError '
                f'"Unknown keyword argument(s)"',
                f"its non-tensor parameters are: {', '.join(kernel.non_tensors) or '(none)'}",
            ))
        elif is_tensor:
            out.append(_tensor_for_scalar(kernel, k))
    given = set(kernel.non_tensors[:len(extra)]) | set(keywords)
    for k in kernel.non_tensors:
        if k in kernel.required and k not in given:
            out.append(Finding(
                CALL_ARGS,
                f'{where(kernel, k)}: no value (it has no default); 0.2.0 raises RuntimeError '
                f"\"Missing required non-tensor argument '{k}'.\"",
                f'pass {k}=... (positionally after the tensors, or by keyword)',
            ))
    return out


def _tensor_for_scalar(kernel: KernelSpec, name: str) -> Finding:
    return Finding(
        CALL_ARGS,
        f"{where(kernel, name)}: a torch tensor for a non-tensor parameter; 0.2.0 raises RuntimeError "
        f"\"Non-tensor parameter '{name}' must not be a torch.Tensor\"",
        "annotate the parameter as a pypto.Tensor (tensor parameters come first), or pass a Python value",
    )
