"""Internal: the JIT entry points (PyPTO 0.2.0). ``jit``, ``function`` and ``RunMode`` are declared
in :mod:`pypto.frontend` / :mod:`pypto` and re-exported; the wrapper class is typed loosely."""

from enum import IntEnum
from typing import Any

from pypto import RunMode as RunMode
from pypto.frontend import function as function
from pypto.frontend import jit as jit

from .diagnostics import Source as Source
from .parser import NestedFunctionMarker as NestedFunctionMarker
from .parser import Parser as Parser

class DebugMode(IntEnum):
    OFF = 0
    SWIM = 1
    TENSOR_NODEPEND = 2
    CHECKATTR = 3

def parse(program: Source, extra_vars: dict[str, Any] | None = None) -> Any: ...

class JitCallableWrapper:
    """What ``@pypto.frontend.jit`` returns at runtime (the stubs keep the kernel's own signature)."""
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
