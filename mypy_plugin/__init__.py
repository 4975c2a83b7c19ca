"""mypy plugin for PyPTO kernels: ``plugins = mypy_plugin`` in your mypy config."""

from __future__ import annotations

# Not typing.TYPE_CHECKING: this package is imported at every interpreter start (see
# _dmypy_codes), and typing costs ~20 ms there; mypy reads any name TYPE_CHECKING this way.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy.plugin import Plugin


def plugin(version: str) -> type[Plugin]:
    from .main import PyptoPlugin

    return PyptoPlugin
