"""The syntax tree of a file the source rewrite parsed, kept for the host evaluation of that file.

Real PyPTO code defines its kernels and calls them in one file (tests, examples, models). The
source rewrite parses every pypto file as mypy parses it (in mypy's parser threads); the host
evaluation (:mod:`host_sites`) would parse the same file again when mypy checks its calls. The
rewrite keeps its tree for a file that calls a function it decorates, or decorates a function
inside another (a kernel factory, a kernel defined in a test); the host evaluation takes it when
it reads the very bytes that were parsed, else it parses them itself. Trees are taken once and the
store is bounded, so a tree that nobody takes (a daemon's edits) does not keep memory for long.
"""

from __future__ import annotations

import ast
import hashlib
import os
import threading
from typing import Final

_MAX_KEPT: Final = 256
_kept: dict[str, tuple[bytes, ast.Module]] = {}  # absolute path -> (digest of the bytes parsed, tree)
_lock: Final = threading.Lock()  # parser threads keep, mypy's main thread takes


def _digest(data: bytes) -> bytes:
    return hashlib.sha1(data).digest()


def keep(path: str, data: bytes, tree: ast.Module) -> None:
    """``tree`` is the parse of ``data``, the bytes of ``path``."""
    with _lock:
        if len(_kept) >= _MAX_KEPT:
            _kept.clear()
        _kept[os.path.abspath(path)] = (_digest(data), tree)


def take(path: str, data: bytes) -> ast.Module | None:
    """The kept parse of ``path`` if it was made from ``data``, else None (parse it yourself)."""
    with _lock:
        entry = _kept.pop(os.path.abspath(path), None)
    if entry is None or entry[0] != _digest(data):
        return None
    return entry[1]
