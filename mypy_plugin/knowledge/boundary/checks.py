"""The registry of host-call checks: what one call of a jit kernel does wrong, in the order the
frontend meets it: the argument list first (nothing else is bound when it fails), then each tensor
against its annotation, then the shape symbols shared by several parameters.

The runtime guard (real tensors) and the static host check (the tensors the host code proves)
both ask :func:`call_findings`; they differ only in how tensors are described and, for the
guard, in who decides a symbol binding (jaxtyping).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..findings import Finding
from .args import check_args
from .specs import KernelSpec, TensorDesc
from .symbols import symbol_conflicts, symbol_finding
from .tensors import check_tensor

SymbolCheck = Callable[[KernelSpec, Sequence[TensorDesc]], list[Finding]]


@dataclass(frozen=True)
class BoundaryCall:
    """One call: whether each argument is a tensor (None: unknown), and the tensor arguments
    described on demand (describing real tensors costs; an argument-list finding needs none)."""

    spec: KernelSpec
    positional: Sequence[bool | None]
    keywords: Mapping[str, bool | None]
    tensors: Callable[[], Sequence[TensorDesc]]
    texts: Sequence[str] = ()  # each tensor argument as written at the call ("": unknown)


def shared_symbols(spec: KernelSpec, descs: Sequence[TensorDesc]) -> list[Finding]:
    return [symbol_finding(spec, c) for c in symbol_conflicts(spec, descs)]


def call_findings(call: BoundaryCall, symbols: SymbolCheck = shared_symbols) -> list[Finding]:
    spec = call.spec
    found = check_args(spec, list(call.positional), dict(call.keywords))
    if found:
        return found
    descs = call.tensors()
    texts = (*call.texts, *("",) * len(descs))
    for p, d, text in zip(spec.tensors, descs, texts):
        found.extend(check_tensor(spec, p, d, text))
    found.extend(symbols(spec, descs))
    return found
