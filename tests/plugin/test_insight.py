"""mypy_plugin.insight, the supported interface tools read the plugin's knowledge through: tensors
of types, tiles at a node, the kind of a function, and the per-call copies a kernel or helper was
checked with (recorded only while recording is on)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from mypy import build
from mypy.build import BuildSource
from mypy.nodes import AssignmentStmt, FuncDef, MypyFile, NameExpr
from mypy.main import process_options

from mypy_plugin import insight
from mypy_plugin.kernel.body_walk import statements
from mypy_plugin.knowledge.tiles import NOT_SET, UNKNOWN, TileState
from mypy_plugin.knowledge.values import TensorVal

SOURCE = '''\
import pypto
import torch


def scale(x, factor):
    pypto.set_vec_tile_shapes(8, 16)
    y = x * factor
    return y


@pypto.frontend.function
def other(a: pypto.Tensor([8, 16], pypto.DT_FP32)):
    return a


@pypto.frontend.jit
def k(a: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 16)
    b = a * 2.0
    out[:] = scale(b, 3.0)


def test_k() -> None:
    k(torch.ones(8, 16), torch.empty(8, 16))
    k(torch.ones(4, 16), torch.empty(4, 16))
'''


def _check(path: Path) -> build.BuildResult:
    config = path.parent / "mypy.ini"
    config.write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n\n"
                      "[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n", encoding="utf-8")
    _sources, options = process_options(["--config-file", str(config)], require_targets=False)
    options.incremental = False
    options.export_types = True  # the types of expressions
    options.preserve_asts = True  # function bodies after the check (the daemon's engine keeps them too)
    return build.build([BuildSource(str(path), "kernels")], options)


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, MypyFile, build.BuildResult]]:
    path = tmp_path_factory.mktemp("insight") / "kernels.py"
    path.write_text(SOURCE, encoding="utf-8")
    insight.recording(True)
    try:
        result = _check(path)
        yield str(path), result.files["kernels"], result
    finally:
        insight.recording(False)


def _func(tree: MypyFile, name: str) -> FuncDef:
    node = tree.names[name].node
    func = getattr(node, "func", node)
    assert isinstance(func, FuncDef)
    return func


def _target(func: FuncDef, name: str) -> AssignmentStmt:
    return next(s for s in statements(func.body.body) if isinstance(s, AssignmentStmt)
                and isinstance(s.lvalues[0], NameExpr) and s.lvalues[0].name == name)


def test_kind_and_entry_tiles(checked: tuple[str, MypyFile, build.BuildResult]) -> None:
    _path, tree, _result = checked
    assert [insight.kind(tree, _func(tree, n)) for n in ("k", "other", "scale", "test_k")] == [
        "kernel", "helper", None, None]
    assert insight.entry_tiles(tree, _func(tree, "k")) == TileState(NOT_SET, NOT_SET)
    assert insight.entry_tiles(tree, _func(tree, "scale")) == TileState(UNKNOWN, UNKNOWN)


def test_tensor_and_tiles_at_a_node(checked: tuple[str, MypyFile, build.BuildResult]) -> None:
    _path, tree, result = checked
    k = _func(tree, "k")
    b = _target(k, "b")
    assert insight.tensor_of(result.types[b.rvalue]) == TensorVal(None, "DT_FP32")  # [] kernel: any shape
    assert insight.tiles_at(tree, k, b.rvalue, result.files) == TileState((4, 16), NOT_SET)
    assert insight.tensor_of(result.types[_target(k, "b").lvalues[0]]) is not None
    assert insight.fmt_tiles(TileState((4, 16), NOT_SET)) == ("(4, 16)", "not set")
    assert insight.fmt_tiles(TileState(UNKNOWN, ((16, 16), (32, 32), (16, 16)))) == (
        "unknown", "[16, 16], [32, 32], [16, 16]")


def test_copies_of_host_calls_and_helper_calls(checked: tuple[str, MypyFile, build.BuildResult]) -> None:
    path, tree, _result = checked
    k, scale = _func(tree, "k"), _func(tree, "scale")
    b = insight.span(_target(k, "b").rvalue)
    kernel_copies = insight.copies(path, k)
    assert [(c.label, c.tensors[b]) for c in kernel_copies] == [
        ("the call at kernels.py:24", TensorVal((8, 16), "DT_FP32")),
        ("the call at kernels.py:25", TensorVal((4, 16), "DT_FP32")),
    ]
    assert all(c.tiles[b] == TileState((4, 16), NOT_SET) for c in kernel_copies)
    # The helper: once from the kernel as declared, once within each host call's copy, entered
    # with the kernel's tiles; its own set_vec_tile_shapes is in force after it.
    y = insight.span(_target(scale, "y").rvalue)
    seen = [(c.label, c.tensors.get(y), c.tiles.get(y)) for c in insight.copies(path, scale)]
    assert seen == [
        ("the call of scale at kernels.py:20", TensorVal(None, "DT_FP32"), TileState((8, 16), NOT_SET)),
        ("the call of scale at kernels.py:20 within the call at kernels.py:24", TensorVal((8, 16), "DT_FP32"),
         TileState((8, 16), NOT_SET)),
        ("the call of scale at kernels.py:20 within the call at kernels.py:25", TensorVal((4, 16), "DT_FP32"),
         TileState((8, 16), NOT_SET)),
    ]


def test_forget(checked: tuple[str, MypyFile, build.BuildResult]) -> None:
    path, tree, _result = checked
    assert insight.copies(path, _func(tree, "k"))
    insight.forget(path)
    assert insight.copies(path, _func(tree, "k")) == []


def test_nothing_is_recorded_unless_recording(tmp_path: Path) -> None:
    path = tmp_path / "kernels.py"
    path.write_text(SOURCE, encoding="utf-8")
    insight.recording(False)
    result = _check(path)
    assert insight.copies(str(path), _func(result.files["kernels"], "k")) == []
    assert os.path.exists(path)


AGAIN = '''\
import pypto
import torch


def scale(x):
    y = x * 3.0
    return y


@pypto.frontend.jit
def k(a: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 16)
    b = a * 2.0
    out[:] = scale(b)


def test_k() -> None:
    k(torch.ones(8, 16), torch.empty(8, 16))
    k(torch.ones(8, 16), torch.empty(8, 16))
'''


def test_a_copy_check_kept_for_another_call_is_recorded_for_it(tmp_path: Path) -> None:
    # The second host call has the same tensors: its check is the first one's (calls/copy_memo.py),
    # and tools still see a copy for it, with the helper copy checked within it.
    from mypy_plugin.calls.copy_memo import Stats
    path = tmp_path / "kernels.py"
    path.write_text(AGAIN, encoding="utf-8")
    reused = Stats.reused
    insight.recording(True)
    try:
        tree = _check(path).files["kernels"]
        assert Stats.reused > reused
        k, scale = _func(tree, "k"), _func(tree, "scale")
        b = insight.span(_target(k, "b").rvalue)
        assert [(c.label, c.tensors[b]) for c in insight.copies(str(path), k)] == [
            ("the call at kernels.py:18", TensorVal((8, 16), "DT_FP32")),
            ("the call at kernels.py:19", TensorVal((8, 16), "DT_FP32")),
        ]
        y = insight.span(_target(scale, "y").rvalue)
        assert [(c.label, c.tensors.get(y)) for c in insight.copies(str(path), scale)] == [
            ("the call of scale at kernels.py:14", TensorVal(None, "DT_FP32")),
            ("the call of scale at kernels.py:14 within the call at kernels.py:18", TensorVal((8, 16), "DT_FP32")),
            ("the call of scale at kernels.py:14 within the call at kernels.py:19", TensorVal((8, 16), "DT_FP32")),
        ]
    finally:
        insight.recording(False)
