"""Stubs for ``pypto._op_wrapper`` (PyPTO 0.2.0): the decorator that hands a function the native
objects behind its tensor arguments and wraps what it returns (PyPTO's own models import it
through ``pypto.operation``)."""

from collections.abc import Callable
from typing import Any

# The wrapped function receives ``pypto_impl`` objects and may return anything: Any both ways.
def op_wrapper(func: Callable[..., Any]) -> Callable[..., Any]: ...
