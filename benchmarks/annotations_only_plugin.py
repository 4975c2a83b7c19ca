"""Benchmark-only mypy plugin: pypto-stubs reading annotations (the source rewrite and the
``pypto.Tensor[...]`` type hook) with no op hooks, checks or flows. ``run.py`` measures it
between "stubs" and "plugin" to split the plugin's cold cost into: annotations (the rewrite,
and mypy then checking every body with precise tensor types) and the op hooks."""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import AttributeContext, FunctionContext, MethodContext, Plugin
from mypy.types import Type

from mypy_plugin.main import PyptoPlugin


class AnnotationsOnly(PyptoPlugin):
    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        return None


def plugin(version: str) -> type[Plugin]:
    return AnnotationsOnly
