"""Which files mypy parsed, and when: a number that changes with every parse (both parsers, every
thread), and the number of each file's last parse. What the plugin derives from mypy's trees and
symbol tables can be kept until a parse may change them: a daemon update re-parses the files it
changed before it analyzes anything (:mod:`calls.copy_memo`, the call hooks of :mod:`main`)."""

from __future__ import annotations

import itertools
import os
from typing import Final

_NUMBERS: Final = itertools.count(1)
_last = 0
_unattributed = 0  # the last parse of a text with no file name (the Python-ast parser's route)
_files: dict[str, int] = {}
_absolute: dict[str, str] = {}  # a path as mypy spells it -> the absolute path


def _key(path: str) -> str:
    found = _absolute.get(path)
    if found is None:
        if len(_absolute) > 65536:
            _absolute.clear()
        found = _absolute[path] = os.path.abspath(path)
    return found


def parsed(path: str | None) -> None:
    """Called for each file mypy parses. Each call stores a number no other call stores (``next``
    on a count is atomic), so a parse after a read always changes what :func:`last` returns."""
    global _last, _unattributed
    number = next(_NUMBERS)
    if path is None:
        _unattributed = number
    else:
        _files[_key(path)] = number
    _last = number


def last() -> int:
    return _last


def stamp(path: str) -> int:
    """When ``path`` was last parsed (0: never)."""
    return _files.get(_key(path), 0)


def unattributed() -> int:
    """When a text with no file name was last parsed (0: never)."""
    return _unattributed
