"""Stubs for ``pypto.frontend`` (PyPTO 0.2.0): the JIT decorators."""

import builtins
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, overload

from pypto import SymbolicScalar

from . import parser as parser

_F = TypeVar("_F", bound=Callable[..., Any])

class _JitKernel(builtins.function):  # type: ignore[misc]  # `function` is final in typeshed
    # Stub-only: the function type of a ``@jit`` kernel after the decorator (the mypy plugin
    # marks kernels with it, so their calls are known as kernel calls, also from mypy's cache).
    # It has function's members; subclassing the final class is deliberate and stub-only.
    ...

class _JitKernelChecked(_JitKernel):  # type: ignore[misc]
    # Stub-only: a ``@jit(debug_options={"runtime_debug_mode": 3})`` kernel, whose calls 0.2.0
    # checks against the annotations (the plugin's mark, kept in mypy's cache like _JitKernel's).
    ...

class _JitDecorator(Protocol):
    # Stub-only: what ``jit(...)`` / ``function()`` return when called without the function.
    def __call__(self, func: _F, /) -> _F: ...

# At runtime ``jit`` returns a JitCallableWrapper (and ``function`` a NestedFunctionMarker);
# the stubs keep the decorated function's own type so that kernel bodies and call sites
# stay checkable.
@overload
def jit(
    func: _F,
    *,
    host_options: dict[str, Any] | None = None,
    codegen_options: dict[str, Any] | None = None,
    pass_options: dict[str, Any] | None = None,
    runtime_options: dict[str, Any] | None = None,
    verify_options: dict[str, Any] | None = None,
    debug_options: dict[str, Any] | None = None,
    infer_controlflow_shape: Any | None = None,
    use_cache: bool = True,
) -> _F: ...
@overload
def jit(
    func: None = None,
    *,
    host_options: dict[str, Any] | None = None,
    codegen_options: dict[str, Any] | None = None,
    pass_options: dict[str, Any] | None = None,
    runtime_options: dict[str, Any] | None = None,
    verify_options: dict[str, Any] | None = None,
    debug_options: dict[str, Any] | None = None,
    infer_controlflow_shape: Any | None = None,
    use_cache: bool = True,
) -> _JitDecorator: ...
@overload
def function(func: _F) -> _F: ...
@overload
def function(func: None = None) -> _JitDecorator: ...
def dynamic(name: str) -> SymbolicScalar: ...
