"""Host evaluation follows callers (issue 40 item 2): a function whose tensors come from its callers
is walked with each caller's arguments (to a bounded depth); pytest's cases (``pytest.param``,
``indirect``, fixtures with ``params=`` or ``name=``, test classes); kernels held in dicts."""

from __future__ import annotations

import ast
import textwrap

from mypy_plugin.host.evaluate import CallSite, HostEvaluator
from mypy_plugin.host.helper_calls import MAX_DEPTH
from mypy_plugin.host.values import UNKNOWN, HostTensor, Value


def _sites(source: str, kernels: tuple[str, ...] = ("k",)) -> list[CallSite]:
    tree = ast.parse(textwrap.dedent(source))

    def kernel_name(callee: ast.expr) -> str | None:
        return callee.id if isinstance(callee, ast.Name) and callee.id in kernels else None

    return HostEvaluator(tree, kernel_name).call_sites()


def _d(v: Value) -> object:
    if isinstance(v, HostTensor):
        return (v.shape, v.dtype.name.removeprefix("torch.") if v.dtype else None)
    return v


def _proven(v: Value) -> bool:
    return v is not UNKNOWN and not (isinstance(v, HostTensor) and (v.shape is None or v.dtype is None))


def _known(source: str, kernels: tuple[str, ...] = ("k",)) -> list[tuple[int, tuple[str, ...], list[object]]]:
    """(line, the helpers walked to reach it, arguments) of each site whose arguments are all proven."""
    return sorted((s.line, s.via, [_d(a) for a in s.args]) for s in _sites(source, kernels)
                  if not s.star_args and all(_proven(a) for a in s.args))


# ---- callers, to a bounded depth ---------------------------------------------------------------

def test_a_wrapper_is_walked_with_each_callers_tensors_through_helpers_of_helpers() -> None:
    assert MAX_DEPTH == 4
    source = '''
        import torch

        def swiglu(x, w):                      # the tensors come from the callers
            out = torch.empty(x.shape[0], w.shape[1], dtype=x.dtype)
            k(x, w, out)
            return out

        def run_case(rows, dtype):
            x = torch.randn(rows, 64, dtype=dtype)
            return swiglu(x, torch.randn(64, 32, dtype=dtype))

        def check(rows):
            run_case(rows, torch.float16)

        def test_all():
            for rows in (8, 16):
                check(rows)
    '''
    assert _known(source) == [
        (6, ("check at line 18", "run_case at line 14", "swiglu at line 11"),
         [((8, 64), "float16"), ((64, 32), "float16"), ((8, 32), "float16")]),
        (6, ("check at line 18", "run_case at line 14", "swiglu at line 11"),
         [((16, 64), "float16"), ((64, 32), "float16"), ((16, 32), "float16")]),
    ]


def test_the_chain_stops_at_the_depth_limit_and_at_recursion() -> None:
    source = '''
        import torch

        def h0(x):
            k(x)

        def h1(x):
            h0(x)

        def h2(x):
            h1(x)

        def h3(x):
            h2(x)

        def h4(x):
            h3(x)

        def again(x, n):
            k(x)
            again(x, n - 1)

        def main():
            h4(torch.randn(2))
            h3(torch.randn(3))
            again(torch.randn(4), 3)
    '''
    # From main, the kernel is five helpers down h4 (one too many), four down h3 (reached).
    # A recursive helper is walked once per chain.
    assert _known(source) == [
        (5, ("h3 at line 25", "h2 at line 14", "h1 at line 11", "h0 at line 8"), [((3,), "float32")]),
        (20, ("again at line 26",), [((4,), "float32")]),
    ]


# ---- pytest ------------------------------------------------------------------------------------

def test_pytest_param_cases_and_their_values_attribute() -> None:
    source = '''
        import pytest
        import torch

        CASES = [
            pytest.param(8, torch.float16, id="small"),
            pytest.param(16, torch.float32, marks=pytest.mark.skip(reason="slow")),
            pytest.param(32, torch.bfloat16, marks=[pytest.mark.soc("a2")]),
        ]

        @pytest.mark.parametrize("rows, dt", CASES)
        def test_rows(rows, dt):
            k(torch.randn(rows, 64, dtype=dt))

        @pytest.mark.parametrize("case", [pytest.param((4, 8))])
        def test_one(case):
            k(torch.randn(*case))

        def test_values():
            for p in CASES[:1]:
                k(torch.randn(p.values[0]))
    '''
    # the skipped case is never run: not a call
    assert _known(source) == [
        (13, ("test_rows[32-bfloat16]",), [((32, 64), "bfloat16")]),
        (13, ("test_rows[small]",), [((8, 64), "float16")]),  # its id=
        (17, ("test_one[(4, 8)]",), [((4, 8), "float32")]),
        (21, (), [((8,), "float32")]),
    ]


def test_indirect_parametrize_goes_through_the_fixture_as_request_param() -> None:
    source = '''
        import pytest
        import torch

        @pytest.fixture
        def x(request):
            rows, dt = request.param
            return torch.randn(rows, 64, dtype=dt)

        @pytest.fixture
        def out():
            return torch.empty(8, 64)

        @pytest.mark.parametrize("x", [(8, torch.float16), (4, torch.float32)], indirect=True)
        def test_all(x, out):
            k(x, out)

        @pytest.mark.parametrize("x, n", [((2, torch.float16), 3)], indirect=["x"])
        def test_some(x, n):
            k(x, torch.empty(n))
    '''
    assert _known(source) == [
        (16, ("test_all[(4, float32)]",), [((4, 64), "float32"), ((8, 64), "float32")]),
        (16, ("test_all[(8, float16)]",), [((8, 64), "float16"), ((8, 64), "float32")]),
        (20, ("test_some[(2, float16)-3]",), [((2, 64), "float16"), ((3,), "float32")]),
    ]


def test_fixture_params_and_names_and_test_classes() -> None:
    source = '''
        import pytest
        import torch

        @pytest.fixture(params=[16, 32])
        def rows(request):
            return request.param

        @pytest.fixture(name="weights")
        def make_weights():
            return torch.randn(64, 8)

        def test_rows(rows, weights):
            k(torch.randn(rows, 64), weights)

        @pytest.mark.parametrize("dt", [torch.float16])
        class TestKernel:
            @pytest.fixture
            def bias(self):
                return torch.zeros(8, dtype=torch.float16)

            def test_method(self, dt, bias):
                k(torch.randn(4, 8, dtype=dt), bias)

            def helper(self):
                k(torch.randn(1))
    '''
    assert _known(source) == [
        (14, ("test_rows[16]",), [((16, 64), "float32"), ((64, 8), "float32")]),
        (14, ("test_rows[32]",), [((32, 64), "float32"), ((64, 8), "float32")]),
        (23, ("test_method[float16]",), [((4, 8), "float16"), ((8,), "float16")]),
        (26, (), [((1,), "float32")]),
    ]


# ---- kernels and values in dicts ---------------------------------------------------------------

def test_kernels_and_cases_held_in_dicts() -> None:
    source = '''
        import torch

        KERNELS = {"fp16": k, "fp32": k2}
        SHAPES = {"fp16": (8, 64), "fp32": (16, 32)}

        def test_each():
            for name, kern in KERNELS.items():
                kern(torch.randn(*SHAPES[name]))
            table = {n: torch.randn(s) for n, s in SHAPES.items()}
            KERNELS["fp16"](table["fp32"])
            table["fp32"] = torch.randn(3)
            alias = table
            k(alias.get("fp32"))
            alias.update({})
            k(table["fp32"])
    '''
    sites = [(s.line, s.kernel, s.indirect, [_d(a) for a in s.args]) for s in _sites(source, ("k", "k2"))]
    assert sites == [
        (9, "k", True, [((8, 64), "float32")]),
        (9, "k2", True, [((16, 32), "float32")]),
        (11, "k", True, [((16, 32), "float32")]),
        (14, "k", False, [((3,), "float32")]),
        (16, "k", False, [UNKNOWN]),  # changed by a method the walk does not follow: unknown
    ]


def test_a_dict_changed_elsewhere_or_with_an_unknown_key_is_unknown() -> None:
    source = '''
        import torch

        TABLE = {"a": torch.randn(2)}

        def grow():
            TABLE["a"] = torch.randn(5)

        def test(key):
            k(TABLE["a"])
            d = {key: torch.randn(3)}
            k(d["x"])
    '''
    assert _known(source) == []


def test_a_key_python_merges_and_an_indirect_fixture_from_elsewhere_are_unknown() -> None:
    source = '''
        import pytest
        import torch

        def test_keys():
            d = {1: torch.randn(2), True: torch.randn(3)}   # one key to Python: 1 -> randn(3)
            k(d[1])

        @pytest.mark.parametrize("x", [(8, 64)], indirect=True)
        def test_elsewhere(x):                              # the fixture x is in a conftest.py
            k(x)
    '''
    assert sorted({(s.line, repr([_d(a) for a in s.args])) for s in _sites(source)}) == [(7, "[UNKNOWN]"), (11, "[UNKNOWN]")]


def test_why_a_call_is_unknown_names_a_spread_item_and_the_callers() -> None:
    source = '''
        import torch

        def run(w):
            inputs = [w, torch.empty(8, 64)]
            k(*inputs)
    '''
    assert [s.unknown for s in _sites(source)] == [
        "an item of a *-argument is not known (in run, whose parameters are unknown: no call of it in this module "
        "proves them)"]


def test_a_list_or_dict_changed_by_the_loop_over_it_stops_the_walk_of_that_loop() -> None:
    # Python iterates the appended items (here: forever), and a dict that grows raises; nothing
    # after the first iteration is known to run. ``d |= e`` changes d in place: its aliases too.
    source = '''
        import torch

        def test_list():
            xs = [8]
            for n in xs:
                k(torch.randn(n))
                xs.append(n * 2)
            k(torch.randn(3))

        def test_dict():
            d = {"a": 4, "b": 5}
            for key in d:
                k(torch.randn(d[key]))
                d["z" + key] = 1
            k(torch.randn(2))

        def test_alias():
            alias = {"c": torch.randn(6)}
            other = alias
            k(other["c"])
            alias |= {"c": torch.randn(7)}
            k(other["c"])
    '''
    assert _known(source) == [(7, (), [((8,), "float32")]), (14, (), [((4,), "float32")]),
                              (21, (), [((6,), "float32")])]


def test_cases_and_tests_pytest_may_skip_are_not_calls() -> None:
    source = '''
        import pytest
        import torch

        @pytest.mark.parametrize("n", [pytest.param(1, marks=pytest.mark.skipif(True, reason="x")),
                                       pytest.param(2, marks=[pytest.mark.xfail(run=False)]),
                                       pytest.param(3, marks=pytest.mark.xfail), 4])
        def test_cases(n):
            k(torch.randn(n))

        @pytest.mark.skip(reason="slow")
        @pytest.mark.parametrize("n", [5])
        def test_skipped(n):
            k(torch.randn(n))

        class TestC:
            pytestmark = [pytest.mark.skipif(True, reason="no npu")]

            @pytest.mark.parametrize("n", [6])
            def test_in_class(self, n):
                k(torch.randn(n))
    '''
    assert _known(source) == [(9, ("test_cases[3]",), [((3,), "float32")]), (9, ("test_cases[4]",), [((4,), "float32")])]


def test_fixtures_of_the_conftest_files_run_in_their_own_module() -> None:
    # the nearer conftest overrides a farther one, the module's own fixture overrides both; a conftest
    # fixture asks for fixtures as pytest resolves them for the test (the module's ``rows`` here)
    far = ast.parse(textwrap.dedent('''
        import torch
        WIDTH = 32

        @pytest.fixture
        def weights():
            return torch.randn(WIDTH, 8)

        @pytest.fixture
        def x(rows):
            return torch.randn(rows, WIDTH)
    '''))
    near = ast.parse(textwrap.dedent('''
        import torch as t
        import pytest

        @pytest.fixture(params=[t.float16, t.bfloat16])
        def weights(request):
            return t.randn(64, 8, dtype=request.param)
    '''))
    tree = ast.parse(textwrap.dedent('''
        import pytest
        import torch

        @pytest.fixture
        def rows():
            return 4

        def test_all(x, weights):
            k(x, weights)
    '''))
    names = lambda callee: callee.id if isinstance(callee, ast.Name) and callee.id == "k" else None  # noqa: E731
    sites = HostEvaluator(tree, names, conftests=[far, near]).call_sites()
    assert sorted((s.via, [_d(a) for a in s.args]) for s in sites if s.via) == [
        (("test_all[bfloat16]",), [((4, 32), "float32"), ((64, 8), "bfloat16")]),
        (("test_all[float16]",), [((4, 32), "float32"), ((64, 8), "float16")]),
    ]
