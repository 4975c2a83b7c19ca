"""Whether anything a module can see was parsed again: the module itself, or any module it imports
at any depth (with their parent packages). A daemon update parses the files it changed before it
analyzes anything, so what was derived from a module's check holds while this says so."""

from __future__ import annotations

from collections.abc import Mapping

from mypy.nodes import Import, ImportAll, ImportFrom, MypyFile
from mypy.util import correct_relative_import

from ..rewrite import parse_count

# id(tree) -> (the tree, when its file was parsed, what it imports): once per parse of each module
_imports: dict[int, tuple[MypyFile, int, list[str]]] = {}
# (the parse asked about, the last parse) -> the modules that see a file parsed after the first
_seeing: dict[tuple[int, int], frozenset[str] | None] = {}


def unchanged_since(modules: Mapping[str, object], module: MypyFile, parsed: int) -> bool:
    """Was no module ``module`` imports at any depth (itself and ``builtins`` included) parsed after
    the parse numbered ``parsed``? False too when that cannot be told (a module read from mypy's
    cache has no imports in its tree). A module that was missing and now exists was parsed since;
    one that was deleted is the caller's to see (mypy then has fewer modules)."""
    if parse_count.unattributed() > parsed:
        return False  # a text with no file name was parsed (the Python-ast route): anything may have changed
    key = (parsed, parse_count.last())
    if key not in _seeing:
        if len(_seeing) > 64:
            _seeing.clear()
        _seeing[key] = _importers_of_parsed(modules, parsed)
    seeing = _seeing[key]
    return seeing is not None and module.fullname not in seeing


def _importers_of_parsed(modules: Mapping[str, object], parsed: int) -> frozenset[str] | None:
    """The modules that import (at any depth) a file parsed after ``parsed``, those included; None
    when that cannot be told (a tree without its imports, ``builtins`` among them)."""
    if parse_count.last() <= parsed:
        return frozenset()  # nothing parsed since (an unnamed parse is the caller's to see)
    importers: dict[str, list[str]] = {}
    todo: list[str] = []
    for name, tree in modules.items():
        if not isinstance(tree, MypyFile) or tree.is_cache_skeleton:
            return None
        stamp = parse_count.stamp(tree.path)
        if stamp > parsed:
            todo.append(name)
        for dep in _imported_once(tree, stamp):
            importers.setdefault(dep, []).append(name)
    # A module that does not exist yet is a name a module imports: when it appears it is parsed,
    # and its name is in ``todo`` through the parse of its file (found under its name above).
    seeing: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seeing:
            continue
        seeing.add(name)
        todo.extend(importers.get(name, ()))
    return None if "builtins" in seeing else frozenset(seeing)


def _imported_once(tree: MypyFile, stamp: int) -> list[str]:
    seen = _imports.get(id(tree))
    if seen is None or seen[0] is not tree or seen[1] != stamp:
        seen = _imports[id(tree)] = (tree, stamp, imported(tree))
    return seen[2]


def imported(tree: MypyFile) -> list[str]:
    """The modules ``tree`` imports (at any nesting), with their parent packages."""
    found: list[str] = []
    for node in tree.imports:
        if isinstance(node, Import):
            ids = [i for i, _ in node.ids]
        elif isinstance(node, (ImportFrom, ImportAll)):
            target, ok = correct_relative_import(tree.fullname, node.relative, node.id, tree.is_package_init_file())
            ids = [target] if ok else []
            if isinstance(node, ImportFrom):  # ``from pkg import mod`` imports pkg.mod
                ids += [f"{target}.{name}" for name, _ in node.names]
        else:
            ids = []
        for i in ids:
            parts = i.split(".")
            found.extend(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return found
