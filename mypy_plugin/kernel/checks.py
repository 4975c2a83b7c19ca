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

from ..config import PluginConfig
from ..knowledge.frontend import DECORATORS, KERNEL_DECORATORS
from .annotation_names import check_annotation_names
from .decorators import decorated_with
from .dims import check_dims
from .scope import check_scope
from .signature import check_signature
from .statements import check_parameter_rebind, check_while
from .use_after_move import check_moves

KernelCheck = Callable[[CheckerPluginInterface, Decorator], None]
_ALWAYS: Final[Callable[[PluginConfig], bool]] = lambda config: True

# (the decorators a check applies to, the check, whether the targeted PyPTO has its rule)
KERNEL_CHECKS: Final[tuple[tuple[frozenset[str], KernelCheck, Callable[[PluginConfig], bool]], ...]] = (
    (DECORATORS, check_moves, _ALWAYS),  # jit kernels and @pypto.frontend.function helpers
    (KERNEL_DECORATORS, check_signature, _ALWAYS),
    (KERNEL_DECORATORS, check_scope, _ALWAYS),
    (KERNEL_DECORATORS, check_annotation_names, _ALWAYS),
    (KERNEL_DECORATORS, check_while, _ALWAYS),
    (KERNEL_DECORATORS, check_parameter_rebind, _ALWAYS),
    (KERNEL_DECORATORS, check_dims, lambda config: config.has_dynamic_dim_rules),
)


def check_kernel(api: CheckerPluginInterface, context: Context, config: PluginConfig) -> None:
    """Every whole-definition check that applies to this decorated function."""
    if not isinstance(context, Decorator):
        return
    for applies_to, check, applies in KERNEL_CHECKS:
        if applies(config) and decorated_with(context, applies_to):
            check(api, context)
