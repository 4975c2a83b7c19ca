"""What the plugin keeps alive for a run: tensor types shared per (shape, dtype), for the
annotations of every signature and the results of ops (bridge/tensor_types.py), within one build;
no parse kept that nobody will take (rewrite/parsed_trees.py). Fewer long-lived objects keep
mypy's young generation from filling up; the answers stay the same."""

from __future__ import annotations

from pathlib import Path

from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import FuncDef
from mypy.main import process_options
from mypy.types import CallableType, Type

from mypy_plugin.bridge import tensor_types
from mypy_plugin.knowledge.values import TensorVal

KERNELS = """\
import pypto

@pypto.frontend.jit
def first(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    out[:] = x + 1.0

@pypto.frontend.jit
def second(y: pypto.Tensor[[8, 64], pypto.DT_FP32], z: pypto.Tensor([8, 32], pypto.DT_FP16),
           out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    reveal_type(y)
    reveal_type(z)
    out[:] = y * 2.0
"""


def _build(tmp_path: Path, source: str = KERNELS) -> build.BuildResult:
    path = tmp_path / "kernels.py"
    path.write_text(source)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n", encoding="utf-8")
    _sources, options = process_options(["--config-file", str(config)], require_targets=False)
    options.incremental = False
    return build.build([BuildSource(str(path), "kernels")], options)


def _params(result: build.BuildResult, name: str) -> list[Type]:
    func = result.files["kernels"].names[name].node
    func = getattr(func, "func", func)  # a decorated def
    assert isinstance(func, FuncDef) and isinstance(func.type, CallableType)
    return list(func.type.arg_types)


def test_equal_annotations_share_one_type_object(tmp_path: Path) -> None:
    result = _build(tmp_path)
    x, out1 = _params(result, "first")
    y, z, out2 = _params(result, "second")
    assert x is out1 is y is out2  # four [8, 64] DT_FP32 annotations, two spellings
    assert z is not x
    assert str(x) == "pypto.Tensor[tuple[Literal[8], Literal[64]], pypto._DT_FP32]"
    assert str(z) == "pypto.Tensor[tuple[Literal[8], Literal[32]], pypto._DT_FP16]"
    # What the op hooks read of a shared type is read once, when it is made.
    read = tensor_types.tensor_val(x)
    assert read == TensorVal((8, 64), "DT_FP32") and tensor_types.tensor_val(out2) is read
    assert tensor_types.tensor_val(z) == TensorVal((8, 32), "DT_FP16")
    notes = [m.split(": note: ")[1] for m in result.errors if ": note: Revealed type" in m]
    assert notes == ['Revealed type is "pypto.Tensor[tuple[Literal[8], Literal[64]], pypto._DT_FP32]"',
                     'Revealed type is "pypto.Tensor[tuple[Literal[8], Literal[32]], pypto._DT_FP16]"']


def test_a_new_build_does_not_reuse_the_types_of_the_last(tmp_path: Path) -> None:
    first = _params(_build(tmp_path), "first")[0]
    second = _params(_build(tmp_path), "first")[0]
    assert first is not second  # another build: another Tensor TypeInfo
    assert all(t.type is second.type for t in tensor_types._results.values())  # type: ignore[attr-defined]


FACTORY = """\
import pypto

def make(rows: int):
    @pypto.frontend.jit()
    def scaled(x: pypto.Tensor([rows, 64], pypto.DT_FP32), out: pypto.Tensor([rows, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        out[:] = x * 2.0
    return scaled

scaled = make(8)
"""


def test_a_kept_parse_nobody_will_take_is_dropped(tmp_path: Path) -> None:
    """The rewrite keeps its parse of a module that defines a kernel inside a function (a factory)
    for the module's host evaluation (rewrite/parsed_trees.py); that evaluation finds no call of a
    kernel there and drops it instead of holding the tree for the rest of the run."""
    from mypy_plugin.rewrite import parsed_trees

    result = _build(tmp_path, FACTORY)
    assert not [m for m in result.errors if ": error:" in m]
    kept = parsed_trees._kept
    assert str((tmp_path / "kernels.py").resolve()) not in kept
    assert not [p for p in kept if p.endswith(".pyi")]  # pypto's stubs (overloads called by name) never
