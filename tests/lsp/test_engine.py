"""The engine of pypto-lsp in this process: unsaved text, open files coming and going, and the
rebuild after a failed update of mypy's fine-grained engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mypy.server.update import FineGrainedBuildManager

pytest.importorskip("pygls")

from mypy_plugin.knowledge.values import TensorVal  # noqa: E402
from mypy_plugin.lsp.diagnostics import shown  # noqa: E402
from mypy_plugin.lsp.engine import Engine  # noqa: E402
from mypy_plugin.lsp.hover import tensor_at  # noqa: E402

KERNEL = '''\
import pypto
from helpers import COLS, ROWS


@pypto.frontend.jit
def k(a: pypto.Tensor([ROWS, 64], pypto.DT_FP32), out: pypto.Tensor([ROWS, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(ROWS, COLS)
    out[:] = a.sum(-1, keepdim=True)
'''


HELPERS = "from typing import Final\n\nROWS: Final = 8\nCOLS: Final = 64\n"


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[tuple[Engine, list[str], Path]]:
    (tmp_path / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (tmp_path / "k.py").write_text(KERNEL, encoding="utf-8")
    log: list[str] = []
    e = Engine(tmp_path, [], log.append)
    yield e, log, tmp_path
    e.close()


def _codes(e: Engine, path: Path) -> list[tuple[int | None, str | None]]:
    return [(r.line, r.code) for r in e.check()[str(path)]]


def test_unsaved_text_and_files_that_open_and_close(engine: tuple[Engine, list[str], Path]) -> None:
    e, log, root = engine
    kernel, helpers = root / "k.py", root / "helpers.py"
    e.set_text(str(kernel), KERNEL)
    assert _codes(e, kernel) == []
    e.set_text(str(kernel), KERNEL.replace("(ROWS, COLS)", "(ROWS, 4)"))  # 16 bytes: not 32-byte aligned
    assert _codes(e, kernel) == [(8, "pypto-reduce-align")]
    e.set_text(str(kernel), KERNEL)
    e.set_text(str(helpers), HELPERS.replace("64", "4"))  # the module the kernel imports, opened and edited
    assert _codes(e, kernel) == [(8, "pypto-reduce-align")]
    assert e.check()[str(helpers)] == []
    e.set_text(str(helpers), None)  # closed without saving: the file on disk again
    assert _codes(e, kernel) == []
    assert kernel.read_text(encoding="utf-8") == KERNEL and helpers.read_text(encoding="utf-8") == HELPERS
    assert e.builds == 1 and not any("rebuilding" in line for line in log)


def test_a_failed_update_rebuilds(engine: tuple[Engine, list[str], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    e, log, root = engine
    kernel = root / "k.py"
    e.set_text(str(kernel), KERNEL)
    assert _codes(e, kernel) == []
    update = FineGrainedBuildManager.update
    failed: list[bool] = []

    def broken(self: FineGrainedBuildManager, *args: object, **kwargs: object) -> list[str]:
        if not failed:
            failed.append(True)
            raise KeyError("weakref")  # as mypy's find_reachable_changed_modules does
        return update(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(FineGrainedBuildManager, "update", broken)
    e.set_text(str(kernel), KERNEL.replace("(ROWS, COLS)", "(ROWS, 4)"))
    assert _codes(e, kernel) == [(8, "pypto-reduce-align")]
    assert e.builds == 2
    assert any("update failed (KeyError: 'weakref'); rebuilding from scratch" in line for line in log)
    e.set_text(str(kernel), KERNEL)
    assert _codes(e, kernel) == []  # and the new engine updates as usual
    assert e.builds == 2


def test_a_file_on_disk_changed(engine: tuple[Engine, list[str], Path]) -> None:
    e, _log, root = engine
    kernel = root / "k.py"
    e.set_text(str(kernel), KERNEL)
    assert _codes(e, kernel) == []
    (root / "helpers.py").write_text(HELPERS.replace("64", "4"), encoding="utf-8")  # saved by another editor
    assert _codes(e, kernel) == []  # not looked at until a save or the client says so
    e.disk_changed()
    assert _codes(e, kernel) == [(8, "pypto-reduce-align")]


def test_types_of_old_trees_are_dropped(engine: tuple[Engine, list[str], Path]) -> None:
    e, _log, root = engine
    kernel = root / "k.py"
    e.prune_at = 1  # prune after every check
    sizes = []
    for k in range(4):
        e.set_text(str(kernel), KERNEL + "\n" * k)
        assert _codes(e, kernel) == []
        sizes.append(e.exported_types())
    assert sizes[0] == sizes[-1]  # each update's new tree replaces the old one's types
    tree = e.tree(str(kernel))
    assert tree is not None
    found = tensor_at(e, tree, 8, 13)  # `a` in `a.sum(-1, keepdim=True)`
    assert found is not None and found.val == TensorVal((8, 64), "DT_FP32")


def test_closed_files_leave_the_build_unless_imported(engine: tuple[Engine, list[str], Path]) -> None:
    e, log, root = engine
    kernel, helpers, other = root / "k.py", root / "helpers.py", root / "other.py"
    other.write_text("import pypto\n\nx: int = 'a'\n", encoding="utf-8")
    e.set_text(str(kernel), KERNEL)
    e.set_text(str(other), other.read_text(encoding="utf-8"))
    e.set_text(str(helpers), HELPERS)
    assert [r.code for r in e.check()[str(other)]] == ["assignment"]
    e.set_text(str(other), None)
    e.set_text(str(helpers), None)
    e.check()
    assert "dropped 1 module(s) no open file imports (other...)" in log[-1]  # the kernel imports helpers
    assert e.tree(str(other)) is None and e.tree(str(helpers)) is not None
    assert "other.py" not in e.current_output()
    e.set_text(str(other), other.read_text(encoding="utf-8"))  # and back
    assert [r.code for r in e.check()[str(other)]] == ["assignment"]
    e.set_text(str(helpers), HELPERS.replace("64", "4"))  # open what the kernel imports, close the kernel
    e.set_text(str(kernel), None)
    assert e.check()[str(helpers)] == [] and e.tree(str(helpers)) is not None and e.tree(str(kernel)) is None
    e.set_text(str(kernel), KERNEL)
    assert _codes(e, kernel) == [(8, "pypto-reduce-align")]  # with the unsaved helpers
    assert e.builds == 1


@pytest.mark.parametrize("config", [None, "[mypy]\nplugins = mypy_plugin\n"])
def test_the_filter_and_config_of_pypto_check(tmp_path: Path, config: str | None) -> None:
    """With the user's config (it enables the plugin) everything is shown; without one, signal
    first hides mypy's errors that are not about PyPTO (cli.shown_records, as pypto-check)."""
    if config is not None:
        (tmp_path / "mypy.ini").write_text(config, encoding="utf-8")
    path = tmp_path / "k.py"
    text = "import pypto\n\nx: int = 'a'\n"
    path.write_text(text, encoding="utf-8")
    e = Engine(tmp_path, [], lambda _line: None)
    try:
        e.set_text(str(path), text)
        found = e.check()[str(path)]
        assert [r.code for r in found] == ["assignment"]
        kept, hidden = shown(found, text.splitlines(keepends=True), user_config=e.user_config, show_all=False)
        assert (e.user_config, len(kept), hidden) == ((True, 1, 0) if config else (False, 0, 1))
    finally:
        e.close()
