"""Why a kernel call's tensors are unknown, in words (for ``pypto-check --coverage``): the
arguments the host code does not prove, and where they come from when the source says it (a
parameter of the test function, a ``pytest.mark.parametrize`` whose values are not written out)."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Final

from .pytest_cases import _mark
from .values import UNKNOWN, HostTensor, Value

_SHOWN: Final = 2  # unknown arguments named per call
_TEXT: Final = 40  # characters of an argument's text


def cause(args: Sequence[ast.expr | None], values: Sequence[Value], *, spread: bool, silenced: bool,
          func: ast.FunctionDef | ast.AsyncFunctionDef | None) -> str:
    """"" when every argument is known."""
    if silenced:
        return "the call runs only under a condition the checker cannot compute"
    if spread:
        return "*args or **kwargs the checker cannot expand"
    parts = []
    for node, value in zip(args, values):
        if node is None:  # an item of a ``*xs`` the walk expanded
            if value is UNKNOWN or isinstance(value, HostTensor) and (value.shape is None or value.dtype is None):
                parts.append("an item of a *-argument is not known")
            continue
        if value is UNKNOWN:
            parts.append(f"{_shown(node)} is not known")
        elif isinstance(value, HostTensor) and value.shape is None:
            parts.append(f"{_shown(node)} has an unknown shape")
        elif isinstance(value, HostTensor) and value.dtype is None:
            parts.append(f"{_shown(node)} has an unknown dtype")
    parts = list(dict.fromkeys(parts))  # one argument passed twice is named once
    if not parts:
        return ""
    more = f" and {len(parts) - _SHOWN} more" if len(parts) > _SHOWN else ""
    return ", ".join(parts[:_SHOWN]) + more + _origin(func)


def _shown(node: ast.expr) -> str:
    """An argument as written, quoted and cut (made only for an argument that is named: a known
    one needs none, and ``ast.unparse`` is slow)."""
    text = ast.unparse(node)
    return f'"{text if len(text) <= _TEXT else text[:_TEXT - 3] + "..."}"'


def _origin(func: ast.FunctionDef | ast.AsyncFunctionDef | None) -> str:
    """What the function walked on its own leaves unknown: its parameters."""
    if func is None:
        return ""
    a = func.args
    if not [*a.posonlyargs, *a.args, *a.kwonlyargs]:
        return ""
    if any(isinstance(d, ast.Call) and _mark(d, "parametrize") for d in func.decorator_list):
        return f" (in {func.name}, whose pytest.mark.parametrize values the checker cannot read)"
    return f" (in {func.name}, whose parameters are unknown: no call of it in this module proves them)"
