"""Other modules' sources, for the body tracer (:mod:`..trace`): a module's text as mypy analyzed
it, and what the check that read it now depends on.

mypy keeps no function bodies of a module it loads from its cache (warm runs, the daemon, another
worker of ``mypy -n``), so a check that enters a helper or kernel of another module reads that
module's source itself. It is read only when it is the text mypy analyzed: the source rewrite
declares the digest of every pypto module's text (``rewrite/module_marker.py``) and the file must
still have that digest. What it read is recorded so that an edit rechecks the reader:
- in the daemon (fine-grained), the reading target depends on the module's digest declaration,
  whose value changes with any edit (``MypyFile.alias_deps``, which mypy's dependency pass reads
  for every function target, also when it rechecks just that target);
- in incremental runs, a module the reader imports needs nothing more: its interface holds the
  digest, so mypy checks the reader again after any edit of it. For a module reached only through
  another one, the list of what the reader's last check read, each source with the digest it had
  then, is kept beside mypy's cache; when mypy validates the reader's cache entry
  (:func:`config_data`, through the plugin's ``report_config_data``), a source whose digest
  differs now makes mypy check the reader again.
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from mypy.nodes import MypyFile, Var
from mypy.util import decode_python_encoding

from ..bridge.folding import int_of_type
from ..rewrite import parsed_trees
from ..rewrite.module_marker import DIGEST_NAME, source_digest
from . import direct_imports

if TYPE_CHECKING:
    from ..trace.modules import TracedModule

# module being checked -> {module read: (its path, its digest)}, in this process
_READ: dict[str, dict[str, tuple[str, int]]] = {}
_CACHE_DIR: list[str] = []


def _decorated_functions(tree: ast.Module, path: str, text: str) -> object:
    # The tracer is imported at the first parse, not with this module: a run that parses nothing
    # (a warm cache) needs none of it. (A plain import: parser threads may both ask at once.)
    from ..trace.written_dtypes import decorated_functions

    return decorated_functions(tree, path, text)


parsed_trees.summarize_with(_decorated_functions)  # the rewrite keeps what kernel_dtypes reads
_SUBDIR: Final = os.path.join("pypto-stubs", "sources")


def load(api: object, name: str) -> TracedModule | None:
    """The module ``name`` of this build, from its source (None: not a pypto module of the build,
    a stub, or its file is no longer the text mypy analyzed)."""
    declared = _declared(api, name)
    if declared is None:
        return None
    path, expected = declared
    found = _module(name, path, expected)
    if found is not None:
        _record(api, name, path, expected)
    return found


def kernel_dtypes(api: object, name: str, function: str) -> dict[str, str] | None:
    """What the tensor annotations of ``function``, a module-level function of module ``name``,
    write for the dtype (:mod:`..trace.written_dtypes`); None when :func:`load` gives no module or
    the module has no such function. The source rewrite's table of the very text mypy analyzed
    (:mod:`..rewrite.parsed_trees`) spares the module's parse; the answer is the parse's."""
    declared = _declared(api, name)
    if declared is None:
        return None
    path, expected = declared
    table = parsed_trees.summary(path, expected)
    if isinstance(table, dict) and function in table:  # made from the very text mypy analyzed: no read
        _record(api, name, path, expected)
        written: dict[str, str] = table[function]
        return written
    found = _module(name, path, expected)
    if found is None:
        return None
    _record(api, name, path, expected)
    fdef = found.functions.get(function)
    if fdef is None:
        return None
    from ..trace.written_dtypes import parameter_dtypes  # (see _decorated_functions)

    return parameter_dtypes(fdef)


def _declared(api: object, name: str) -> tuple[str, int] | None:
    """The path of module ``name`` of this build and the digest of the text mypy analyzed (None:
    not a pypto module of the build, or a stub)."""
    modules = getattr(api, "modules", None)
    mod = modules.get(name) if isinstance(modules, Mapping) else None
    if not isinstance(mod, MypyFile) or mod.is_stub or not mod.path.endswith(".py"):
        return None
    expected = declared_digest(mod)
    return None if expected is None else (mod.path, expected)


def declared_digest(mod: MypyFile) -> int | None:
    """The digest of the text mypy analyzed, as the module declares it (a module importing pypto)."""
    sym = mod.names.get(DIGEST_NAME)
    return int_of_type(sym.node.type) if sym is not None and isinstance(sym.node, Var) else None


def _module(name: str, path: str, digest: int) -> TracedModule | None:
    text = _current_text(path, digest)
    return None if text is None else _parsed(name, path, digest, text)


def _current_text(path: str, digest: int) -> str | None:
    """The text of ``path`` if it is still the one of that digest (the text mypy analyzed)."""
    stamp = _stamp(path)
    text = _text(path, *stamp)
    return text if text is not None and _text_digest(path, *stamp) == digest else None


@lru_cache(maxsize=256)
def _text_digest(path: str, mtime: int, size: int) -> int | None:
    """The digest of the text ``_text`` read (hashed once per version of the file: every check
    that depends on another module's source asks, at each of its hooks)."""
    text = _text(path, mtime, size)
    return source_digest(text) if text is not None else None


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=256)
def _text(path: str, mtime: int, size: int) -> str | None:
    if size < 0:
        return None
    try:
        with open(path, "rb") as f:
            return decode_python_encoding(f.read())
    except (OSError, UnicodeDecodeError, SyntaxError):
        return None


@lru_cache(maxsize=256)
def _parsed(name: str, path: str, digest: int, text: str) -> TracedModule | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    from ..trace.modules import TracedModule  # (see _decorated_functions)

    return TracedModule(name, path, text, tree, os.path.basename(path) == "__init__.py", str(digest))


def _record(api: object, name: str, path: str, digest: int) -> None:
    tree = getattr(api, "tree", None)
    scope = getattr(api, "tscope", None)
    if not isinstance(tree, MypyFile) or name == tree.fullname:
        return
    try:
        target = scope.current_target() if scope is not None else tree.fullname
    except AssertionError:
        target = tree.fullname
    tree.alias_deps[target].add(f"{name}.{DIGEST_NAME}")
    read = _READ.setdefault(tree.fullname, {})
    if read.get(name) != (path, digest):
        read[name] = (path, digest)
        # A module it imports needs no list: mypy checks it again when that module's interface,
        # which holds the digest of its text, changes. Only a module reached some other way does.
        if not direct_imports.imported(tree).issuperset(read):
            _write_list(tree.fullname)


def use_cache_dir(cache_dir: str | None) -> None:
    """Where the lists of what each module's check read are kept (None: no incremental cache)."""
    _CACHE_DIR[:] = [cache_dir] if cache_dir and cache_dir != os.devnull else []


def config_data(module: str, is_check: bool) -> dict[str, object]:
    """What a module's cache entry carries about the sources its last check read: nothing while
    each has the digest it had when that check read it, else a mark that never equals it.

    mypy writes a module's entry before it checks the module (``is_check`` False: the list of the
    check before is dropped, the check about to run lists what it reads anew), and asks again when
    it validates the entry (``is_check`` True): the entry then holds whatever the module's last
    check read, so the first warm run after a cold one checks nothing again."""
    side = _side_file(module)
    if not is_check:
        _READ.pop(module, None)  # the check about to run lists what it reads
        if side:
            try:
                os.remove(side)
            except FileNotFoundError:
                pass
            except OSError:
                return {"sources": "unreadable"}  # a list that may stay stale: never equal, check again
        return {}
    if not side:
        return {}
    try:
        with open(side, encoding="utf-8") as f:
            read: dict[str, list[object]] = json.load(f)
        for path, digest in read.values():
            if not isinstance(path, str) or _text_digest(path, *_stamp(path)) != digest:
                return {"sources": "changed"}
    except FileNotFoundError:
        return {}  # the module's last check read no other module's source
    except (OSError, ValueError, TypeError):
        return {"sources": "unreadable"}  # (a list of another form too): check again
    return {}


def _write_list(module: str) -> None:
    side = _side_file(module)
    if not side:
        return
    text = json.dumps({name: [path, digest] for name, (path, digest) in sorted(_READ[module].items())})
    try:
        try:
            f = open(side, "w", encoding="utf-8")
        except FileNotFoundError:  # the cache's first list (or its directory was removed)
            os.makedirs(os.path.dirname(side), exist_ok=True)
            f = open(side, "w", encoding="utf-8")
        with f:
            f.write(text)  # one write (json.dump writes each token)
    except OSError:
        pass


def _side_file(module: str) -> str:
    return os.path.join(_CACHE_DIR[0], _SUBDIR, f"{module}.json") if _CACHE_DIR else ""
