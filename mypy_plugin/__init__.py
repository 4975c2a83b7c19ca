"""mypy plugin for PyPTO kernels: ``plugins = mypy_plugin`` in your mypy config."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy.plugin import Plugin


def plugin(version: str) -> type[Plugin]:
    from .versions import mypy_supported, unsupported_mypy_message

    if not mypy_supported(version):
        # The plugin uses mypy internals: on another mypy it would fail with a traceback
        # (e.g. an editor's bundled mypy). Stop like mypy's own config errors: one line, status 2.
        sys.stderr.write(f"error: {unsupported_mypy_message(version)}\n")
        raise SystemExit(2)
    from .main import PyptoPlugin

    return PyptoPlugin
