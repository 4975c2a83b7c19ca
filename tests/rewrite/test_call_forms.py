"""rewrite/call_forms: what a module's calls may call, from the source rewrite's walk. The host
evaluation skips a module only when none of its calls can be a kernel's: every snippet here that
the forms let it skip has no call site when evaluated, with its own kernels as the namer's."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable

import pytest

from mypy_plugin.host.ast_facts import is_jit
from mypy_plugin.host.evaluate import HostEvaluator
from mypy_plugin.host.module_facts import scan
from mypy_plugin.rewrite.call_forms import CallForms, call_forms, may_call_a_kernel
from mypy_plugin.rewrite.name_bindings import Walk

KERNEL_MODULE = """
import pypto

@pypto.frontend.function
def helper(x):
    return pypto.sigmoid(x)

def make(rows):
    @pypto.frontend.jit()
    def kernel(x: pypto.Tensor([rows, 8], pypto.DT_FP32), out: pypto.Tensor([rows, 8], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 8)
        out[:] = helper(x) + x.sum(-1, keepdim=True)
    return kernel

kernel = make(16)
print(len(range(3)))
"""

# Each calls a kernel through a value: the forms cannot tell, the module is evaluated.
THROUGH_VALUES = {
    "variable": "k = make(16)\nk(a, b)",
    "call_of_a_call": "make(16)(a, b)",
    "parameter": "def run(f, a):\n    f(a)\nrun(make(16), a)",
    "loop": "for f in [make(16)]:\n    f(a)",
    "subscript": "ks = [make(16)]\nks[0](a)",
    "partial": "import functools\nfunctools.partial(make(16), a)(b)",
    "attribute_set": "class C: pass\nc = C()\nc.run = make(16)\nc.run(a)",
    "star_import": "from elsewhere import *\nrun(a)",
    "global": "def f():\n    global g\n    g = make(16)\ng(a)",
    "comprehension": "[f(a) for f in (make(16),)]",
    "walrus": "(g := make(16))\ng(a)",
    "with": "with make(16) as g:\n    g(a)",
}


def _forms(source: str) -> CallForms | None:
    return call_forms(Walk(ast.parse(source)))


def _namer(tree: ast.Module) -> Callable[[ast.expr], str | None]:
    kernels = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and is_jit(n)}
    return lambda c: c.id if isinstance(c, ast.Name) and c.id in kernels else None


def test_a_kernel_module_needs_no_evaluation() -> None:
    source = textwrap.dedent(KERNEL_MODULE)
    forms = _forms(source)
    assert forms is not None
    assert forms.names == {"helper", "make", "print", "len", "range"}
    tree = ast.parse(source)
    assert not may_call_a_kernel(forms, _namer(tree))
    assert HostEvaluator(tree, _namer(tree), facts=scan(tree)).call_sites() == []


def test_a_called_name_mypy_calls_a_kernel_is_evaluated() -> None:
    forms = _forms("from kernels import k\nk(a, b)\n")
    assert forms is not None
    assert may_call_a_kernel(forms, lambda c: "k" if isinstance(c, ast.Name) and c.id == "k" else None)
    forms = _forms("import kernels\nkernels.k(a, b)\n")
    assert forms is not None and ("kernels", "k") in forms.attributes
    assert may_call_a_kernel(forms, lambda c: "kernels.k" if isinstance(c, ast.Attribute) else None)


@pytest.mark.parametrize("case", sorted(THROUGH_VALUES))
def test_a_kernel_called_through_a_value_is_evaluated(case: str) -> None:
    source = textwrap.dedent(KERNEL_MODULE) + "\na = b = None\n" + THROUGH_VALUES[case] + "\n"
    assert _forms(source) is None


def test_a_jit_kernel_called_by_its_name_in_its_function_is_evaluated() -> None:
    source = "import pypto\ndef test():\n    @pypto.frontend.jit\n    def k(x):\n        pass\n    k(1)\n"
    assert _forms(source) is None
