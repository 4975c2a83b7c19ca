"""torch semantics of the host evaluator (issue 31, class 3): copies, casts and device moves keep a
dense tensor's strides and make a strided one dense; ``.view(dtype)``; dtype promotion; ``@`` is
a matmul; elementwise results, ``*_like`` factories, reshapes and in-place updates of views keep
their layout as ATen computes it. Each expected value is what torch 2.13 gives; with torch
installed the cases are also run for real and compared."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from mypy_plugin.host.evaluate import HostEvaluator
from mypy_plugin.host.values import HostTensor, Value

# expression -> (shape, dtype, contiguous); ``x`` is torch.randn(4, 8), ``s`` is x[:, ::2]
CASES: list[tuple[str, tuple[tuple[int, ...], str, bool]]] = [
    ("x.t().clone()", ((8, 4), "torch.float32", False)),
    ("s.clone()", ((4, 4), "torch.float32", True)),
    ("x.t().clone(memory_format=torch.contiguous_format)", ((8, 4), "torch.float32", True)),
    ("s.half()", ((4, 4), "torch.float16", True)),
    ("x.t().half()", ((8, 4), "torch.float16", False)),
    ("s.to(torch.bfloat16)", ((4, 4), "torch.bfloat16", True)),
    ("s.to(torch.float32)", ((4, 4), "torch.float32", False)),  # the same dtype: the tensor itself
    ("s.float()", ((4, 4), "torch.float32", False)),
    ("s.to(torch.float16, memory_format=torch.contiguous_format)", ((4, 4), "torch.float16", True)),
    ("x.view(torch.int8)", ((4, 32), "torch.int8", True)),
    ("x.view(torch.int32)", ((4, 8), "torch.int32", True)),
    ("x.half().view(torch.float32)", ((4, 4), "torch.float32", True)),
    ("torch.ones(4, dtype=torch.bool) + 1", ((4,), "torch.int64", True)),
    ("torch.ones(4, dtype=torch.bool) + 1.5", ((4,), "torch.float32", True)),
    ("torch.ones(4, dtype=torch.int32) + torch.ones(4, dtype=torch.int64)", ((4,), "torch.int64", True)),
    ("x.half() + x.bfloat16()", ((4, 8), "torch.float32", True)),
    ("x.half() * torch.tensor(2.0)", ((4, 8), "torch.float16", True)),
    ("x @ torch.randn(8, 3)", ((4, 3), "torch.float32", True)),
    ("torch.randn(2, 4, 8) @ torch.randn(8, 5)", ((2, 4, 5), "torch.float32", True)),
    ("x.t() + 1", ((8, 4), "torch.float32", False)),
    ("x.t() * x.t()", ((8, 4), "torch.float32", False)),
    ("x.t().exp()", ((8, 4), "torch.float32", False)),
    ("-x.t()", ((8, 4), "torch.float32", False)),
    ("x.t() + torch.randn(8, 4)", ((8, 4), "torch.float32", False)),
    ("torch.randn(8, 4) + x.t()", ((8, 4), "torch.float32", True)),
    ("s + 1", ((4, 4), "torch.float32", True)),
    ("torch.empty_like(x.t())", ((8, 4), "torch.float32", False)),
    ("torch.zeros_like(s)", ((4, 4), "torch.float32", True)),
    ("torch.empty_like(x.t(), memory_format=torch.contiguous_format)", ((8, 4), "torch.float32", True)),
    ("x.t().reshape(8, 4)", ((8, 4), "torch.float32", False)),
    ("x.t().reshape(32)", ((32,), "torch.float32", True)),
    ("x.t().reshape(2, 4, 4)", ((2, 4, 4), "torch.float32", False)),
    ("x.t().contiguous().view(2, 16)", ((2, 16), "torch.float32", True)),
    ("torch.ones(1, 8).expand(4, 8).clone()", ((4, 8), "torch.float32", True)),
]


def _evaluate(source: str) -> list[Value]:
    tree = ast.parse(textwrap.dedent(source))
    sites = HostEvaluator(tree, lambda c: "k" if isinstance(c, ast.Name) and c.id == "k" else None).call_sites()
    assert len(sites) == 1
    return list(sites[0].args)


def _describe(v: Value) -> object:
    assert isinstance(v, HostTensor), v
    return v.shape, v.dtype.name if v.dtype else None, v.contiguous


PRELUDE = "import torch\nx = torch.randn(4, 8)\ns = x[:, ::2]\n"


@pytest.mark.parametrize(("expr", "expected"), CASES)
def test_torch_semantics(expr: str, expected: object) -> None:
    assert _describe(_evaluate(f"{PRELUDE}k({expr})\n")[0]) == expected


NUMPY_CASES: list[tuple[str, tuple[tuple[int, ...], str, bool]]] = [
    ("torch.from_numpy(np.zeros((4, 8), dtype=np.float32))", ((4, 8), "torch.float32", True)),
    ("torch.from_numpy(np.ones((4, 8)))", ((4, 8), "torch.float64", True)),
    ("torch.from_numpy(np.zeros((4, 8), dtype=np.float16).T)", ((8, 4), "torch.float16", False)),
    ("torch.tensor(np.zeros((4, 8), dtype=np.float16).T)", ((8, 4), "torch.float16", False)),
    ("torch.from_numpy(np.random.randn(3, 5).astype(np.float32))", ((3, 5), "torch.float32", True)),
    ("torch.as_tensor(np.arange(6))", ((6,), "torch.int64", True)),
    ("torch.from_numpy(np.full((2, 2), 7))", ((2, 2), "torch.int64", True)),
    ("torch.from_numpy(np.ascontiguousarray(np.zeros((4, 8)).T))", ((8, 4), "torch.float64", True)),
]
NUMPY_PRELUDE = "import torch\nimport numpy as np\n"


@pytest.mark.parametrize(("expr", "expected"), NUMPY_CASES)
def test_torch_from_numpy(expr: str, expected: object) -> None:
    assert _describe(_evaluate(f"{NUMPY_PRELUDE}k({expr})\n")[0]) == expected


def test_an_in_place_update_keeps_the_view() -> None:
    (v,) = _evaluate(PRELUDE + "v = x.t()\nv += 1\nk(v)\n")
    assert _describe(v) == ((8, 4), "torch.float32", False)
    (w,) = _evaluate(PRELUDE + "w = torch.ones(4, dtype=torch.int32)\nw *= 2\nk(w)\n")
    assert _describe(w) == ((4,), "torch.int32", True)


@pytest.mark.parametrize("setter", [
    "import torch\ntorch.set_default_dtype(torch.float16)",
    "from torch import set_default_dtype as sdd\nimport torch\nsdd(torch.float16)",
    "import torch as t\nimport torch\nt.set_default_dtype(t.float16)",
    "import torch\ngetattr(torch, 'set_default_dtype')(torch.float16)",
    "import torch\ntorch.set_default_tensor_type(torch.HalfTensor)",
])
def test_a_changed_default_dtype_under_any_spelling(setter: str) -> None:
    (v,) = _evaluate(f"{setter}\nk(torch.randn(4))\n")
    assert isinstance(v, HostTensor) and v.shape == (4,) and v.dtype is None


def test_a_conftest_that_changes_the_default_dtype(tmp_path: Path) -> None:
    from mypy_plugin.calls.host_sites import conftest_changes_default_dtype

    tests = tmp_path / "tests" / "unit"
    tests.mkdir(parents=True)
    module = tests / "test_k.py"
    module.write_text("import torch\n")
    assert not conftest_changes_default_dtype(str(module))
    (tmp_path / "tests" / "conftest.py").write_text("import torch\ntorch.set_default_dtype(torch.bfloat16)\n")
    assert conftest_changes_default_dtype(str(module))


def test_the_cases_against_real_torch() -> None:
    torch = pytest.importorskip("torch")
    for prelude, expr, expected in [*((PRELUDE, e, x) for e, x in CASES), *((NUMPY_PRELUDE, e, x) for e, x in NUMPY_CASES)]:
        scope: dict[str, object] = {}
        exec(prelude + f"r = {expr}\n", scope)
        r = scope["r"]
        assert isinstance(r, torch.Tensor)
        assert (tuple(r.shape), str(r.dtype), r.is_contiguous()) == expected, expr
