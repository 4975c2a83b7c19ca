"""Registers the pypto-* error codes in a dmypy process before the daemon reads its options.

The daemon compares option snapshots (mypy's ``Options.apply_changes``) before it loads any
plugin, and a ``pypto-*`` code in ``enable_error_code`` / ``disable_error_code`` is then an
unknown code: ``KeyError``, "Daemon crashed!". The package's ``pypto_stubs_dmypy.pth`` imports
this module at interpreter start-up only when the program is dmypy (``sys.argv`` tells, with
nothing imported; every other program imports nothing). Creating an ErrorCode registers it, so
importing :mod:`errorcodes` here is enough, and the daemon inherits the codes whether dmypy forks
it (``dmypy start`` / ``run``) or runs it in the foreground (``dmypy daemon``).
"""

from __future__ import annotations


def _register() -> None:
    try:
        import mypy_plugin.errorcodes  # noqa: F401
    except Exception:  # a broken install must not break dmypy further
        pass


_register()
