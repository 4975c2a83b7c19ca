"""Puts the guard in front of every 0.2.0 kernel call: wraps ``JitCallableWrapper.__call__``.

Without importing pypto: if ``pypto.frontend.parser.entry`` is not loaded yet, an import hook
wraps it the moment it is (a kernel cannot be called before that). Disabling restores the
original method, so when the guard is off nothing of PyPTO is changed.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

ENTRY: str = "pypto.frontend.parser.entry"
_ORIGINAL = "__pypto_guard_original__"

# What runs before each call (installed by enable()): raises to stop the call.
Checker = Callable[[Any, tuple[Any, ...], dict[str, Any]], None]


def patch(module: ModuleType, checker: Checker) -> bool:
    cls = getattr(module, "JitCallableWrapper", None)
    call = getattr(cls, "__call__", None)
    if cls is None or call is None or hasattr(call, _ORIGINAL):
        return False

    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # pytest shows the caller's line, not the guard's frames
        checker(self, args, kwargs)
        return call(self, *args, **kwargs)

    setattr(__call__, _ORIGINAL, call)
    __call__.__doc__ = call.__doc__
    cls.__call__ = __call__
    return True


def unpatch(module: ModuleType) -> None:
    cls = getattr(module, "JitCallableWrapper", None)
    call = getattr(cls, "__call__", None)
    original = getattr(call, _ORIGINAL, None)
    if cls is not None and original is not None:
        cls.__call__ = original


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, inner: importlib.abc.Loader, checker: Checker) -> None:
        self._inner = inner
        self._checker = checker

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._inner.exec_module(module)
        patch(module, self._checker)


class PatchOnImport(importlib.abc.MetaPathFinder):
    """Finds ``pypto.frontend.parser.entry`` through the normal finders and patches it once loaded."""

    def __init__(self, checker: Checker) -> None:
        self._checker = checker

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != ENTRY:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _PatchingLoader(spec.loader, self._checker)
        return spec


def install(checker: Checker) -> PatchOnImport | None:
    """Patches now if PyPTO's entry module is loaded, else returns the import hook it added."""
    module = sys.modules.get(ENTRY)
    if module is not None:
        patch(module, checker)
        return None
    hook = PatchOnImport(checker)
    sys.meta_path.insert(0, hook)
    return hook


def uninstall(hook: PatchOnImport | None) -> None:
    if hook is not None and hook in sys.meta_path:
        sys.meta_path.remove(hook)
    module = sys.modules.get(ENTRY)
    if module is not None:
        unpatch(module)
