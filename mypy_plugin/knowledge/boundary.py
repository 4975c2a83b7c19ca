"""The host boundary of a jit kernel: what the call's arguments must match, as findings (pure).

PyPTO 0.2.0 checks almost nothing when a kernel is called (a wrong shape, rank or dtype is
compiled silently over the torch buffer; shared symbols are never enforced: rule:
host-tensors-not-checked; the argument list is bound only at run time: rule:
call-arguments-bound-at-run-time). These functions say
what a call does wrong, for the runtime guard (real tensors) and for static checks of host code
(tensors known from the source; every unknown is ``None`` and stays silent).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Union

from .dtypes import FP32, nbytes
from .shapes import numel

CALL_SHAPE: Final = "pypto-call-shape"
CALL_DTYPE: Final = "pypto-call-dtype"
CALL_RANK: Final = "pypto-call-rank"
CALL_SYMBOL: Final = "pypto-call-symbol"
CALL_LAYOUT: Final = "pypto-call-layout"
CALL_ARGS: Final = "pypto-call-args"

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


@dataclass(frozen=True)
class KernelSpec:
    """A jit kernel's parameters, in order: tensors first, then the others."""

    name: str
    tensors: tuple[ParamSpec, ...]
    non_tensors: tuple[str, ...] = ()
    required: frozenset[str] = frozenset()  # non-tensor parameters without a default

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


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    note: str


def fmt_dims(dims: Sequence[Dim], open_tail: bool = False) -> str:
    items = ["?" if d is None else str(d) for d in dims] + (["..."] if open_tail else [])
    return "[" + ", ".join(items) + "]"


def fmt_shape(shape: Sequence[int | None]) -> str:
    return fmt_dims(shape)


def _where(kernel: KernelSpec, p: str) -> str:
    return f'Kernel "{kernel.name}", parameter "{p}"'


def _annot(kernel: KernelSpec, p: ParamSpec) -> str:
    dt = kernel.expected_dtype(p)
    shape = "[]" if p.dims is None else fmt_dims(p.dims, p.open_tail)
    return f"{shape} {dt}" if dt else shape


# --- count, keywords, tensor vs non-tensor -----------------------------------------------------

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
            f'{_where(kernel, k)}: tensor passed by keyword; 0.2.0 takes tensors only by position '
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
                f"{_where(kernel, names[i])}: expected a torch tensor, got a non-tensor; 0.2.0 fails "
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
                f'{_where(kernel, k)}: no value (it has no default); 0.2.0 raises RuntimeError '
                f"\"Missing required non-tensor argument '{k}'.\"",
                f'pass {k}=... (positionally after the tensors, or by keyword)',
            ))
    return out


def _tensor_for_scalar(kernel: KernelSpec, name: str) -> Finding:
    return Finding(
        CALL_ARGS,
        f"{_where(kernel, name)}: a torch tensor for a non-tensor parameter; 0.2.0 raises RuntimeError "
        f"\"Non-tensor parameter '{name}' must not be a torch.Tensor\"",
        "annotate the parameter as a pypto.Tensor (tensor parameters come first), or pass a Python value",
    )


# --- one tensor against its annotation ---------------------------------------------------------

def check_tensor(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> list[Finding]:
    """Layout, rank, static dims and dtype of one argument tensor (shared symbols: see
    :func:`symbol_conflicts`)."""
    out: list[Finding] = []
    if t.contiguous is False:
        out.append(Finding(
            CALL_LAYOUT,
            f"{_where(kernel, p.name)}: the tensor{_of(t)} is not contiguous (a view such as .t(), .T, "
            f'.transpose, .permute, .expand or a step slice); 0.2.0 raises RuntimeError "not all tensors '
            f'are contiguous" at run time',
            "pass x.contiguous()",
        ))
    rank = _rank_finding(kernel, p, t)
    if rank is not None:
        out.append(rank)
    else:
        out.extend(_shape_findings(kernel, p, t))
    dt = _dtype_finding(kernel, p, t)
    if dt is not None:
        out.append(dt)
    return out


def _of(t: TensorDesc) -> str:
    return "" if t.shape is None else f" {fmt_shape(t.shape)}"


def _rank_finding(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> Finding | None:
    if p.dims is None or t.shape is None:
        return None
    want, got = len(p.dims), len(t.shape)
    if got == want or p.open_tail and got >= want:
        return None
    expect = f"at least {want}" if p.open_tail else str(want)
    if kernel.runtime_shapes:
        consequence = (f"0.2.0 traces the kernel with the tensor's {got}-D shape, not the annotation's "
                       "(a compile error in a later pass, or a kernel the annotation does not describe)")
    else:
        consequence = (f"0.2.0 does not check this: it compiles the kernel for {_annot(kernel, p)} over the "
                       "tensor's buffer (silent wrong data)")
    return Finding(
        CALL_RANK,
        f"{_where(kernel, p.name)}: expected {expect} dims ({_annot(kernel, p)}), got a {got}-D tensor "
        f"{fmt_shape(t.shape)}; {consequence}",
        f"pass a {want}-D tensor (x.reshape(...)), or change the annotation",
    )


def _shape_findings(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> list[Finding]:
    if p.dims is None or t.shape is None:
        return []
    bad = [(i, d, g) for i, (d, g) in enumerate(zip(p.dims, t.shape))
           if isinstance(d, int) and g is not None and g != d]
    if not bad:
        return []
    diffs = ", ".join(f"dim {i} is {g}, not {d}" for i, d, g in bad)
    if kernel.runtime_shapes:
        consequence = ("0.2.0 does not check this: the annotation's size is ignored and the kernel is traced "
                       f"with {fmt_shape(t.shape)} (a kernel the annotation does not describe)")
    else:
        consequence = (f"0.2.0 does not check this: it compiles the kernel for {_annot(kernel, p)} over the "
                       f"tensor's buffer (silent wrong data{_overrun(kernel, p, t)})")
    return [Finding(
        CALL_SHAPE,
        f"{_where(kernel, p.name)}: {diffs} (annotation {_annot(kernel, p)}, tensor {fmt_shape(t.shape)}); "
        f"{consequence}",
        f"pass a {fmt_dims(p.dims, p.open_tail)} tensor, or annotate a varying dim with "
        'pypto.frontend.dynamic("N") and loop over it',
    )]


def _overrun(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> str:
    """', and reads/writes past its end' when the annotation needs more bytes than the buffer has."""
    dt = kernel.expected_dtype(p)
    want_n = numel(tuple(p.dims or ()))
    got_n = numel(tuple(t.shape or ()))
    size = nbytes(dt) if dt else None
    if None in (want_n, got_n, size, t.itemsize) or p.open_tail:
        return ""
    assert want_n is not None and got_n is not None and size is not None and t.itemsize is not None
    need, have = want_n * size, got_n * t.itemsize
    if need <= have:
        return ""
    return f"; it is built to access {need} bytes of a {have}-byte buffer: out of bounds, heap corruption on a write"


def _dtype_finding(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> Finding | None:
    want = kernel.expected_dtype(p)
    if want is None or t.dtype is None or t.dtype in torch_dtypes_for(want):
        return None
    got = t.dtype
    if p.dtype is None:
        written = "by default (no dtype written, static shape)"
    else:
        written = "annotated (or the default of a static shape)" if p.dtype_maybe_default else "annotated"
    size = nbytes(want)
    if t.itemsize is not None and size is not None and t.itemsize < size:
        consequence = (f"the {t.itemsize}-byte elements are read as {size}-byte {want}: out-of-bounds access, "
                       "heap corruption (the process can die with SIGABRT at exit)")
    else:
        consequence = f"the bytes are read as {want} (silent wrong data)"
    torch_names = " or ".join(torch_dtypes_for(want)) or "(no torch dtype)"
    return Finding(
        CALL_DTYPE,
        f"{_where(kernel, p.name)}: {want} {written}, got a {got} tensor; 0.2.0 does not check this: {consequence}",
        f"pass x.to({torch_names.split(' or ')[0]}), or annotate the dtype the tensor has",
    )


# --- shared symbols ----------------------------------------------------------------------------

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
        if p.dims is None or t.shape is None or _breaks_annotation(kernel, p, t):
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


def _breaks_annotation(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> bool:
    return (_rank_finding(kernel, p, t) is not None or bool(_shape_findings(kernel, p, t))
            or _dtype_finding(kernel, p, t) is not None)
