"""Copies of kernel bodies that mypy checks again with a call's tensors: which kernel each is."""

from __future__ import annotations

from mypy.nodes import FuncDef

# id(copy) -> (copy, the kernel it was made from); a copy lives only while it is being checked.
_ORIGINS: dict[int, tuple[FuncDef, FuncDef]] = {}
# The error watchers that collect a copy's findings: an operator hook that reports past mypy's
# own watchers (diagnostics.report(unwatched=True)) must still report into these.
WATCHERS: list[object] = []


def register(copy: FuncDef, kernel: FuncDef) -> None:
    _ORIGINS[id(copy)] = (copy, kernel)


def forget(copy: FuncDef) -> None:
    _ORIGINS.pop(id(copy), None)


def origin(func: FuncDef) -> FuncDef:
    """The kernel ``func`` is a copy of, or ``func`` itself."""
    entry = _ORIGINS.get(id(func))
    return entry[1] if entry is not None and entry[0] is func else func
