"""jaxtyping (which binds the named dims at run time) and the knowledge layer (which explains,
and which static checks use) must accept and reject the same tensors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mypy_plugin.guard.binding import array_types, rejected
from mypy_plugin.knowledge.boundary import Dim, KernelSpec, ParamSpec, TensorDesc, check_tensor, symbol_conflicts

torch = pytest.importorskip("torch")
pytest.importorskip("jaxtyping")

DTYPES = {"DT_FP32": torch.float32, "DT_BF16": torch.bfloat16, "DT_INT8": torch.int8, "DT_UINT8": torch.uint8}
dims: st.SearchStrategy[Dim] = st.one_of(st.sampled_from([1, 2, 3]), st.sampled_from(["N", "M"]), st.none())


@st.composite
def params(draw: Any, name: str) -> ParamSpec:
    if draw(st.integers(0, 6)) == 0:
        return ParamSpec(name, None, dtype=draw(st.sampled_from([None, *DTYPES])))
    ds = tuple(draw(st.lists(dims, min_size=1, max_size=3)))
    return ParamSpec(name, ds, draw(st.booleans()), draw(st.sampled_from([None, *DTYPES])), None in ds)


class _Kernel:
    """jaxtyping types are cached on the kernel object."""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=3).flatmap(
    lambda xs: st.tuples(st.tuples(*[params(f"p{i}") for i in range(len(xs))]),
                         st.lists(st.tuples(st.lists(st.sampled_from([1, 2, 3]), max_size=4),
                                            st.sampled_from(list(DTYPES.values()))),
                                  min_size=len(xs), max_size=len(xs)))))
def test_jaxtyping_and_rules_agree(case: Any) -> None:
    ps, raw = case
    spec = KernelSpec("k", tuple(ps))
    tensors = [torch.ones(shape, dtype=dt) for shape, dt in raw]
    descs = [TensorDesc(tuple(x.shape), str(x.dtype), x.element_size(), True) for x in tensors]
    by_rules = {p.name for p, d in zip(spec.tensors, descs) if check_tensor(spec, p, d)}
    by_rules |= {c.second.param for c in symbol_conflicts(spec, descs)}
    got = rejected(array_types(_Kernel(), spec, torch.Tensor), tensors)
    assert {spec.tensors[i].name for i in got} == by_rules
