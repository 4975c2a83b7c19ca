"""Benchmark-only mypy plugin: pypto-stubs reading annotations (the source rewrite and the
``pypto.Tensor[...]`` type hook) with no op hooks, checks or flows. ``run.py`` measures it
between "stubs" and "plugin" to split the plugin's cold cost into: annotations (the rewrite,
and mypy then checking every body with precise tensor types) and the op hooks."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Decorator
from mypy.plugin import AttributeContext, FunctionContext, MethodContext, Plugin
from mypy.types import Type

from mypy_plugin.kernel import decorators as kernels
from mypy_plugin.hooks.kernel_calls import relaxed
from mypy_plugin.knowledge import frontend
from mypy_plugin.main import PyptoPlugin


def _relax_only(ctx: FunctionContext | MethodContext) -> Type:
    # Host code passes torch tensors to kernels: without this, every host call is an arg-type
    # error and the run measures error reporting. No kernel checks, no call-site pass.
    jit = isinstance(ctx.context, Decorator) and kernels.decorated_with(ctx.context, frontend.KERNEL_DECORATORS)
    return relaxed(ctx.default_return_type, ctx.api, jit)


class AnnotationsOnly(PyptoPlugin):
    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return _relax_only if fullname in frontend.DECORATORS else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return _relax_only if fullname == frontend.JIT_DECORATOR_CALL else None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        return None


def plugin(version: str) -> type[Plugin]:
    return AnnotationsOnly
