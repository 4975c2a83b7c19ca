"""The debug switch: ``PYPTO_STUBS_DEBUG=1`` re-raises what the hooks would otherwise swallow."""

from __future__ import annotations

import os
from typing import Final

ENV: Final = "PYPTO_STUBS_DEBUG"


def enabled() -> bool:
    # Read on each use (only on a failure path): a test or a daemon can switch it per process.
    return os.environ.get(ENV, "").strip().lower() not in ("", "0", "false", "no", "off")


def degrade(err: BaseException) -> None:
    """Called where an internal failure degrades to "unknown": in debug mode it raises instead,
    so a swallowed bug cannot hide behind a silent answer."""
    if enabled():
        raise err
