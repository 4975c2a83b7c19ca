"""The modules a module imports by a reachable import statement, as mypy counts its dependencies.

mypy checks a module again when the interface of one of its dependencies changed, and the
interface of every pypto module holds the digest of its text (``rewrite/module_marker.py``): an
edit of a module another module's check read the source of is then seen without the list beside
the cache (``module_sources``) when the reader imports it. This mirrors mypy 2.4's
``BuildManager.all_imported_modules_in_file`` for the modules it always counts (``import a.b``,
``from a import b`` -- ``a`` and, when it is a module, ``a.b`` --, ``from a import *``, relative
forms resolved as ``correct_rel_imp`` does); anything else is left to the list.
"""

from __future__ import annotations

import os

from mypy.nodes import Import, ImportAll, ImportFrom, MypyFile

# id(tree) -> (the tree, what it imports): the tree is held so ids stay unique
_kept: dict[int, tuple[MypyFile, frozenset[str]]] = {}
_MAX_KEPT = 1024


def imported(tree: MypyFile) -> frozenset[str]:
    entry = _kept.get(id(tree))
    if entry is not None and entry[0] is tree:
        return entry[1]
    found = frozenset(_modules(tree))
    if len(_kept) >= _MAX_KEPT:
        _kept.clear()
    _kept[id(tree)] = (tree, found)
    return found


def _modules(tree: MypyFile) -> set[str]:
    found: set[str] = set()
    for imp in tree.imports:
        if imp.is_unreachable:
            continue
        if isinstance(imp, Import):
            found.update(module for module, _ in imp.ids)
        elif isinstance(imp, (ImportFrom, ImportAll)):
            base = _absolute(tree, imp)
            if not base:
                continue  # (mypy reports it: no parent module)
            found.add(base)
            if isinstance(imp, ImportFrom):
                # each name that is a module is a dependency; a name that is not names no module read
                found.update(f"{base}.{name}" for name, _ in imp.names)
    return found


def _absolute(tree: MypyFile, imp: ImportFrom | ImportAll) -> str:
    if imp.relative == 0:
        return imp.id
    level = imp.relative - (1 if os.path.basename(tree.path).startswith("__init__.") else 0)
    package = ".".join(tree.fullname.split(".")[:-level]) if level else tree.fullname
    return f"{package}.{imp.id}" if imp.id else package
