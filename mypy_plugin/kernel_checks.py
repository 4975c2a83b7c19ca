"""The registry of whole-kernel checks: each runs once per decorated definition, where mypy
applies the decorator (before it checks the body), for the decorators it applies to.

A check here sees the whole definition (:class:`Decorator`) and reports through the API. Checks
of one op call are in ``knowledge/checks.py``, of one output write in ``knowledge/out_checks.py``,
of one host call in ``knowledge/boundary_checks.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import Context, Decorator
from mypy.plugin import CheckerPluginInterface

from .kernel_scope import check_scope
from .kernel_signature import check_signature
from .kernels import DECORATORS, KERNEL_DECORATORS, decorated_with
from .use_after_move import check_moves

KernelCheck = Callable[[CheckerPluginInterface, Decorator], None]

KERNEL_CHECKS: Final[tuple[tuple[frozenset[str], KernelCheck], ...]] = (
    (DECORATORS, check_moves),  # jit kernels and @pypto.frontend.function helpers
    (KERNEL_DECORATORS, check_signature),
    (KERNEL_DECORATORS, check_scope),
)


def check_kernel(api: CheckerPluginInterface, context: Context) -> None:
    """Every whole-definition check that applies to this decorated function."""
    if not isinstance(context, Decorator):
        return
    for applies_to, check in KERNEL_CHECKS:
        if decorated_with(context, applies_to):
            check(api, context)
