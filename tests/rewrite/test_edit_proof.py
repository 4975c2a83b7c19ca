"""The rewrite's fast path: edits proven in place skip the guard's second parse, anything else
keeps it, and either way the text is the guarded rewrite's (the fuzz suite checks the same on
thousands of generated modules: tests/fuzz/rewrite_cases.py, "proven but rejected"). Whether a
proven rewrite parses is the caller's parser's to say: tests/rewrite/test_native_parse.py."""

from __future__ import annotations

import ast

import pytest

from mypy_plugin.rewrite.name_bindings import Walk
from mypy_plugin.rewrite.reparse_guard import DEBUG_ENV
from mypy_plugin.rewrite.transform import rewrite_for_parser, rewrite_source

HEAD = "import pypto\nROWS = 8\n"
PROVEN = {
    "call_form": "def k(a: pypto.Tensor([ROWS, 64], pypto.DT_FP32), b: pypto.Tensor([8], dtype=pypto.DT_FP16)): ...\n",
    "over_lines": "def k(a: pypto.Tensor(\n        [ROWS, 64],\n        pypto.DT_FP32,\n)): ...\n",
    "parenthesized_callee": "def k(a: (pypto.Tensor)([8]), b: pypto.Tensor()) -> None: ...\n",
    "expression_dim": "def k(a: pypto.Tensor([n * 2, 8], pypto.DT_FP32)) -> None: ...\n",
    "jit_kernel_and_local_constant": (
        "@pypto.frontend.jit\ndef k(a: pypto.Tensor([8], pypto.DT_FP32)):\n    D = 64\n    F=D * 2\n"
    ),
}
GUARDED = {
    # a string dim kept in the annotation: left to the guard
    "string_left_in_annotation": "def k(a: pypto.Tensor(['M', 8], pypto.DT_FP32)) -> None: ...\n",
    # the guard compares an annotation that is an alias name as absent: it decides, not the proof
    "value_as_annotation": "def f(dt):\n    x: dt = 1\n    def k(a: pypto.Tensor([8], dt)) -> None: ...\n",
    "constant_with_continuation": "D \\\n  = 4\ndef k(a: pypto.Tensor([D], pypto.DT_FP32)) -> None: ...\n",
    "comment_in_annotation": "def k(a: pypto.Tensor([8],  # rows\n     pypto.DT_FP32)) -> None: ...\n",
}


@pytest.mark.parametrize("name", sorted(PROVEN))
def test_proven_rewrites_skip_the_second_parse(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    source = HEAD + PROVEN[name]
    text, unparsed = rewrite_for_parser(source)
    assert unparsed and text != source
    assert text == rewrite_source(source)
    ast.parse(text)


@pytest.mark.parametrize("name", sorted(GUARDED))
def test_other_rewrites_keep_the_guard(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    source = HEAD + GUARDED[name]
    text, unparsed = rewrite_for_parser(source)
    assert not unparsed
    assert text == rewrite_source(source)


def test_bindings_per_function_and_module() -> None:
    tree = ast.parse(
        "import pypto\nA = 1\nA = 2\ndef f(x):\n    B = 1\n    def g():\n        nonlocal B\n"
        "    C = 1\n    C += 1\ndef h():\n    exec('D = 1')\nclass K:\n    def m(self):\n        E = 1\n"
    )
    walk = Walk(tree)
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert walk.rebindable(*walk.scope(defs["f"])) == {"B", "C"}  # nonlocal counts twice
    assert walk.stored(*walk.scope(defs["f"])) == {"x", "B", "C"}
    assert walk.rebindable(*walk.scope(defs["m"])) == set()
    assert walk.rebindable(*walk.scope(defs["h"])) is None  # exec may bind anything
    assert walk.rebindable() is None
    start, end = walk.scope(defs["g"])
    assert walk.nodes[start] is defs["g"] and all(isinstance(n, ast.AST) for n in walk.nodes[start:end])
