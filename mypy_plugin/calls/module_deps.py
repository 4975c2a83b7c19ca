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


def unchanged_since(modules: Mapping[str, object], module: MypyFile, parsed: int) -> bool:
    """Was no module ``module`` imports at any depth (itself and ``builtins`` included) parsed after
    the parse numbered ``parsed``? False too when that cannot be told (a module read from mypy's
    cache has no imports in its tree). A module that was missing and now exists was parsed since;
    one that was deleted is seen by the caller (mypy then has fewer modules)."""
    if parse_count.unattributed() > parsed:
        return False  # a file with no name was parsed (the Python-ast route): anything may have changed
    todo, done = [module.fullname, "builtins"], set()
    while todo:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        tree = modules.get(name)
        if tree is None:
            continue  # not a module: one that appears is a parse (and one more module)
        if not isinstance(tree, MypyFile) or tree.is_cache_skeleton:
            return False
        stamp = parse_count.stamp(tree.path)
        if stamp > parsed:
            return False
        todo.extend(_imported_once(tree, stamp))
    return True


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
