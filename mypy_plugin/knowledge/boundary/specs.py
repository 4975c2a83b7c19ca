"""The host boundary of a jit kernel: its parameters and a call's tensors as plain values, the findings' codes (pure).

PyPTO 0.2.0 checks almost nothing when a kernel is called (a wrong shape, rank or dtype is
compiled silently over the torch buffer; shared symbols are never enforced: rule:
host-tensors-not-checked; the argument list is bound only at run time: rule:
call-arguments-bound-at-run-time). :mod:`.boundary_args`, :mod:`.boundary_tensors` and
:mod:`.boundary_symbols` say what a call does wrong, for the runtime guard (real tensors) and for
static checks of host code (tensors known from the source; every unknown is ``None`` and stays silent).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Union

from ..codes.call_codes import CALL_ARGS, CALL_DTYPE, CALL_LAYOUT, CALL_RANK, CALL_SHAPE, CALL_SYMBOL
from ..dtypes import FP32
from ..shapes import fmt_shape

# A dim of an annotation: an int (static), a symbol name (``pypto.frontend.dynamic("N")``), or
# None (STATIC / DYNAMIC / DYN / an expression: any size).
Dim = Union[int, str, None]

# torch dtype name -> the pypto dtypes 0.2.0 maps it to (JitCallableWrapper._dtype_dict plus its
# "special" uint8 -> HF8, and float64 / float4 from converter.from_torch, which builds the tensor).
TORCH_TO_PYPTO: Final[dict[str, tuple[str, ...]]] = {
    "torch.int8": ("DT_INT8",),
    "torch.int16": ("DT_INT16",),
    "torch.int32": ("DT_INT32",),
    "torch.int64": ("DT_INT64",),
    "torch.float16": ("DT_FP16",),
    "torch.float32": ("DT_FP32",),
    "torch.bfloat16": ("DT_BF16",),
    "torch.float8_e4m3fn": ("DT_FP8E4M3",),
    "torch.float8_e5m2": ("DT_FP8E5M2",),
    "torch.float8_e8m0fnu": ("DT_FP8E8M0",),
    "torch.uint8": ("DT_UINT8", "DT_HF8"),
    "torch.uint16": ("DT_UINT16",),
    "torch.uint32": ("DT_UINT32",),
    "torch.uint64": ("DT_UINT64",),
    "torch.bool": ("DT_BOOL",),
    "torch.float64": ("DT_DOUBLE",),
    "torch.float4_e2m1fn_x2": ("DT_FP4_E2M1X2",),
}

# pypto dtypes with no torch dtype of their own (4-bit and other packed formats): their data comes
# in byte tensors, so any 1-byte integer tensor may carry them (unprovable otherwise: silence).
# DT_FP4_E2M1X2 has torch.float4_e2m1fn_x2, but PyPTO's own tests pass its data as uint8.
CARRIED: Final = frozenset({"DT_INT4", "DT_FP8", "DT_HF4", "DT_HF8", "DT_FP4_E1M2X2", "DT_FP4_E2M1X2"})
CARRIERS: Final = ("torch.int8", "torch.uint8")


@functools.cache  # on every guarded call: keep it a lookup
def torch_dtypes_for(pypto_dtype: str) -> tuple[str, ...]:
    """The torch dtypes a tensor may have for an annotation of ``pypto_dtype``."""
    native = tuple(t for t, ps in TORCH_TO_PYPTO.items() if pypto_dtype in ps)
    return native + tuple(c for c in CARRIERS if c not in native) if pypto_dtype in CARRIED else native


@dataclass(frozen=True)
class ParamSpec:
    """One tensor parameter's annotation."""

    name: str
    dims: tuple[Dim, ...] | None  # None: no shape (``[]``, ``Tensor()``): taken from the tensor
    open_tail: bool = False  # ends in ``...``: any number of further dims
    dtype: str | None = None  # "DT_BF16" as written (the subscript form always has one); None: none written
    status: bool = False  # has a STATIC / DYNAMIC / DYN dim (those dims are None in ``dims``)
    # Read from a checked type, where a written DT_FP32 and the FP32 default look the same.
    dtype_maybe_default: bool = False
    dtype_written: bool | None = None  # the annotation writes a dtype (None: not known)


@dataclass(frozen=True)
class KernelSpec:
    """A jit kernel's parameters, in order: tensors first, then the others."""

    name: str
    tensors: tuple[ParamSpec, ...]
    non_tensors: tuple[str, ...] = ()
    required: frozenset[str] = frozenset()  # non-tensor parameters without a default
    # ``debug_options={"runtime_debug_mode": 3}`` on the decorator: 0.2.0 compares each call's
    # tensors with the annotations and raises ValueError (rule: runtime-debug-mode-3-checks-calls).
    checked: bool = False

    @functools.cached_property
    def runtime_shapes(self) -> bool:
        """0.2.0 ``Parser.get_signature``: if any tensor annotation has no shape, a
        STATIC/DYNAMIC/DYN dim or ``...``, every tensor parameter takes shape (and, with no
        dtype written, dtype) from the call's tensors."""
        return any(p.dims is None or p.open_tail or p.status for p in self.tensors)

    def expected_dtype(self, p: ParamSpec) -> str | None:
        """The dtype the kernel is compiled with for ``p``; None: the tensor's own."""
        if p.dtype is not None:
            return p.dtype
        return None if self.runtime_shapes else FP32  # tensor.py: no dtype = FP32 for a static shape


@dataclass(frozen=True)
class TensorDesc:
    """What is known about one argument tensor (None: unknown)."""

    shape: tuple[int | None, ...] | None
    dtype: str | None  # "torch.bfloat16"
    itemsize: int | None
    contiguous: bool | None


def where(kernel: KernelSpec, p: str) -> str:
    return f'Kernel "{kernel.name}", parameter "{p}"'


def annot(kernel: KernelSpec, p: ParamSpec) -> str:
    dt = kernel.expected_dtype(p)
    shape = "[]" if p.dims is None else fmt_shape(p.dims, p.open_tail)
    return f"{shape} {dt}" if dt else shape
