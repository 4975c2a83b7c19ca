"""A test module depends on the conftests of its package chain that mention pypto (so mypy analyses
them first and their fixtures give the tests' arguments); nothing changes for other modules."""

from __future__ import annotations

from pathlib import Path

from mypy.nodes import Import, MypyFile

from mypy_plugin.calls.conftests import additional_deps


def _module(path: Path, fullname: str, imports: list[str]) -> MypyFile:
    file = MypyFile([], [Import([(name, None)]) for name in imports])
    file.path = str(path)
    file._fullname = fullname
    return file


def test_the_conftests_of_the_package_chain_that_mention_pypto(tmp_path: Path) -> None:
    root = tmp_path / "proj"  # the base directory of package ``tests`` (on mypy's search path)
    pkg = root / "tests" / "unit"
    pkg.mkdir(parents=True)
    (root / "tests" / "conftest.py").write_text("import pypto\n")
    (pkg / "conftest.py").write_text("import torch\n")  # no pypto: not read, no dependency
    (root / "conftest.py").write_text("import pypto\n")  # the base directory's: module "conftest"
    (tmp_path / "conftest.py").write_text("import pypto\n")  # above it: mypy would not find it
    test = _module(pkg / "test_k.py", "tests.unit.test_k", ["torch"])
    assert additional_deps(test) == [(10, "tests.conftest", -1), (10, "conftest", -1)]
    (pkg / "conftest.py").write_text("import pypto\n")
    assert additional_deps(test)[0] == (10, "tests.unit.conftest", -1)
    # a module that imports neither torch nor pypto, and a conftest itself: nothing
    assert additional_deps(_module(pkg / "test_plain.py", "tests.unit.test_plain", ["os"])) == []
    assert additional_deps(_module(pkg / "conftest.py", "tests.unit.conftest", ["pypto"])) == []
