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


def imported(tree: MypyFile) -> set[str]:
    """Read from the tree each time (asked only when a check reads a module it had not read): the
    daemon merges a new parse into the old ``MypyFile``, so its identity does not say its imports."""
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
