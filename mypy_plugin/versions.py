"""Which versions this release supports: mypy (the plugin uses its internals) and the PyPTO it targets."""

from __future__ import annotations

import re
from typing import Final

# Keep in step with pyproject.toml's "mypy>=2.4.1,<2.5" (tests/project/test_packaging.py checks both).
MYPY_MIN: Final = (2, 4, 1)
MYPY_BELOW: Final = (2, 5)
MYPY_RANGE: Final = ">=2.4.1,<2.5"
# The PyPTO release the stubs describe and the checks were verified against.
TARGET_PYPTO: Final = "0.2.0"


def release_label(pypto_version: str) -> str:
    """The targeted PyPTO as messages name it: the configured ``pypto_version``, where "0.2" is
    the release the checks were verified against (0.2.0)."""
    return TARGET_PYPTO if TARGET_PYPTO.startswith(f"{pypto_version}.") else pypto_version


def parse(version: str) -> tuple[int, ...]:
    """"2.4.1+dev.abc" -> (2, 4, 1)."""
    m = re.match(r"\d+(\.\d+)*", version.strip())
    return tuple(int(part) for part in m.group(0).split(".")) if m else ()


def mypy_supported(version: str) -> bool:
    v = parse(version)
    return bool(v) and MYPY_MIN <= v and v[:2] < MYPY_BELOW


def unsupported_mypy_message(version: str) -> str:
    return (
        f"pypto-stubs supports mypy {MYPY_RANGE}, but this is mypy {version}; "
        f"install a supported one (pip install \"mypy{MYPY_RANGE}\") and run that mypy "
        "(in VS Code: \"mypy-type-checker.importStrategy\": \"fromEnvironment\")"
    )


def pypto_stubs_version() -> str:
    from importlib import metadata  # (here: mypy imports this module on every run, and only --version asks)

    try:
        return metadata.version("pypto-stubs")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"
