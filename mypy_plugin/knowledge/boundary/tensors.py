"""One argument tensor against its parameter's annotation (layout, rank, dims, dtype), as findings (rule: host-tensors-not-checked)."""

from __future__ import annotations

from typing import Final

from ..codes.call_codes import CALL_DTYPE, CALL_LAYOUT, CALL_RANK, CALL_SHAPE
from ..dtypes import nbytes
from ..findings import Finding
from ..shapes import fmt_shape, numel
from .specs import KernelSpec, ParamSpec, TensorDesc, annot, torch_dtypes_for, where


def check_tensor(kernel: KernelSpec, p: ParamSpec, t: TensorDesc, written: str = "") -> list[Finding]:
    """Layout, rank, static dims and dtype of one argument tensor (shared symbols: see
    :func:`symbol_conflicts`). ``written``: the argument as the call writes it, when known (the
    notes then use it; else the parameter's name)."""
    out: list[Finding] = []
    if t.contiguous is False:
        out.append(Finding(
            CALL_LAYOUT,
            f"{where(kernel, p.name)}: the tensor{_of(t)} is not contiguous (a view such as .t(), .T, "
            f'.transpose, .permute, .expand or a step slice); 0.2.0 raises RuntimeError "not all tensors '
            f'are contiguous" at run time',
            f"pass {written or p.name}.contiguous()",
        ))
    rank = _rank_finding(kernel, p, t, written)
    if rank is not None:
        out.append(rank)
    else:
        out.extend(_shape_findings(kernel, p, t))
    dt = _dtype_finding(kernel, p, t, written)
    if dt is not None:
        out.append(dt)
    return out


def _of(t: TensorDesc) -> str:
    return "" if t.shape is None else f" {fmt_shape(t.shape)}"


def _uncast(written: str) -> str:
    """``y.half()`` -> ``y``: the note converts the tensor the call starts from."""
    for cast in _CASTS:
        if written.endswith(cast) and len(written) > len(cast):
            return written[:-len(cast)]
    if written.endswith(")") and ".to(" in written:
        head = written[:written.rindex(".to(")]
        if head and head.count("(") == head.count(")"):
            return head
    return written


_CASTS = (".half()", ".float()", ".bfloat16()", ".double()", ".int()", ".long()", ".short()", ".char()", ".byte()",
          ".bool()")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 11 <= n % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# In the findings on a call that 0.2.0 rejects before it traces the kernel (runtime_debug_mode=3).
RAISES_AT_CALL = "so 0.2.0 raises ValueError at the call"


def _raises(kernel: KernelSpec, p: ParamSpec, what: str) -> str:
    """What 0.2.0 does with a kernel whose calls it checks (runtime_debug_mode=3): the words of
    JitCallableWrapper._check_input_defs_match_tensors."""
    n = next((i for i, q in enumerate(kernel.tensors, 1) if q is p), 0)
    which = f"{_ordinal(n)} input tensor" if n else "input tensor"
    return (f'the kernel has runtime_debug_mode=3, {RAISES_AT_CALL} ("The {what} of {which} '
            f'... does not match the {what} of input tensor definition ...")')


def _rank_finding(kernel: KernelSpec, p: ParamSpec, t: TensorDesc, written: str = "") -> Finding | None:
    if p.dims is None or t.shape is None:
        return None
    want, got = len(p.dims), len(t.shape)
    if got == want or p.open_tail and got >= want:
        return None
    expect = f"at least {want}" if p.open_tail else str(want)
    if kernel.checked and (got < want or not (p.status or p.open_tail)):
        # a status shape (STATIC, DYNAMIC, ...) is compared only for too few dims
        consequence = _raises(kernel, p, "number of dimensions")
    elif kernel.runtime_shapes:
        consequence = (f"0.2.0 traces the kernel with the tensor's {got}-D shape, not the annotation's "
                       "(a compile error in a later pass, or a kernel the annotation does not describe)")
    else:
        consequence = (f"0.2.0 does not check this: it compiles the kernel for {annot(kernel, p)} over the "
                       "tensor's buffer (silent wrong data)")
    return Finding(
        CALL_RANK,
        f"{where(kernel, p.name)}: expected {expect} dims ({annot(kernel, p)}), got a {got}-D tensor "
        f"{fmt_shape(t.shape)}; {consequence}",
        f"pass a {want}-D tensor ({written or p.name}.reshape(...)), or change the annotation",
    )


def _shape_findings(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> list[Finding]:
    if p.dims is None or t.shape is None:
        return []
    bad = [(i, d, g) for i, (d, g) in enumerate(zip(p.dims, t.shape))
           if isinstance(d, int) and g is not None and g != d]
    if not bad:
        return []
    diffs = ", ".join(f"dim {i} is {g}, not {d}" for i, d, g in bad)
    if kernel.checked:  # int dims are compared, symbols and STATIC/DYNAMIC are not
        consequence = _raises(kernel, p, "shape")
    elif kernel.runtime_shapes:
        consequence = ("0.2.0 does not check this: the annotation's size is ignored and the kernel is traced "
                       f"with {fmt_shape(t.shape)} (a kernel the annotation does not describe)")
    else:
        consequence = (f"0.2.0 does not check this: it compiles the kernel for {annot(kernel, p)} over the "
                       f"tensor's buffer (silent wrong data{_overrun(kernel, p, t)})")
    return [Finding(
        CALL_SHAPE,
        f"{where(kernel, p.name)}: {diffs} (annotation {annot(kernel, p)}, tensor {fmt_shape(t.shape)}); "
        f"{consequence}",
        f"pass a {fmt_shape(p.dims, p.open_tail)} tensor, or annotate a varying dim with "
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


# A bool and a 1-byte integer share their size: 0 and 1 read the same either way (a kernel's DT_BOOL
# output in a uint8 tensor holds the right values), any other byte does not.
_BYTE_INTEGERS: Final = (("DT_UINT8", "torch.uint8"), ("DT_INT8", "torch.int8"))


def _bool_and_byte(want: str, got: str) -> bool:
    return ((want == "DT_BOOL" and got in {t for _, t in _BYTE_INTEGERS})
            or (got == "torch.bool" and want in {d for d, _ in _BYTE_INTEGERS}))


def _dtype_finding(kernel: KernelSpec, p: ParamSpec, t: TensorDesc, written: str = "") -> Finding | None:
    want = kernel.expected_dtype(p)
    if want is None or t.dtype is None or t.dtype in torch_dtypes_for(want):
        return None
    got = t.dtype
    if p.dtype is None or p.dtype_written is False:
        how = "by default (no dtype written, static shape)"
    else:
        how = "annotated (or the default of a static shape)" if p.dtype_maybe_default and not p.dtype_written else "annotated"
    size = nbytes(want)
    torch_names = " or ".join(torch_dtypes_for(want)) or "(no torch dtype)"
    fix = f"pass {_uncast(written) or p.name}.to({torch_names.split(' or ')[0]}), or annotate the dtype the tensor has"
    if kernel.checked and p.dtype_written:  # a dtype the annotation does not write is not compared
        return Finding(CALL_DTYPE, f"{where(kernel, p.name)}: {want} {how}, got a {got} tensor; "
                                   f"{_raises(kernel, p, 'dtype')}", fix)
    if t.itemsize is not None and size is not None and t.itemsize < size:
        consequence = (f"the {t.itemsize}-byte elements are read as {size}-byte {want}: out-of-bounds access, "
                       "heap corruption (the process can die with SIGABRT at exit)")
    elif _bool_and_byte(want, got):
        consequence = (f"the bytes are read as {want}: both are 1 byte, so the values agree only while every byte "
                       "is 0 or 1")
    else:
        consequence = f"the bytes are read as {want} (silent wrong data)"
    said = f"0.2.0 does not check this: {consequence}"
    if kernel.checked and p.dtype_written is None:  # DT_FP32 written, or the default: not known here
        said = (f"the kernel has runtime_debug_mode=3: 0.2.0 raises ValueError at the call if the annotation writes "
                f"the dtype, else {consequence}")
    return Finding(CALL_DTYPE, f"{where(kernel, p.name)}: {want} {how}, got a {got} tensor; {said}", fix)


def breaks_annotation(kernel: KernelSpec, p: ParamSpec, t: TensorDesc) -> bool:
    """Does the tensor break its own annotation (rank, dims, dtype)? Then it binds no symbol."""
    return (_rank_finding(kernel, p, t) is not None or bool(_shape_findings(kernel, p, t))
            or _dtype_finding(kernel, p, t) is not None)
