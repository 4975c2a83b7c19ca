"""The marker that makes a module importing pypto get the PyPTO module options
(:mod:`module_options`) when it has no tensor annotation to carry them.

The options are set on a module's own ``Options`` from a type-analyze hook, while mypy analyzes the
module (the hook's ``api`` holds that copy); no other hook sees it. A module with a tensor
annotation gets them from that annotation. A module that imports pypto and has none (host tests
that call kernels from untyped ``def test_...():``, helpers that build tensors in untyped
functions) gets one declaration appended by the source rewrite to its helper import line::

    import pypto; from typing import ForwardRef as _PyptoStubsModule; _PyptoStubsUsesPypto: _PyptoStubsModule

which ``rewrite_markers.py`` types as None, and whose analysis applies the options. The rewrite
runs on every parse (cold, a stale module re-parsed, the daemon, both of mypy's parsers), and it
moves no line. Modules that do not import pypto are never rewritten: their options stay mypy's.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Callable, Iterable
from typing import Final

from .reparse_guard import ALIAS_PREFIX

ALIAS: Final = ALIAS_PREFIX + "Module"  # typed by rewrite_markers.py (None), applies the options
NAME: Final = ALIAS_PREFIX + "UsesPypto"  # the declared name (private: ``import *`` skips it)
DECLARATION: Final = f"; {NAME}: {ALIAS}"

# Every module importing pypto also declares the digest of its source text, typed as an int that
# knows its value (rewrite_markers.py): part of the module's interface, so that an edit anywhere in
# it rechecks the modules whose checks read its bodies (calls/module_sources.py), warm and daemon.
DIGEST_ALIAS: Final = ALIAS_PREFIX + "Digest"
DIGEST_NAME: Final = ALIAS_PREFIX + "Source"


def source_digest(source: str) -> int:
    """The digest the declaration carries (60 bits of the text's SHA-256: an int literal)."""
    return int(hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()[:15], 16)


def digest_wanted(nodes: Iterable[ast.AST]) -> bool:
    """The module imports pypto and declares no digest yet (a rewritten text stays as it is)."""
    nodes = list(nodes)
    if any(isinstance(n, ast.ImportFrom) and any(a.asname == DIGEST_ALIAS for a in n.names) for n in nodes):
        return False
    return any(isinstance(n, ast.Import) and any(a.name.split(".")[0] == "pypto" for a in n.names)
               or isinstance(n, ast.ImportFrom) and n.level == 0 and (n.module or "").split(".")[0] == "pypto"
               for n in nodes)


def digest_declaration(source: str) -> str:
    return f"; {DIGEST_NAME}: {DIGEST_ALIAS}[{source_digest(source)}]"

# Cheap test before parsing: an import statement that names pypto (the parse decides).
IMPORT_LINE: Final = r"(?:^|\r)[ \t]*(?:import|from)[ \t][^\r\n]*\bpypto\b"
_IMPORT_LINE: Final = re.compile(IMPORT_LINE, re.MULTILINE)


def may_import_pypto(source: str) -> bool:
    return _IMPORT_LINE.search(source) is not None


def imports_pypto(nodes: Iterable[ast.AST]) -> bool:
    """Does any of the module's import statements (``nodes``, any nesting) import pypto (and
    carry no marker yet: a rewritten text rewritten again stays as it is)?"""
    found = False
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and any(a.asname == ALIAS for a in node.names):
            return False
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "pypto" for a in node.names):
            found = True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "pypto":
            found = True
    return found


# A module the options are for gets its own copy of mypy's options from this line, which the rewrite
# appends as the file's new last line (mypy reads ``# mypy:`` lines from the text its native parser
# was given): ``module_options.apply`` then has a copy to change, where other modules keep mypy's
# one. Without it every module would need a copy (a catch-all config section): mypy then makes a
# new one at every lookup, a sixth of a warm run's cost. Setting check_untyped_defs here, at the
# parse, is what the type-analyze hook sets anyway; allow_redefinition stays with the hook.
INLINE_OPTIONS: Final = "# mypy: check-untyped-defs"


def wanted(nodes: Iterable[ast.AST], annotations: Iterable[ast.expr], is_tensor: Callable[[ast.expr], bool]
           ) -> tuple[bool, bool]:
    """(the marker, the options line): a module importing pypto with no tensor annotation needs the
    marker (an annotation applies the options already); one that imports pypto or annotates with a
    tensor gets the PyPTO options, so it needs its own copy of them (``INLINE_OPTIONS``)."""
    imports = imports_pypto(nodes)
    annotated = any(_names_tensor(a, is_tensor) for a in annotations)
    return imports and not annotated, imports or annotated


def _names_tensor(node: ast.expr, is_tensor: Callable[[ast.expr], bool]) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    elif isinstance(node, ast.Subscript):
        node = node.value
    return is_tensor(node)
