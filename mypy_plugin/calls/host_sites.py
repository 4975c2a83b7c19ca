"""The host call sites of one module, evaluated once per parse of it (:mod:`host.evaluate` over its
source, with the fixtures of its conftests: :mod:`conftests`) and found again by a call's line and
column, or by the factory kernel they call."""

from __future__ import annotations

import ast
import functools
import gc
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from mypy.nodes import Import, MypyFile

from ..host.evaluate import CallSite, HostEvaluator
from ..host.module_facts import DEFAULT_DTYPE_SETTERS, scan
from ..ast_fields import dotted
from ..kernel.decorators import jit_kernel
from ..host.values import Value
from ..rewrite import parsed_trees
from ..rewrite.call_forms import may_call_a_kernel
from . import conftests, imported_constants, module_sources

_CACHE_SIZE: Final = 64


@dataclass
class ModuleSites:
    at: dict[tuple[int, int], list[CallSite]] = field(default_factory=dict)
    of: dict[str, list[CallSite]] = field(default_factory=dict)  # by kernel ("make_kernel.kernel")
    # other modules' constants the evaluation read ((module, name) -> value): the sites hold while
    # they keep their values (a daemon keeps this module's tree when only theirs changed)
    constants: dict[tuple[str, str], Value] = field(default_factory=dict)
    conftests: dict[str, str] = field(default_factory=dict)  # the conftest modules read -> their digests


# module path -> (the tree, the file's mtime and size they were read for, sites). The daemon merges
# a new parse into the old tree objects, so the tree alone does not say the source changed.
_cache: dict[str, tuple[MypyFile, tuple[int, int], ModuleSites]] = {}
_cache_of: list[object] = []  # the build (its module table) the cached trees belong to


def module_sites(api: object) -> ModuleSites:
    module = getattr(api, "tree", None)
    path = getattr(api, "path", None)
    if not isinstance(module, MypyFile) or not isinstance(path, str):
        return ModuleSites()
    path = _shadowed(api, path)
    modules = getattr(api, "modules", None)  # the build's module table (one per build, kept by a daemon)
    if not _cache_of or _cache_of[0] is not modules:
        _cache.clear()  # trees of another build would keep that whole build alive
        _cache_of[:] = [modules]
    try:
        st = os.stat(path)
    except OSError:
        return ModuleSites()
    stamp = (st.st_mtime_ns, st.st_size)
    entry = _cache.get(path)
    read = imported_constants.reader(modules)
    if entry is None or entry[0] is not module or entry[1] != stamp or _changed(entry[2].constants, read) \
            or conftests.changed(api, entry[2].conftests):
        if len(_cache) >= _CACHE_SIZE:
            _cache.clear()
        trees, digests = conftests.read(api, conftests.names(api, path))
        entry = _cache[path] = (module, stamp, _evaluate(module, path, read, trees, modules))
        entry[2].conftests = digests
    return entry[2]


def _changed(constants: dict[tuple[str, str], Value], read: Callable[[str, str], Value]) -> bool:
    return any(read(module, name) != value for (module, name), value in constants.items())


def _shadowed(api: object, path: str) -> str:
    """The file mypy reads for ``path``: its ``--shadow-file`` when one is given (editors and
    ``pypto-check --fix`` check unsaved text that way), else ``path`` itself."""
    pairs = getattr(getattr(api, "options", None), "shadow_file", None)
    if not isinstance(pairs, list):
        return path
    real = os.path.abspath(path)
    for pair in pairs:
        if isinstance(pair, (list, tuple)) and len(pair) == 2 and os.path.abspath(str(pair[0])) == real:
            return str(pair[1])
    return path


def _evaluate(module: MypyFile, path: str, constant: Callable[[str, str], Value], conftest_trees: list[ast.Module],
              modules: object = None) -> ModuleSites:
    # No cyclic GC while the short-lived syntax tree is built and walked: a collection then scans
    # all of mypy's heap, which costs more than the walk itself (the tree is freed by refcount).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _evaluate_source(module, path, constant, conftest_trees, modules)
    finally:
        if enabled:
            gc.enable()


def _evaluate_source(module: MypyFile, path: str, constant: Callable[[str, str], Value],
                     conftest_trees: list[ast.Module], modules: object = None) -> ModuleSites:
    # What the calls of the text mypy analyzed may call (a module importing pypto declares its
    # digest), else of these very bytes: a module none of whose calls can be a kernel's (a kernel
    # module) is not read again.
    declared = module_sources.declared_digest(module)
    forms = parsed_trees.forms_of_text(path, declared) if declared is not None else None
    try:
        data = None
        if forms is None:
            data = Path(path).read_bytes()
            forms = parsed_trees.forms(path, data)
        if forms is not None and not may_call_a_kernel(forms, kernel_namer(module, frozenset(), modules)):
            parsed_trees.drop(path)  # (kept for a module that defines a factory: not needed)
            return ModuleSites()  # no call of the module can be a kernel's (a kernel module)
        if data is None:
            data = Path(path).read_bytes()
        # the source rewrite's parse of these very bytes, when it kept one (parsed_trees)
        tree = parsed_trees.take(path, data) or ast.parse(data)
    except (OSError, SyntaxError, ValueError):
        return ModuleSites()
    out = ModuleSites()
    facts = scan(tree)

    def recorded(module_name: str, name: str) -> Value:
        value = out.constants[(module_name, name)] = constant(module_name, name)
        return value

    evaluator = HostEvaluator(tree, kernel_namer(module, facts.nested_kernels, modules), facts=facts,
                              default_dtype_changed=conftest_changes_default_dtype(path), constant=recorded,
                              conftests=conftest_trees)
    for site in evaluator.call_sites():
        out.at.setdefault((site.line, site.column), []).append(site)
        out.of.setdefault(site.kernel, []).append(site)
    return out


def _conftest_in(directory: str) -> bool:
    path = os.path.join(directory, "conftest.py")
    try:
        st = os.stat(path)
    except OSError:
        return False
    return _mentions_setter(path, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=256)
def _mentions_setter(path: str, mtime: int, size: int) -> bool:
    """Read once per version of the file (a daemon sees an edit)."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(name in text for name in DEFAULT_DTYPE_SETTERS)


def conftest_changes_default_dtype(path: str) -> bool:
    """Does a ``conftest.py`` pytest loads for this file (in its directory or one above, up to
    the project's root) change torch's default float dtype? Then the module's default dtypes
    are unknown. Each ``conftest.py`` is looked at again on every call (one may appear in a
    daemon's run); where the search stops is :func:`conftests.is_root`'s answer for the build."""
    directory = os.path.dirname(os.path.abspath(path))
    for _ in range(32):
        if _conftest_in(directory):
            return True
        if conftests.is_root(directory):
            return False
        directory = os.path.dirname(directory)
    return False


def imported_modules(module: MypyFile) -> frozenset[str]:
    """The modules ``import pkg.mod`` statements of ``module`` import (not ``as`` another name)."""
    return frozenset(name for imp in module.imports if isinstance(imp, Import) for name, alias in imp.ids
                     if alias is None)


def module_member(module: MypyFile, text: str, modules: object, imported: frozenset[str]) -> object:
    """What ``name``, ``mod.name`` or ``pkg.mod.name`` is bound to in ``module``, through modules
    only (never an object's attribute); ``pkg.mod`` of an ``import pkg.mod`` in ``imported``
    counts, which mypy leaves out of ``pkg``'s names."""
    head, *attrs = text.split(".")
    sym = module.names.get(head)
    node = sym.node if sym is not None else None
    for attr in attrs:
        if not isinstance(node, MypyFile):
            return None
        inner = node.names.get(attr)
        fullname = f"{node.fullname}.{attr}"
        found = modules.get(fullname) if inner is None and fullname in imported and isinstance(modules, Mapping) else None
        node = inner.node if inner is not None else found if isinstance(found, MypyFile) else None
    return node


def kernel_namer(module: MypyFile, nested: frozenset[str], modules: object = None
                 ) -> Callable[[ast.expr], str | None]:
    """Which callees of the module's source are jit kernels: a module-level name (defined or
    imported) or ``mod.kernel`` / ``pkg.mod.kernel`` of an imported module, as mypy bound them, or the name of a
    kernel defined inside a function (``nested``)."""

    # The evaluator asks for every call it walks; the answer depends on the callee's text only.
    known: dict[str, str | None] = {}
    imported = imported_modules(module)

    def name(callee: ast.expr) -> str | None:
        text = dotted(callee)
        if text is None:
            return None
        if text not in known:
            known[text] = _kernel_name(text)
        return known[text]

    def _kernel_name(text: str) -> str | None:
        if "." not in text and text not in module.names:
            return text if text in nested else None
        return text if jit_kernel(module_member(module, text, modules, imported)) is not None else None

    return name
