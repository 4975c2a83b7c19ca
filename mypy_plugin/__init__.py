"""mypy plugin for PyPTO kernels: ``plugins = mypy_plugin`` in your mypy config."""

from __future__ import annotations

from mypy.plugin import Plugin


def plugin(version: str) -> type[Plugin]:
    from .main import PyptoPlugin

    return PyptoPlugin
