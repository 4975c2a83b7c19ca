"""The syntax tree of a file the source rewrite parsed, kept for the host evaluation of that file.

Real PyPTO code defines its kernels and calls them in one file (tests, examples, models). The
source rewrite parses every pypto file as mypy parses it (in mypy's parser threads); the host
evaluation (:mod:`host_sites`) would parse the same file again when mypy checks its calls. The
rewrite keeps its tree for a file that calls a function it decorates, or decorates a function
inside another (a kernel factory, a kernel defined in a test); the host evaluation takes it when
it reads the very bytes that were parsed, else it parses them itself. Trees are taken once and the
store is bounded, so a tree that nobody takes (a daemon's edits) does not keep memory for long.

For every file it parses, the rewrite also leaves what its calls may call (:mod:`call_forms`, a
few names): the host evaluation of a module none of whose calls can be a kernel's (a kernel
module) then needs no parse at all. And for a module that declares its digest (it imports pypto),
a summary a higher layer asks for (:func:`summarize_with`: what the annotations of its kernels
write for the dtype, ``calls.module_sources``), keyed by that digest: the host-call check of a
kernel of another module reads it instead of parsing the kernel's module again.
"""

from __future__ import annotations

import ast
import hashlib
import os
import threading
from collections.abc import Callable
from typing import Final

from .call_forms import CallForms, call_forms
from . import reparse_guard
from .module_marker import digest_wanted, source_digest
from .name_bindings import Walk

_MAX_KEPT: Final = 256
_MAX_FORMS: Final = 16384  # a few names each
_kept: dict[str, tuple[bytes, ast.Module]] = {}  # absolute path -> (digest of the bytes parsed, tree)
# absolute path -> (digest of the bytes, source digest of the text (a module that declares it, else
# None), what its calls may call, its summary (None: none made))
_forms: dict[str, tuple[bytes, int | None, CallForms | None, object | None]] = {}
# (tree, path, text) -> the summary of a module that declares its digest (set by a higher layer)
_summarize: list[Callable[[ast.Module, str, str], object]] = []
_lock: Final = threading.Lock()  # parser threads keep, mypy's main thread takes


def _digest(data: bytes) -> bytes:
    return hashlib.sha1(data).digest()


def keep(path: str, data: bytes, text: str, tree: ast.Module, walk: Walk) -> None:
    """``tree`` is the parse of ``text``, decoded from ``data``, the bytes of ``path``, and ``walk``
    the rewrite's walk of it: the tree is kept when the module may call its own kernels, what its
    calls may call always, its summary (:func:`summarize_with`) when it declares its digest."""
    forms = call_forms(walk)
    tree_kept = not path.endswith(".pyi") and walk.calls_a_decorated_function(tree)  # (a stub: no host code)
    text_digest = source_digest(text) if digest_wanted(walk.definitions) else None  # (the one it declares)
    summary = _summary_of(path, text, tree) if _summarize and text_digest is not None else None
    digest, real = _digest(data), os.path.abspath(path)
    with _lock:
        if len(_forms) >= _MAX_FORMS:
            _forms.clear()
        _forms[real] = (digest, text_digest, forms, summary)
        if tree_kept:
            if len(_kept) >= _MAX_KEPT:
                _kept.clear()
            _kept[real] = (digest, tree)


def forms(path: str, data: bytes) -> CallForms | None:
    """What the calls of ``path`` may call, if the rewrite parsed it from ``data`` and could tell
    (None: parse it and see)."""
    with _lock:
        entry = _forms.get(os.path.abspath(path))
    if entry is None or entry[0] != _digest(data):
        return None
    return entry[2]


def forms_of_text(path: str, text_digest: int) -> CallForms | None:
    """As :func:`forms`, for the text of that source digest (the one a module that imports pypto
    declares): no need to read the file again to tell."""
    with _lock:
        entry = _forms.get(os.path.abspath(path))
    return entry[2] if entry is not None and entry[1] == text_digest else None


def take(path: str, data: bytes) -> ast.Module | None:
    """The kept parse of ``path`` if it was made from ``data``, else None (parse it yourself)."""
    with _lock:
        entry = _kept.pop(os.path.abspath(path), None)
    if entry is None or entry[0] != _digest(data):
        return None
    return entry[1]


def drop(path: str) -> None:
    """Forget the kept parse of ``path``: its host evaluation found that no call of it can be a
    kernel's (a kernel module with a factory), so nobody will take it."""
    with _lock:
        _kept.pop(os.path.abspath(path), None)


def summarize_with(summarize: Callable[[ast.Module, str, str], object]) -> None:
    """What :func:`keep` also leaves of each module that declares its digest: ``summarize(tree,
    path, text)``."""
    _summarize[:] = [summarize]


def _summary_of(path: str, text: str, tree: ast.Module) -> object | None:
    try:
        return _summarize[0](tree, path, text)
    except Exception:  # the rewrite goes on without it; the reader parses the module itself
        if reparse_guard.debug():
            raise
        return None


def summary(path: str, digest: int) -> object | None:
    """The summary of ``path`` if the rewrite parsed the text of that source digest (None: parse
    it and see)."""
    with _lock:
        entry = _forms.get(os.path.abspath(path))
    return entry[3] if entry is not None and entry[1] == digest else None
