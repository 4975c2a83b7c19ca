"""Runtime boundary guard: checks every ``@pypto.frontend.jit`` kernel call against the kernel's
annotations before PyPTO 0.2.0 sees the tensors (which it mostly does not check itself).

Off until enabled: ``enable()`` / ``disable()``, ``with active(): ...``, ``@guarded`` on a
function, ``check_call(kernel, *args)``, or ``pytest --pypto-guard`` (``pypto_guard = true``).
Imports neither torch nor pypto (nor jaxtyping) until a kernel is called.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from .install import PatchOnImport, install, uninstall

__all__ = ["BoundaryError", "active", "check_call", "disable", "enable", "guarded", "is_enabled"]

_F = TypeVar("_F", bound=Callable[..., Any])
_lock = threading.Lock()
_depth = 0  # nested enable() calls (pytest plugin, decorators, context managers)
_hook: PatchOnImport | None = None


def __getattr__(name: str) -> Any:
    if name == "BoundaryError":  # lazily: check.py is only needed once a kernel is called
        from .check import BoundaryError

        return BoundaryError
    raise AttributeError(name)


def _check(kernel: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    __tracebackhide__ = True
    from .check import BoundaryError, findings_for_call
    from .kernel_spec import kernel_spec

    findings = findings_for_call(kernel, args, kwargs)
    if findings:
        spec = kernel_spec(kernel)
        raise BoundaryError(spec.name if spec else "?", findings)


def check_call(kernel: Any, *args: Any, **kwargs: Any) -> None:
    """Raises BoundaryError if ``kernel(*args, **kwargs)`` breaks the kernel's annotations;
    does not run the kernel."""
    __tracebackhide__ = True
    _check(kernel, args, kwargs)


def enable() -> None:
    global _depth, _hook
    with _lock:
        if _depth == 0:
            _hook = install(_check)
        _depth += 1


def disable() -> None:
    global _depth, _hook
    with _lock:
        if _depth == 0:
            return
        _depth -= 1
        if _depth == 0:
            uninstall(_hook)
            _hook = None


def is_enabled() -> bool:
    return _depth > 0


@contextlib.contextmanager
def active() -> Iterator[None]:
    enable()
    try:
        yield
    finally:
        disable()


def guarded(fn: _F) -> _F:
    """Decorator: the guard is on while ``fn`` runs (for scripts and single tests)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with active():
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
