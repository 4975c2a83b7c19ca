"""jaxtyping (which binds the named dims at run time) and the knowledge layer (which explains,
and which static checks use) must accept and reject the same tensors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mypy_plugin.guard.binding import array_types, rejected
from mypy_plugin.knowledge.boundary.specs import Dim, KernelSpec, ParamSpec, TensorDesc
from mypy_plugin.knowledge.boundary.symbols import symbol_conflicts
from mypy_plugin.knowledge.boundary.tensors import check_tensor

torch = pytest.importorskip("torch")
pytest.importorskip("jaxtyping")

DTYPES = {"DT_FP32": torch.float32, "DT_BF16": torch.bfloat16, "DT_INT8": torch.int8, "DT_UINT8": torch.uint8,
          "DT_DOUBLE": torch.float64}
ANNOTATED = [None, *DTYPES, "DT_INT4", "DT_HF8"]  # INT4/HF8: no torch dtype, carried in byte tensors
dims: st.SearchStrategy[Dim] = st.one_of(st.sampled_from([1, 2, 3]), st.sampled_from(["N", "M"]), st.none())


@st.composite
def params(draw: Any, name: str) -> ParamSpec:
    if draw(st.integers(0, 6)) == 0:
        return ParamSpec(name, None, dtype=draw(st.sampled_from(ANNOTATED)))
    ds = tuple(draw(st.lists(dims, min_size=1, max_size=3)))
    return ParamSpec(name, ds, draw(st.booleans()), draw(st.sampled_from(ANNOTATED)), None in ds)


class _Kernel:
    """jaxtyping types are cached on the kernel object."""


@st.composite
def calls(draw: Any) -> tuple[KernelSpec, list[Any]]:
    """A kernel and tensors that mostly fit it, so that each rule (and the binding) is near its edge."""
    ps = [draw(params(f"p{i}")) for i in range(draw(st.integers(1, 3)))]
    sizes = {"N": draw(st.integers(1, 3)), "M": draw(st.integers(1, 3))}
    tensors = []
    for p in ps:
        if p.dims is None or draw(st.integers(0, 9)) == 0:
            shape = draw(st.lists(st.integers(1, 3), max_size=4))
        else:
            shape = [d if isinstance(d, int) else sizes[d] if isinstance(d, str) else draw(st.integers(1, 3))
                     for d in p.dims]
            shape += draw(st.lists(st.integers(1, 3), max_size=2)) if p.open_tail else []
            if shape and draw(st.booleans()):
                j = draw(st.integers(0, len(shape) - 1))
                shape[j] = draw(st.integers(1, 3))  # perturb one dim
        want = KernelSpec("k", tuple(ps)).expected_dtype(p)
        dt = DTYPES.get(want or "", torch.float32) if draw(st.booleans()) else draw(st.sampled_from(list(DTYPES.values())))
        tensors.append(torch.ones(shape, dtype=dt))
    return KernelSpec("k", tuple(ps)), tensors


@settings(max_examples=400, deadline=None)
@given(calls())
def test_jaxtyping_and_rules_agree(case: Any) -> None:
    spec, tensors = case
    descs = [TensorDesc(tuple(x.shape), str(x.dtype), x.element_size(), True) for x in tensors]
    by_rules = {p.name for p, d in zip(spec.tensors, descs) if check_tensor(spec, p, d)}
    by_rules |= {c.second.param for c in symbol_conflicts(spec, descs)}
    got = rejected(array_types(_Kernel(), spec, torch.Tensor), tensors)
    assert {spec.tensors[i].name for i in got} == by_rules
