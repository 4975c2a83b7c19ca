"""Checks one kernel call's arguments against the kernel's annotations; raises BoundaryError."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ..knowledge.boundary.checks import BoundaryCall, call_findings
from ..knowledge.boundary.specs import KernelSpec, TensorDesc
from ..knowledge.boundary.symbols import symbol_conflicts, symbol_finding
from ..knowledge.findings import Finding
from .binding import array_types, rejected
from .kernel_spec import kernel_spec
from .tensors import describe, is_tensor


class BoundaryError(TypeError):
    """A kernel call whose arguments do not match the kernel's annotations (raised before PyPTO
    sees them). ``findings`` holds each problem with its ``pypto-call-*`` code."""

    def __init__(self, kernel: str, findings: Sequence[Finding]) -> None:
        self.kernel = kernel
        self.findings = list(findings)
        super().__init__(format_findings(kernel, self.findings))

    def __reduce__(self) -> tuple[type[BoundaryError], tuple[str, list[Finding]]]:
        return BoundaryError, (self.kernel, self.findings)  # picklable (pytest-xdist workers)


def format_findings(kernel: str, findings: Sequence[Finding]) -> str:
    lines = [f'pypto guard: the call of kernel "{kernel}" does not match its annotations']
    for f in findings:
        lines.append(f"error: {f.message}  [{f.code}]")
        lines.append(f"note: {f.note}")
    return "\n".join(lines)


def findings_for_call(kernel: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> list[Finding]:
    """Every boundary finding for ``kernel(*args, **kwargs)``; [] for an object that is not a
    kernel this guard understands."""
    spec = kernel_spec(kernel)
    if spec is None:
        return []
    tensors = list(args[:len(spec.tensors)])
    call = BoundaryCall(spec, [is_tensor(a) for a in args], {k: is_tensor(v) for k, v in kwargs.items()},
                        lambda: [describe(t) for t in tensors])
    return call_findings(call, lambda spec, descs: _symbol_findings(kernel, spec, tensors, list(descs)))


def _symbol_findings(kernel: Any, spec: KernelSpec, tensors: list[Any], descs: list[TensorDesc]) -> list[Finding]:
    """jaxtyping decides which tensors break a binding; the knowledge layer says which symbol
    and where it was bound first (tensors that break their own annotation bind nothing there)."""
    if not spec.tensors or not any(p.dims and any(isinstance(d, str) for d in p.dims) for p in spec.tensors):
        return []  # no symbols: nothing for jaxtyping to bind that the per-tensor rules did not check
    bad = rejected(array_types(kernel, spec, sys.modules["torch"].Tensor), tensors)
    names = {spec.tensors[i].name for i in bad}
    return [symbol_finding(spec, c) for c in symbol_conflicts(spec, descs) if c.second.param in names]
