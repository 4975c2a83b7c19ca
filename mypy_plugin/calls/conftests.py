"""The ``conftest.py`` files pytest loads for a test module (its directory and those above it, up to
the project's root), as modules of the build read through :mod:`module_sources`: their fixtures
give the tests' arguments. A conftest is read only when mypy checks it and it imports pypto (the
source digest that keeps warm, daemon and ``mypy -n`` runs equal to cold ones); reading it makes
the reader depend on it, so an edit of it rechecks the tests. A test module that imports torch or
pypto depends on the conftests of its package that mention pypto (:func:`additional_deps`): mypy
then analyses them first, so their fixtures are there when its calls are checked."""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from mypy.nodes import Import, ImportAll, ImportFrom, MypyFile

from . import module_sources

_MARKERS: Final = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_by_path: dict[int, tuple[int, dict[str, str]]] = {}  # id(module table) -> (its size, path -> module name)
# directory -> is it where pytest's search stops (a project marker, or the file system's root):
# asked once per directory and build (emptied with _by_path)
_roots: dict[str, bool] = {}


def names(api: object, path: str) -> list[str]:
    """The module names of the conftests pytest loads for ``path``, farthest first."""
    modules = getattr(api, "modules", None)
    if not isinstance(modules, Mapping):
        return []
    table = _paths(modules)
    found: list[str] = []
    real = os.path.abspath(path)
    directory = os.path.dirname(real)
    for _ in range(32):
        conftest = os.path.join(directory, "conftest.py")
        if conftest in table and conftest != real:
            found.append(table[conftest])
        if is_root(directory):
            break
        directory = os.path.dirname(directory)
    return found[::-1]


def is_root(directory: str) -> bool:
    """Does pytest's conftest search stop at ``directory`` (an absolute path)? Asked of the disk
    once per directory and build."""
    found = _roots.get(directory)
    if found is None:
        found = _roots[directory] = any(os.path.exists(os.path.join(directory, m)) for m in _MARKERS) \
            or os.path.dirname(directory) == directory
    return found


def _paths(modules: Mapping[str, object]) -> dict[str, str]:
    cached = _by_path.get(id(modules))
    if cached is None or cached[0] != len(modules):
        _by_path.clear()  # one build at a time
        _roots.clear()
        table = {os.path.abspath(m.path): name for name, m in modules.items()
                 if isinstance(m, MypyFile) and os.path.basename(m.path) == "conftest.py"}
        cached = _by_path[id(modules)] = (len(modules), table)
    return cached[1]


def read(api: object, conftests: list[str]) -> tuple[list[ast.Module], dict[str, str]]:
    """The trees of the conftests that can be read, and what each read gave (its digest, "" for
    one that cannot be read): evaluated again when that changes."""
    trees: list[ast.Module] = []
    digests: dict[str, str] = {}
    for name in conftests:
        loaded = module_sources.load(api, name)
        digests[name] = loaded.digest if loaded is not None else ""
        if loaded is not None:
            trees.append(loaded.tree)
    return trees, digests


def changed(api: object, digests: dict[str, str]) -> bool:
    """Has a conftest read before changed (read again: the current check depends on it too)?"""
    return read(api, list(digests))[1] != digests


def additional_deps(file: MypyFile) -> list[tuple[int, str, int]]:
    """The conftest modules of ``file``'s package chain (its directory and each package above it,
    named as mypy names them) that mention pypto, for a module that imports torch or pypto.
    Nothing for any other module: mypy's answers on code that does not use PyPTO stay its own."""
    if not file.path or os.path.basename(file.path) == "conftest.py" or not any(
            i.split(".")[0] in ("torch", "pypto") for i in _imported(file)):
        return []
    parts = file.fullname.split(".")[:-1]  # the packages the module is in
    directory = os.path.dirname(os.path.abspath(file.path))  # (os.path: asked for every module)
    deps: list[tuple[int, str, int]] = []
    for depth in range(len(parts), -1, -1):  # this directory, then each package directory above
        conftest = os.path.join(directory, "conftest.py")
        if os.path.isfile(conftest) and _mentions_pypto(conftest):
            deps.append((10, ".".join([*parts[:depth], "conftest"]), -1))  # PRI_LOW: after real imports
        directory = os.path.dirname(directory)
    return deps


def _imported(file: MypyFile) -> list[str]:
    out: list[str] = []
    for imp in file.imports:
        if isinstance(imp, Import):
            out += [name for name, _ in imp.ids]
        elif isinstance(imp, (ImportFrom, ImportAll)):
            out.append(imp.id)
    return out


def _mentions_pypto(path: str) -> bool:
    try:
        return "pypto" in Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
