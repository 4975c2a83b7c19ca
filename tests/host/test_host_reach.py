"""Which functions the host evaluator walks on their own: those that may reach a kernel call
(issue 37: most host functions call none), and every one whose walk can change what the others see."""

from __future__ import annotations

import ast
import textwrap

from mypy_plugin.host.evaluate import HostEvaluator
from mypy_plugin.host.values import UNKNOWN, HostTensor


def _walked(source: str, kernels: tuple[str, ...] = ("k",)) -> tuple[list[str], list[tuple[int, object]]]:
    """The functions walked on their own, and each site's line and argument shapes."""
    tree = ast.parse(textwrap.dedent(source))

    def kernel_name(callee: ast.expr) -> str | None:
        return callee.id if isinstance(callee, ast.Name) and callee.id in kernels else None

    ev = HostEvaluator(tree, kernel_name)
    sites = ev.call_sites()
    names = [f.name for f in ev._functions(tree.body) if id(f) in ev._reaching]
    return names, [(s.line, tuple(a.shape if isinstance(a, HostTensor) else a for a in s.args)) for s in sites]


def test_only_functions_that_may_reach_a_kernel_are_walked() -> None:
    names, sites = _walked('''
        import torch
        RUN = k
        KERNELS = {}
        KERNELS["a"] = k

        def plot(xs):            # calls no kernel
            return sum(xs)

        def direct():
            k(torch.randn(4))

        def through_helper():    # calls a function that calls one
            direct()

        def through_variable():
            RUN(torch.randn(2))

        def through_dict():
            KERNELS["a"](torch.randn(3))

        class Runner:
            def run(self):
                self.go()
            def go(self):
                k(torch.randn(5))
            def unrelated(self):
                print("x")
    ''')
    assert names == ["direct", "through_helper", "through_variable", "through_dict", "run", "go"]
    assert sites == [(11, ((4,),)), (11, ((4,),)), (17, ((2,),)), (20, ((3,),)), (26, ((5,),))]


def test_a_function_that_may_change_a_module_list_is_still_walked() -> None:
    # ``grow`` changes its parameter; ``shuffle_rows`` hands the list to an object's method: a run
    # of either changes what ``test`` reads, so both are walked, and the list is unknown after them.
    names, sites = _walked('''
        import torch
        DIMS = [8, 64]

        def grow(xs):
            xs.append(1)

        def setup():
            grow(DIMS)

        def shuffle_rows(rng):
            rng.shuffle(DIMS)

        def test():
            k(torch.randn(*DIMS))
    ''')
    assert names == ["setup", "shuffle_rows", "test"]
    assert sites == [(15, (UNKNOWN,))]


def test_a_list_handed_to_an_object_method_makes_it_unknown_only_then() -> None:
    base = '''
        import torch
        DIMS = [8, 64]

        def shuffle_rows(rng):
            {}

        def test():
            k(torch.randn(*DIMS))
    '''
    assert _walked(base.format("rng.shuffle(DIMS)")) == (["shuffle_rows", "test"], [(9, (UNKNOWN,))])
    assert _walked(base.format("print(rng)")) == (["test"], [(9, ((8, 64),))])
