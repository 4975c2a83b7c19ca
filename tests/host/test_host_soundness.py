"""Host evaluation is sound: no call site carries values the program never passes (issue 31).

One test per class of false positive found by the adversarial round: control flow, binding
scopes, evaluator failures. Each source runs as written (the asserted values are what Python
binds); torch semantics: test_host_torch.py.
"""

from __future__ import annotations

import ast
import sys
import textwrap

import pytest

from mypy_plugin.host.evaluate import CallSite, HostEvaluator
from mypy_plugin.host.values import UNKNOWN, Defined, HostTensor, PyptoDType, Value


def _sites(source: str, kernels: tuple[str, ...] = ("k",)) -> list[CallSite]:
    tree = ast.parse(textwrap.dedent(source))

    def kernel_name(callee: ast.expr) -> str | None:
        return callee.id if isinstance(callee, ast.Name) and callee.id in kernels else None

    return HostEvaluator(tree, kernel_name).call_sites()


def _d(v: Value) -> object:
    if isinstance(v, HostTensor):
        return (v.shape, v.dtype.name.removeprefix("torch.") if v.dtype else None)
    return v


def _calls(source: str) -> list[tuple[int, list[object]]]:
    """(line, arguments) of each site whose arguments are known (a silenced site has none)."""
    return [(s.line, [_d(a) for a in s.args]) for s in _sites(source) if not s.star_args]


# ---- 1. control flow -------------------------------------------------------------------------

def test_a_constant_loop_carries_its_bindings_to_the_next_iteration() -> None:
    # ``h = out`` in a layer loop: the second layer reads the first layer's output.
    assert _calls("""
        import torch
        h = torch.randn(16, 64)
        for layer in range(2):
            out = torch.empty(16, 64, dtype=torch.float16)
            k(h, out)
            h = out
        k(h, h)
    """) == [(6, [((16, 64), "float32"), ((16, 64), "float16")]),
             (6, [((16, 64), "float16"), ((16, 64), "float16")]),
             (8, [((16, 64), "float16"), ((16, 64), "float16")])]


def test_continue_and_break_end_their_path() -> None:
    assert _calls("""
        import torch
        for dt in (torch.float16, torch.float32, torch.bfloat16):
            if dt is torch.float32:
                continue
            if dt == torch.bfloat16:
                break
            k(torch.randn(4, dtype=dt))
    """) == [(8, [((4,), "float16")])]


def test_an_exit_under_a_condition_on_known_values_silences_what_follows() -> None:
    # supported() is not known: whether the float32 iteration reaches k is not known either.
    assert _calls("""
        import torch
        from backend import supported
        for dt in (torch.float16, torch.float32):
            if not supported(dt):
                continue
            k(torch.randn(4, dtype=dt))
        def test(flag):
            x = torch.randn(8)
            if flag:  # flag says nothing about x: k runs with x whenever it runs
                return
            k(x)
    """) == [(12, [((8,), "float32")])]


def test_return_and_raise_paths_join_nothing_after() -> None:
    assert _calls("""
        import torch
        def test(flag):
            x = torch.randn(8)
            if flag:
                x = torch.randn(4)
                return
            k(x)
            if flag:
                x = torch.randn(2)
                raise ValueError
            else:
                pass
            k(x)
    """) == [(8, [((8,), "float32")]), (14, [((8,), "float32")])]


def test_short_circuits_and_constant_false_guards_call_nothing() -> None:
    assert _calls("""
        import torch
        DEBUG = False
        x = torch.randn(4)
        DEBUG and k(x)
        y = DEBUG or k(x, 1)
        z = k(x, 2) if DEBUG else None
        if DEBUG:
            k(x, 3)
        while DEBUG:
            k(x, 4)
        assert not DEBUG or k(x, 5)
        k(x, 6)
    """) == [(6, [((4,), "float32"), 1]), (13, [((4,), "float32"), 6])]


# ---- 2. binding scopes -----------------------------------------------------------------------

def test_comprehension_variables_are_their_own() -> None:
    assert _calls("""
        import torch
        x = torch.randn(2, 2)
        outs = [k(x) for x in (torch.randn(8, 8), torch.randn(4, 4)) if x.shape[0] > 4]
        k(x)
    """) == [(4, [((8, 8), "float32")]), (5, [((2, 2), "float32")])]


def test_match_and_walrus_rebind() -> None:
    sites = _calls("""
        import torch
        mode = "half"
        x = torch.randn(4)
        match mode:
            case "full":
                x = torch.randn(8)
            case "half":
                x = torch.randn(2)
        k(x)
        if (y := torch.randn(3)) is not None:
            k(y)
        def test(mode):
            x = torch.randn(4)
            match mode:
                case "full":
                    x = torch.randn(8)
                case _:
                    pass
            k(x)
    """)
    assert sites == [(10, [((2,), "float32")]), (12, [((3,), "float32")]), (20, [UNKNOWN])]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="except* is Python 3.11 syntax")
def test_except_star_rebinds() -> None:
    assert _calls("""
        import torch
        x = torch.randn(4)
        try:
            x = torch.randn(5)
            k(x)
        except* ValueError:
            pass
        k(x)
    """) == [(6, [((5,), "float32")]), (9, [UNKNOWN])]


def test_a_name_a_function_rebinds_with_global_is_unknown() -> None:
    assert _calls("""
        import torch
        N = 4
        def setup():
            global N
            N = 8
        setup()
        k(torch.randn(N))
    """) == [(8, [(None, "float32")])]


def test_nested_functions_see_the_bindings_at_their_call() -> None:
    assert sorted(_calls("""
        import torch
        def test():
            x = torch.randn(16, 64)
            def go():
                k(x)
            go()
            x = torch.randn(8, 8)
    """), key=repr) == [(6, [((16, 64), "float32")]), (6, [UNKNOWN])]


def test_a_closure_called_elsewhere_does_not_read_the_callers_names() -> None:
    assert _calls("""
        import torch
        def make():
            x = torch.randn(4)
            def f():
                k(x)
            return f
        def test():
            x = torch.randn(8)
            g = make()
            g()
    """) == [(6, [((4,), "float32")])]


def test_a_nested_kernel_reads_its_annotations_when_defined() -> None:
    (site,) = [s for s in _sites("""
        import pypto, torch
        def test():
            dt = pypto.DT_FP16
            def k(x: pypto.Tensor([4], dt)):
                pass
            dt = pypto.DT_FP32
            k(torch.randn(4, dtype=torch.float16))
    """)]
    # ``pypto`` is the imported module (a reference another module's constants are read through)
    assert site.env["dt"] == PyptoDType("DT_FP16") and set(site.env) == {"dt", "pypto"}
    assert isinstance(site.env["pypto"], Defined)


def test_a_module_constant_rebound_after_the_call() -> None:
    assert sorted(_calls("""
        import torch
        N = 16
        def run():
            k(torch.randn(N))
        run()
        N = 32
    """), key=repr) == [(5, [((16,), "float32")]), (5, [(None, "float32")])]


def test_aliases_of_a_list_changed_in_place_see_the_change() -> None:
    assert _calls("""
        import torch
        shape = [16, 64]
        rows = [shape]
        same = shape
        shape.append(1)
        k(torch.empty(rows[0]), torch.empty(same), torch.empty(shape))
        def grow(s):
            s.append(2)
        dims = [4, 4]
        grow(dims)
        k(torch.empty(dims))
    """) == [(7, [(None, "float32"), ((16, 64, 1), "float32"), ((16, 64, 1), "float32")]),
             (12, [((4, 4, 2), "float32")])]


def test_a_list_changed_on_one_path_only_is_unknown_through_its_aliases() -> None:
    assert _calls("""
        import torch
        def test(flag):
            shape = [16, 64]
            same = shape
            if flag:
                shape.append(1)
            k(torch.empty(same))
            dims = [4]
            alias = dims
            for i in range(2):
                if flag:
                    continue
                dims.append(i)
            k(torch.empty(alias))
            rows = [2]
            view = rows
            try:
                risky()
                rows.append(3)
            except ValueError:
                pass
            k(torch.empty(view))
    """) == [(8, [(None, "float32")]), (15, [(None, "float32")]), (23, [(None, "float32")])]


def test_subscript_targets_of_a_tuple_assignment_change_the_list_or_dict() -> None:
    # Python evaluates the right side first, then stores left to right: a swap swaps.
    assert _calls("""
        import torch
        def test(obj):
            xs = [torch.randn(2), torch.randn(3)]
            xs[0], xs[1] = xs[1], xs[0]
            k(xs[0])
            t = {"a": torch.randn(4), "b": torch.randn(5)}
            t["a"], t["b"] = t["b"], t["a"]
            k(t["a"])
            ys = [torch.randn(6)]
            alias = ys
            ys[0], obj.x = obj.pair
            k(alias[0])
    """) == [(6, [((3,), "float32")]), (9, [((5,), "float32")]), (13, [UNKNOWN])]


# ---- 4. failures inside the evaluator ----------------------------------------------------------

def test_an_exception_in_a_try_loses_no_other_call() -> None:
    # range(0, 8, 0) raises ValueError: the handler surely runs, with what the body bound before.
    assert _calls("""
        import torch
        x = torch.randn(2)
        try:
            x = torch.randn(3)
            for s in range(0, 8, 0):
                x = torch.randn(7)
        except ValueError:
            k(x)
        k(torch.randn(4, 4))
        try:
            y = helper()
            n = len(range(0, 8, 0))
        except ValueError:
            k(x, 1)  # helper() may raise first: silenced
    """) == [(9, [((3,), "float32")]), (10, [((4, 4), "float32")])]


def test_an_internal_failure_makes_one_statement_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    from mypy_plugin.host import torch_ops

    monkeypatch.delenv("PYPTO_STUBS_DEBUG", raising=False)

    def broken(*args: object, **kwargs: object) -> Value:
        raise RuntimeError("evaluator bug")

    monkeypatch.setattr(torch_ops, "method", broken)
    assert _calls("""
        import torch
        x = torch.randn(4, 4)
        y = x.t()
        k(x, y)
    """) == [(5, [((4, 4), "float32"), UNKNOWN])]


# ---- 5. cost ---------------------------------------------------------------------------------

def _many_sites(n: int) -> str:
    lines = ["import torch"]
    for i in range(n):
        lines += [f"x{i} = torch.randn(4, {i % 7 + 1})", f"if flag{i % 3}:", f"    k(x{i})", f"names{i} = [x{i}]",
                  f"names{i}.append(x{i})"]
    return "\n".join(lines) + "\n"


def test_call_sites_share_their_scope() -> None:
    # A site keeps the names its kernel's annotations read, not a copy of the scope: what all
    # sites hold grows with their number, not with their number times the scope's size.
    sites = _sites(_many_sites(400))
    assert len(sites) == 400
    assert sum(len(s.env) for s in sites) == 0


def test_memory_and_time_grow_linearly_with_call_sites() -> None:
    import time
    import tracemalloc

    def measure(n: int) -> tuple[int, float]:
        source = _many_sites(n)
        tracemalloc.start()
        start = time.perf_counter()
        sites = _sites(source)
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert len(sites) == n
        return peak, elapsed

    small, large = measure(250), measure(1000)
    assert large[0] < 6 * small[0]  # 4x the sites: about 4x the memory (a copy per site: 16x)
    assert large[1] < 10 * small[1] + 0.5


# ---- 7. reach: calls the source proves without naming the kernel ------------------------------

def test_a_kernel_in_a_variable_or_a_partial() -> None:
    sites = _sites("""
        import functools
        from functools import partial as bind
        import torch
        run = k
        run(torch.randn(4))
        p = functools.partial(k, torch.randn(2))
        p(torch.randn(3))
        bind(k, out=torch.randn(5))(torch.randn(6))
    """)
    assert [(s.kernel, s.indirect, [_d(a) for a in s.args], [(n, _d(v)) for n, v in s.keywords]) for s in sites] == [
        ("k", True, [((4,), "float32")], []),
        ("k", True, [((2,), "float32"), ((3,), "float32")], []),
        ("k", True, [((6,), "float32")], [("out", ((5,), "float32"))]),
    ]


def test_a_kernel_held_in_an_attribute() -> None:
    sites = _sites("""
        import torch
        class Runner:
            def __init__(self):
                self.kernel = k
                self.other = k
            def run(self, x):
                self.kernel(torch.randn(4))
                self.other(torch.randn(4))
        def swap(r):
            r.other = print
    """)
    assert [(s.kernel, s.indirect, [_d(a) for a in s.args]) for s in sites] == [("k", True, [((4,), "float32")])]


def test_parametrize_cases_and_fixtures_are_pytest_calls() -> None:
    sites = _sites("""
        import pytest
        import torch

        @pytest.fixture
        def out():
            return torch.empty(16, 64, dtype=torch.float16)

        @pytest.fixture
        def weights(out):
            w = torch.randn(*out.shape)
            yield w
            del w

        @pytest.mark.parametrize("rows, dt", [(16, torch.float16), (8, torch.bfloat16)])
        def test_rows(rows, dt, out):
            k(torch.randn(rows, 64, dtype=dt), out)

        def test_weights(weights, tmp_path):
            k(weights, tmp_path)
    """)
    known = sorted(((s.line, s.via, [_d(a) for a in s.args]) for s in sites if s.via), key=repr)
    assert known == [
        (17, ("test_rows[16-float16]",), [((16, 64), "float16"), ((16, 64), "float16")]),
        (17, ("test_rows[8-bfloat16]",), [((8, 64), "bfloat16"), ((16, 64), "float16")]),
        (20, ("test_weights with its fixtures",), [((16, 64), "float32"), UNKNOWN]),
    ]
