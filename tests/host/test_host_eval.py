"""Host evaluation: the torch tensors each kernel call receives, from the source alone."""

from __future__ import annotations

import ast
import textwrap

import pytest

from mypy_plugin.host.evaluate import CallSite, HostEvaluator
from mypy_plugin.host.values import UNKNOWN, HostTensor, Value


def _sites(source: str, kernels: tuple[str, ...] = ("k",)) -> list[CallSite]:
    tree = ast.parse(textwrap.dedent(source))

    def kernel_name(callee: ast.expr) -> str | None:
        return callee.id if isinstance(callee, ast.Name) and callee.id in kernels else None

    return HostEvaluator(tree, kernel_name).call_sites()


def _describe(v: Value) -> object:
    if isinstance(v, HostTensor):
        return (v.shape, v.dtype.name if v.dtype else None, v.contiguous)
    return v


def _args(source: str) -> list[object]:
    sites = _sites(source)
    assert len(sites) == 1, sites
    return [_describe(a) for a in sites[0].args]


@pytest.mark.parametrize(("expr", "expected"), [
    ("torch.randn(16, 128)", ((16, 128), "torch.float32", True)),
    ("torch.rand((4, 8), dtype=torch.bfloat16)", ((4, 8), "torch.bfloat16", True)),
    ("torch.zeros([2, 3, 4], dtype=torch.half)", ((2, 3, 4), "torch.float16", True)),
    ("torch.empty(size=(8,), dtype=torch.int32)", ((8,), "torch.int32", True)),
    ("torch.full((2, 2), 7)", ((2, 2), "torch.int64", True)),
    ("torch.full((2, 2), 0.5, dtype=torch.float16)", ((2, 2), "torch.float16", True)),
    ("torch.tensor([[1.0, 2.0], [3.0, 4.0]])", ((2, 2), "torch.float32", True)),
    ("torch.tensor([1, 2, 3])", ((3,), "torch.int64", True)),
    ("torch.arange(10)", ((10,), "torch.int64", True)),
    ("torch.arange(0, 16, 4, dtype=torch.int32)", ((4,), "torch.int32", True)),
    ("torch.randint(0, 10, (4, 4))", ((4, 4), "torch.int64", True)),
    ("torch.ones(4, 8) * 2", ((4, 8), "torch.float32", True)),
    ("torch.ones(4, 8, dtype=torch.int32) / 2", ((4, 8), "torch.float32", True)),
    ("torch.ones(4, 8).to(torch.bfloat16)", ((4, 8), "torch.bfloat16", True)),
    ("torch.ones(4, 8).to(dtype=torch.int8, device='npu:0')", ((4, 8), "torch.int8", True)),
    ("torch.ones(4, 8).half().npu()", ((4, 8), "torch.float16", True)),
    ("torch.ones(4, 8).t()", ((8, 4), "torch.float32", False)),
    ("torch.ones(4, 8).T.contiguous()", ((8, 4), "torch.float32", True)),
    ("torch.ones(2, 4, 8).transpose(1, 2)", ((2, 8, 4), "torch.float32", False)),
    ("torch.ones(2, 4, 8).permute(0, 2, 1).contiguous()", ((2, 8, 4), "torch.float32", True)),
    ("torch.ones(4, 8)[:, ::2]", ((4, 4), "torch.float32", False)),
    ("torch.ones(4, 8)[1:3]", ((2, 8), "torch.float32", True)),
    ("torch.ones(4, 8)[:, 0:4]", ((4, 4), "torch.float32", False)),
    ("torch.ones(4, 8)[2]", ((8,), "torch.float32", True)),
    ("torch.ones(1, 8).expand(4, 8)", ((4, 8), "torch.float32", False)),
    ("torch.ones(4, 8).reshape(-1, 2)", ((16, 2), "torch.float32", True)),
    ("torch.ones(4, 8).view(2, 2, 8)", ((2, 2, 8), "torch.float32", True)),
    ("torch.ones(4, 1, 8).unsqueeze(0)", ((1, 4, 1, 8), "torch.float32", True)),
    ("torch.zeros_like(torch.ones(4, 8).t())", ((8, 4), "torch.float32", False)),  # preserve_format: a dense view's strides
    ("torch.ones(4, 8) + torch.ones(8)", ((4, 8), "torch.float32", True)),
])
def test_torch_expressions(expr: str, expected: object) -> None:
    assert _args(f"import torch\nk({expr})\n") == [expected]


def test_constants_unpacking_and_arithmetic() -> None:
    source = '''
    import torch
    B, S = 2, 64
    H = 4 * 32
    shape = (B * S, H)
    k(torch.randn(shape), torch.randn(*shape[:1], H // 2), S)
    '''
    assert _args(source) == [((128, 128), "torch.float32", True), ((128, 64), "torch.float32", True), 64]


def test_aliases_of_torch_are_followed() -> None:
    source = '''
    import torch as th
    from torch import randn, bfloat16
    k(th.ones(2, 2), randn(3, 3, dtype=bfloat16))
    '''
    assert _args(source) == [((2, 2), "torch.float32", True), ((3, 3), "torch.bfloat16", True)]


def test_unknown_stays_unknown() -> None:
    source = '''
    import torch
    def run(n, x):
        k(torch.randn(n, 8), x, torch.randn(4, 4).to(some_dtype))
    '''
    (site,) = _sites(source)
    first, second, third = site.args
    assert isinstance(first, HostTensor) and first.shape is None and first.dtype is not None
    assert second is UNKNOWN
    assert isinstance(third, HostTensor) and third.shape == (4, 4) and third.dtype is None


def test_a_changed_default_dtype_makes_default_dtypes_unknown() -> None:
    source = '''
    import torch
    torch.set_default_dtype(torch.float16)
    k(torch.randn(2, 2))
    '''
    assert _args(source) == [((2, 2), None, True)]


def test_each_item_of_a_constant_loop_is_a_call_site() -> None:
    source = '''
    import torch
    for rows, dt in [(16, torch.float16), (32, torch.bfloat16)]:
        k(torch.randn(rows, 64, dtype=dt))
    '''
    assert [[_describe(a) for a in s.args] for s in _sites(source)] == [
        [((16, 64), "torch.float16", True)],
        [((32, 64), "torch.bfloat16", True)],
    ]


def test_enumerate_and_zip_of_constant_lists_are_constant_loops() -> None:
    source = '''
    import torch
    SHAPES = [(2, 16, 4, 4), (4, 32, 2, 2)]
    def run_case(index, shape):
        k(torch.rand(shape, dtype=torch.float32))
    for i, shape in enumerate(SHAPES, start=1):
        run_case(i, shape)
    for rows, dt in zip([8, 16], [torch.float16, torch.bfloat16]):
        k(torch.ones(rows, 64, dtype=dt))
    '''
    sites = [[_describe(a) for a in s.args] for s in _sites(source)]
    known = [s for s in sites if s[0][0] is not None]  # run_case on its own: shape unknown
    assert known == [
        [((2, 16, 4, 4), "torch.float32", True)],
        [((4, 32, 2, 2), "torch.float32", True)],
        [((8, 64), "torch.float16", True)],
        [((16, 64), "torch.bfloat16", True)],
    ]


def test_math_of_known_numbers_is_computed() -> None:
    # torch.randn(...) / math.sqrt(n) is a tensor divided by a float: the same shape.
    assert _args("""
        import math
        from math import ceil
        import torch
        n = 16
        k(torch.randn(n, 128) / math.sqrt(n), torch.zeros(ceil(n / 3), 8), torch.ones(math.prod((2, 4))),
          torch.ones(4) * math.sqrt(-1))
    """) == [((16, 128), "torch.float32", True), ((6, 8), "torch.float32", True), ((8,), "torch.float32", True), UNKNOWN]


def test_names_rebound_in_a_loop_of_unknown_length_are_unknown() -> None:
    source = '''
    import torch
    x = torch.randn(4, 4)
    for i in range(n):
        x = torch.randn(i, 4)
    k(x)
    '''
    assert _args(source) == [UNKNOWN]


def test_branches_merge() -> None:
    source = '''
    import torch
    if flag:
        x, y = torch.randn(4, 4), torch.randn(2, 2)
    else:
        x, y = torch.randn(4, 4), torch.randn(3, 3)
    k(x, y)
    '''
    assert _args(source) == [((4, 4), "torch.float32", True), UNKNOWN]


def test_branches_that_build_equal_tensors_differently_merge_as_that_tensor() -> None:
    source = '''
    import torch
    if flag:
        x = torch.zeros(4, 8, dtype=torch.float16)
        y = torch.randn(4, 8).t()
    else:
        x = torch.randn(4, 8).half()
        y = torch.randn(4, 8).T
    k(x, y)
    '''
    assert _args(source) == [((4, 8), "torch.float16", True), ((8, 4), "torch.float32", False)]


def test_a_host_helper_is_walked_with_the_caller_arguments() -> None:
    source = '''
    import torch
    def run_case(rows, dtype=torch.float16):
        x = torch.randn(rows, 64, dtype=dtype)
        k(x)
    def test_small():
        run_case(8)
    def test_big():
        run_case(32, torch.bfloat16)
    '''
    known = [s for s in _sites(source) if s.via]
    assert [([_describe(a) for a in s.args], s.via) for s in known] == [
        ([((8, 64), "torch.float16", True)], ("run_case at line 7",)),
        ([((32, 64), "torch.bfloat16", True)], ("run_case at line 9",)),
    ]


def test_functions_see_the_module_bindings() -> None:
    source = '''
    import torch
    def test_it():
        k(torch.zeros(ROWS, COLS))
    ROWS = 8
    COLS = 16
    '''
    assert _args(source) == [((8, 16), "torch.float32", True)]


def test_kernel_bodies_are_not_host_code() -> None:
    source = '''
    import torch
    def k(x):
        k(torch.ones(2))
    '''
    assert _sites(source) == []


def test_keywords_and_star_arguments_are_reported_as_written() -> None:
    source = '''
    import torch
    k(torch.ones(2), out=torch.ones(2))
    k(*tensors)
    inputs = [torch.ones(4, 8)]
    outputs = [torch.zeros(4, 8, dtype=torch.float16)]
    k(*inputs, *outputs)
    k(torch.ones(2), **options)
    '''
    first, second, spread, kwargs = _sites(source)
    assert [name for name, _ in first.keywords] == ["out"]
    assert not first.star_args and second.star_args and kwargs.star_args
    # a list the source proves is spread into the arguments
    assert not spread.star_args
    assert [_describe(a) for a in spread.args] == [((4, 8), "torch.float32", True), ((4, 8), "torch.float16", True)]


def test_torch_tensor_of_unknown_data_has_an_unknown_shape() -> None:
    # A value not in the source gives no shape, not a 0-D tensor; so do a comprehension over an
    # unknown range, a ragged one, and a row repeated an unknown number of times.
    assert _args("""
        import torch
        k(torch.tensor([[r * 10 + c for c in range(m)] for r in range(4)], dtype=torch.int32),
          torch.tensor([[1, 2], [3, 4]]), torch.tensor(data), torch.tensor([]),
          torch.tensor([[0] * r for r in range(1, 4)]), torch.tensor([[1] * 8] * rows))
    """) == [(None, "torch.int32", None), ((2, 2), "torch.int64", True), (None, None, None), ((0,), "torch.float32", True),
             (None, None, None), (None, None, None)]


def test_torch_tensor_of_a_comprehension_or_a_repeated_row_is_not_built() -> None:
    # [[...] for ...] over known ranges and [[1] * k] * n: the shape without the data (256 x 256
    # would be far past the evaluator's item budget); the leaves give the default dtype.
    assert _args("""
        import torch
        n, k = 256, 128
        k(torch.tensor([[r * 100 + c for c in range(k)] for r in range(n)], dtype=torch.int32),
          torch.tensor([[1] * k] * n, dtype=torch.int8), torch.tensor([[0.5] * 4 for _ in range(3)]),
          torch.tensor([2 * [7], [8, 9]]))
    """) == [((256, 128), "torch.int32", True), ((256, 128), "torch.int8", True), ((3, 4), "torch.float32", True),
             ((2, 2), "torch.int64", True)]


def test_device_strings_fills_and_elementwise_methods_keep_the_tensor() -> None:
    # .to(f"npu:{i}") is a device move (a str is never a dtype), in-place fills return the tensor,
    # elementwise methods keep shape and (float math on a float tensor) dtype.
    assert _args("""
        import torch
        i = 0
        k(torch.ones(4, 8, dtype=torch.bfloat16).to(f"npu:{i}"), torch.randn(4, 8).uniform_(-3, 3),
          torch.randn(4, 8, dtype=torch.float16).abs(), torch.randn(4, 8).exp(), torch.ones(4, 8, dtype=torch.int32).sqrt(),
          torch.ones(4, 8).to(device=f"npu:{i!r}"))
    """) == [((4, 8), "torch.bfloat16", True), ((4, 8), "torch.float32", True), ((4, 8), "torch.float16", True),
             ((4, 8), "torch.float32", True), ((4, 8), None, True), ((4, 8), "torch.float32", True)]


def test_objects_changed_in_place_become_unknown() -> None:
    assert _args("""
        import torch
        a = torch.randn(2, 3)
        shape = list(a.shape)
        same = shape
        shape[i] = 1
        dims = [4, 8]
        dims.sort(key=f)
        b = torch.randn(4, 8)
        b.unsqueeze_(0)
        c = torch.randn(4, 8)
        c.fill_(0.0)
        k(torch.empty(shape), torch.empty(same), torch.empty(dims), b, c, a)
    """) == [(None, "torch.float32", None)] * 3 + [UNKNOWN, ((4, 8), "torch.float32", True),
                                                   ((2, 3), "torch.float32", True)]


def test_a_module_value_a_function_changes_is_unknown_everywhere() -> None:
    sites = _sites("""
        import torch
        SHAPE = [16, 64]
        def grow():
            SHAPE[0] = 32
        def run():
            own = [8, 8]
            k(torch.randn(*SHAPE), torch.randn(*own))
        grow()
        k(torch.randn(*SHAPE))
    """)
    assert sorted((s.line, [_describe(a) for a in s.args]) for s in sites) == [
        (8, [UNKNOWN, ((8, 8), "torch.float32", True)]),
        (10, [UNKNOWN]),
    ]


def test_list_changes_the_evaluator_follows() -> None:
    assert _args("""
        import torch
        a = torch.randn(2, 3)
        shape = list(a.shape)
        shape[1] = 1
        grow = [4]
        grow.append(8)
        grow.insert(0, 2)
        cut = [4, 5, 6]
        cut.pop(1)
        cut.extend([7])
        k(torch.empty(shape), torch.empty(grow), torch.empty(cut), a)
    """) == [((2, 1), "torch.float32", True), ((2, 4, 8), "torch.float32", True),
             ((4, 6, 7), "torch.float32", True), ((2, 3), "torch.float32", True)]


def test_an_ellipsis_index_stands_for_the_dims_left() -> None:
    assert _args("""
        import torch
        x = torch.zeros(4, 128)
        k(x[..., ::2], x[..., :64], x[1, ...], x[...])
    """) == [((4, 64), "torch.float32", False), ((4, 64), "torch.float32", False),
             ((128,), "torch.float32", True), ((4, 128), "torch.float32", True)]
