"""Partial stubs for ``pypto.frontend.parser`` (PyPTO 0.2.0), the JIT front end's AST parser.

An implementation package that kernels never touch (a few tests import its internals):
every name is ``Any``.
"""

from typing import Any

def __getattr__(name: str) -> Any: ...
