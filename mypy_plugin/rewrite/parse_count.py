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


def parsed(path: str | None) -> None:
    """Called for each file mypy parses. Each call stores a number no other call stores (``next``
    on a count is atomic), so a parse after a read always changes what :func:`last` returns."""
    global _last, _unattributed
    number = next(_NUMBERS)
    if path is None:
        _unattributed = number
    else:
        _files[os.path.abspath(path)] = number
    _last = number


def last() -> int:
    return _last


def stamp(path: str) -> tuple[int, int]:
    """When ``path`` was last parsed, and when a file with no name was (0: never)."""
    return _files.get(os.path.abspath(path), 0), _unattributed
