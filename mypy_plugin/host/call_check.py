"""One host call of a kernel against the kernel's parameters (pure): the boundary findings, and
the tensors the kernel is traced with at that call (for checking the kernel with them).

The parameters come from checked types (:class:`Parameters`), so a kernel read from mypy's
cache gives the same answers as one parsed in this run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..knowledge.boundary.checks import BoundaryCall, call_findings
from ..knowledge.boundary.specs import TORCH_TO_PYPTO, KernelSpec, ParamSpec, TensorDesc
from ..knowledge.codes.call_codes import CALL_DTYPE, CALL_RANK, CALL_SHAPE
from ..knowledge.dtypes import DTYPES, FP32
from ..knowledge.findings import Finding
from ..knowledge.shapes import DYNAMIC, Dim, Shape, fmt_dim, fmt_shape, is_dynamic
from ..knowledge.values import TensorVal
from .evaluate import CallSite
from .values import UNKNOWN, HostTensor, NdArray, PyptoDType, Value

_NOTHING = TensorDesc(None, None, None, None)


@dataclass(frozen=True)
class Parameters:
    """A kernel's parameters as its checked signature gives them."""

    spec: KernelSpec
    declared: tuple[TensorVal, ...]  # each tensor parameter's type, as the kernel body sees it
    # FP32 in the type of a runtime-shaped kernel: written DT_FP32, or the default that the
    # frontend replaces by the tensor's dtype; which one, the type does not say.
    ambiguous_dtype: frozenset[int]


def parameters(name: str, tensors: list[tuple[str, TensorVal]], others: list[str],
               required: frozenset[str]) -> Parameters:
    """``tensors``: (name, type) of each tensor parameter in order; ``others``: the rest."""
    runtime = any(v.shape is None or None in (_boundary_dims(v.shape) or ()) for _, v in tensors)
    specs: list[ParamSpec] = []
    ambiguous: set[int] = set()
    for i, (pname, v) in enumerate(tensors):
        dims = _boundary_dims(v.shape)
        dtype = v.dtype
        if runtime and dtype == FP32:
            ambiguous.add(i)
            dtype = None  # unknown which: the tensor's own dtype is not checked
        specs.append(ParamSpec(
            pname,
            dims,
            dtype=dtype,
            # An unknown dim in a checked type: STATIC / DYNAMIC or an expression nobody can read;
            # count it as runtime-shaped, where the frontend checks least.
            status=dims is not None and None in dims,
            dtype_maybe_default=dtype == FP32,
        ))
    spec = KernelSpec(name, tuple(specs), tuple(others), required)
    return Parameters(spec, tuple(v for _, v in tensors), frozenset(ambiguous))


def checked_calls(params: Parameters, checked: bool, dtypes: Sequence[str] | None) -> Parameters:
    """The parameters with what decides 0.2.0's own check of a call (runtime_debug_mode=3):
    whether the kernel has it, and whether each annotation writes its dtype (``dtypes``: as the
    parse gives them, "" none; None without the parse: known only for a dtype other than FP32)."""
    spec = params.spec
    tensors = tuple(
        dataclasses.replace(p, dtype_written=bool(dtypes[i]) if dtypes is not None and i < len(dtypes) else
                            True if p.dtype is not None and not p.dtype_maybe_default else None)
        for i, p in enumerate(spec.tensors))
    return dataclasses.replace(params, spec=dataclasses.replace(spec, tensors=tensors, checked=checked))


def _boundary_dims(shape: Shape) -> tuple[Dim, ...] | None:
    """A checked type's dims as the boundary reads annotations: DYNAMIC is any size (None), a
    ``frontend.dynamic("N")`` symbol is the shared name ``N``."""
    if shape is None:
        return None
    return tuple(None if d == DYNAMIC else fmt_dim(d) if is_dynamic(d) else d for d in shape)


@dataclass(frozen=True)
class Written:
    """What a tensor parameter's annotation writes where its checked type knows nothing: the
    dtype ("" none, "DT_..." a name, else a variable's name) and a shape held in a variable."""

    dtype: str = ""
    shape_var: str | None = None


def _closure_shape(declared: TensorVal, w: Written, env: Mapping[str, Value]) -> Shape:
    shape = declared.shape
    if shape is None:
        held = env.get(w.shape_var) if w.shape_var else None
        return held if isinstance(held, tuple) and all(type(d) is int for d in held) else None  # type: ignore[return-value]
    # A dim named by a closure variable (``[n, 64]`` in a factory): its value at the call.
    return tuple(env.get(d, d) if isinstance(d, str) and type(env.get(d)) is int else d for d in shape)  # type: ignore[misc]


def at_call(params: Parameters, written: Sequence[Written], env: Mapping[str, Value]) -> tuple[Parameters, list[str]]:
    """The parameters with what the annotations read from variables in scope at the call (a
    kernel defined in a factory or in the calling function: ``pypto.Tensor(a_shape, dtype)``),
    when the host code proves those values; and each parameter's written dtype after that."""
    tensors: list[tuple[str, TensorVal]] = []
    dtypes: list[str] = []
    for p, declared, w in zip(params.spec.tensors, params.declared, written):
        dtype = w.dtype
        if w.shape_var is not None and not dtype and not isinstance(env.get(w.shape_var), tuple):
            dtype = w.shape_var  # ``Tensor(x)`` with x not a known shape: maybe a dtype
        value = env.get(dtype) if dtype and not dtype.startswith("DT_") else None
        if isinstance(value, PyptoDType) and value.name in DTYPES:
            dtype = value.name
        val = TensorVal(_closure_shape(declared, w, env), declared.dtype if declared.dtype is not None
                        else dtype if dtype in DTYPES else None)
        tensors.append((p.name, val))
        dtypes.append(dtype)
    if all(t[1] == d for t, d in zip(tensors, params.declared)):
        return params, dtypes
    spec = params.spec
    return parameters(spec.name, tensors, list(spec.non_tensors), spec.required), dtypes


def _is_tensor(v: Value) -> bool | None:
    if isinstance(v, HostTensor):
        return True
    return None if v is UNKNOWN or isinstance(v, NdArray) else False


def describe(v: Value) -> TensorDesc:
    if not isinstance(v, HostTensor):
        return _NOTHING
    dt = v.dtype
    return TensorDesc(v.shape, dt.name if dt else None, dt.itemsize if dt else None, v.contiguous)


def findings(params: Parameters, site: CallSite) -> list[Finding]:
    """What is wrong with this call, as far as the host code proves it (the runtime guard's
    rules, in the guard's order: the argument list first, then each tensor, then symbols)."""
    if site.star_args:
        return []
    call = BoundaryCall(params.spec, [_is_tensor(a) for a in site.args], {k: _is_tensor(v) for k, v in site.keywords},
                        lambda: [describe(a) for a in site.args[:len(params.spec.tensors)]], site.arg_texts)
    return call_findings(call)


def _pypto_dtype(torch_name: str | None) -> str | None:
    choices = TORCH_TO_PYPTO.get(torch_name or "", ())
    return choices[0] if len(choices) == 1 else None


# Findings 0.2.0 does not act on when the kernel takes its shapes from the call (rule:
# host-tensors-not-checked): it traces the kernel with the call's tensors anyway, rank included
# (probed: a [DYNAMIC, STATIC] parameter given a 3-D tensor is traced 3-D, also in the check mode).
SILENT_IN_RUNTIME_SHAPED: Final = frozenset({CALL_SHAPE, CALL_DTYPE, CALL_RANK})


def known_tensors(params: Parameters, site: CallSite) -> bool:
    """Are the shape and dtype of every tensor argument of the call known?"""
    n = len(params.spec.tensors)
    if site.star_args or len(site.args) < n:
        return False
    return all(d.shape is not None and None not in d.shape and d.dtype is not None for d in map(describe, site.args[:n]))


def traced_with(params: Parameters, site: CallSite, dtype_written: Sequence[str],
                found: Sequence[Finding] | None = None) -> tuple[TensorVal, ...] | None:
    """The tensor parameters as the frontend traces the kernel at this call: declared dims and
    dtypes kept, the ones it takes from the tensors filled in (in a kernel with runtime shapes,
    every dim but a dynamic one: 0.2.0 ignores a static annotation dim there; an explicit dtype
    still wins). None when the call cannot be trusted (a finding at the call other than a shape or
    dtype mismatch of a runtime-shaped kernel, an unknown argument list, a dtype name the checker
    does not know: a newer type such as unpacked FP4 changes the shape the kernel sees).
    ``dtype_written[i]``: what the annotation of tensor parameter i writes for the dtype: "" none
    (the frontend takes the tensor's), "DT_..." a name (its value at the call, for a variable
    the host code proves), anything else a variable (unknown here). ``found``: the call's
    :func:`findings`, when the caller has them already."""
    spec = params.spec
    if any(v.dtype is None and w.startswith("DT_") and w not in DTYPES for v, w in zip(params.declared, dtype_written)):
        return None
    if site.star_args or len(site.args) < len(spec.tensors):
        return None
    if found is None:
        found = findings(params, site)
    if found and not (spec.runtime_shapes and all(f.code in SILENT_IN_RUNTIME_SHAPED for f in found)):
        return None
    out: list[TensorVal] = []
    for i, (declared, arg) in enumerate(zip(params.declared, site.args)):
        t = describe(arg)
        shape = declared.shape
        if t.shape is None:
            pass
        elif shape is None:
            shape = t.shape
        elif spec.runtime_shapes:
            # The tensor's dims and rank, whatever the annotation says; a dynamic dim stays -1, by
            # position (probed: [DYNAMIC, STATIC] given [8, 4, 2] traces [-1, 4, 2]).
            written = shape
            shape = tuple(written[k] if k < len(written) and is_dynamic(written[k]) else g for k, g in enumerate(t.shape))
        elif len(shape) == len(t.shape):
            # every known dim agrees (no finding): fill in the rest
            shape = tuple(d if isinstance(d, int) else t.shape[k] for k, d in enumerate(shape))
        dtype = declared.dtype
        if dtype is None and dtype_written[i] in DTYPES:
            dtype = dtype_written[i]  # a variable's value at the call
        elif dtype is None and not dtype_written[i]:
            dtype = _pypto_dtype(t.dtype)
        elif i in params.ambiguous_dtype and _pypto_dtype(t.dtype) != dtype:
            return None  # FP32 written, or the tensor's dtype? Not provable: no specialization
        out.append(TensorVal(shape, dtype))
    return tuple(out)


def fmt_binding(names: list[str], vals: tuple[TensorVal, ...]) -> str:
    """``x [32, 128] DT_BF16, w [128, 64] DT_BF16`` for the note that names the call."""
    parts = []
    for name, v in zip(names, vals):
        shape = "[?]" if v.shape is None else fmt_shape(v.shape)
        parts.append(f"{name} {shape} {v.dtype or '?'}")
    return ", ".join(parts)
