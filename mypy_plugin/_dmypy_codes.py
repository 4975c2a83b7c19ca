"""Registers the pypto-* error codes in the dmypy daemon before it reads its options.

The daemon compares option snapshots (mypy's ``Options.apply_changes``) before it loads any
plugin, and a ``pypto-*`` code in ``enable_error_code`` / ``disable_error_code`` is then an
unknown code: ``KeyError``, "Daemon crashed!". The package's ``.pth`` file imports this module
at interpreter start-up; it imports nothing and only registers a fork callback. dmypy forks the
daemon from its client (``dmypy start`` / ``run``) after importing ``mypy.dmypy_server``: in
that child, and only there, :mod:`errorcodes` is imported (creating an ErrorCode registers it).
(An import hook cannot see ``mypy.dmypy_server``: compiled mypy initializes its own modules
directly.) ``dmypy daemon`` in the foreground does not fork and is not covered.
"""

from __future__ import annotations

import os
import sys

_SERVER = "mypy.dmypy_server"


def _register() -> None:
    try:
        import mypy_plugin.errorcodes  # noqa: F401
    except Exception:  # a broken install must not break dmypy further
        pass


def _after_fork_in_child() -> None:
    if _SERVER in sys.modules:
        _register()


_installed = False


def install() -> None:
    global _installed
    if not _installed and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_after_fork_in_child)
        _installed = True


install()
