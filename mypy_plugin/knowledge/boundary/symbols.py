"""Shared symbols across a call's tensors (``pypto.frontend.dynamic("N")`` in two annotations): conflicts, as findings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..codes.call_codes import CALL_SYMBOL
from ..findings import Finding
from .specs import KernelSpec, TensorDesc
from .tensors import breaks_annotation


@dataclass(frozen=True)
class Binding:
    param: str
    axis: int
    size: int


@dataclass(frozen=True)
class SymbolConflict:
    symbol: str
    first: Binding  # where the symbol was bound
    second: Binding  # a later use with another size


def symbol_finding(kernel: KernelSpec, c: SymbolConflict) -> Finding:
    s, a, b = c.symbol, c.first, c.second
    return Finding(
        CALL_SYMBOL,
        f'Kernel "{kernel.name}": symbol {s} is {a.size} in "{a.param}" (dim {a.axis}) but {b.size} in '
        f'"{b.param}" (dim {b.axis}); 0.2.0 does not enforce shared symbols: each tensor keeps its own '
        f"size, and code written for one {s} reads the other tensor wrongly (silent wrong data)",
        f"pass tensors whose dims named {s} agree, or give them different symbols",
    )


def symbol_conflicts(kernel: KernelSpec, tensors: Sequence[TensorDesc]) -> list[SymbolConflict]:
    """Each symbol is bound where it first appears with a known size; a later use with another
    size is a conflict. A tensor that breaks its own annotation (rank, dims, dtype) binds nothing
    (it is reported by :func:`check_tensor`), and a tensor with a conflict binds none of its dims."""
    bound: dict[str, Binding] = {}
    out: list[SymbolConflict] = []
    for p, t in zip(kernel.tensors, tensors):
        if p.dims is None or t.shape is None or breaks_annotation(kernel, p, t):
            continue
        local = dict(bound)
        clash = None
        for axis, (d, g) in enumerate(zip(p.dims, t.shape)):
            if not isinstance(d, str) or g is None:
                continue
            here = Binding(p.name, axis, g)
            first = local.setdefault(d, here)
            if first.size != g:
                clash = SymbolConflict(d, first, here)
                break
        if clash is None:
            bound = local
        else:
            out.append(clash)
    return out
