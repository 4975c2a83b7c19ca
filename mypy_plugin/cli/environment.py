"""Before running mypy: is this mypy supported, and can mypy see the stubs? One clear message if not."""

from __future__ import annotations

import json
import site
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

from mypy.version import __version__ as mypy_version

from ..versions import mypy_supported, unsupported_mypy_message

STUBS = "pypto-stubs"


def _site_packages() -> list[Path]:
    # Where mypy looks for PEP 561 stub packages of the running interpreter.
    dirs = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    try:
        dirs += site.getsitepackages()
    except AttributeError:  # pragma: no cover (old virtualenv's site module)
        pass
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return [Path(d) for d in dict.fromkeys(dirs)]


def stubs_visible() -> bool:
    return any((d / STUBS / "__init__.pyi").is_file() for d in _site_packages())


def editable_source() -> str | None:
    """The folder of an editable install of the stubs (PEP 610 direct_url.json), else None."""
    try:
        dist = metadata.distribution(STUBS)
    except metadata.PackageNotFoundError:
        return None
    raw = dist.read_text("direct_url.json")
    try:
        info = json.loads(raw) if raw else None
    except ValueError:
        return None
    if not isinstance(info, dict) or not isinstance(info.get("dir_info"), dict):
        return None
    if not info["dir_info"].get("editable"):
        return None
    url = str(info.get("url", ""))
    return url.removeprefix("file://") or "."


def problem(mypy_args: list[str]) -> str | None:
    """Why this run cannot work, in one message; None when it can."""
    if not mypy_supported(mypy_version):
        return unsupported_mypy_message(mypy_version)
    if any(a.startswith("--python-executable") or a == "--no-site-packages" for a in mypy_args):
        return None  # mypy looks elsewhere: its own import errors will tell
    if stubs_visible():
        return None
    source = editable_source()
    if source is not None:
        return (
            f"{STUBS} is installed in editable mode (pip install -e): mypy does not follow editable "
            f"installs to find stub packages, so it cannot see the stubs for pypto. "
            f"Reinstall it without -e: pip install {source}"
        )
    return (
        f"the stubs package {STUBS} is not installed in this Python ({sys.prefix}), so mypy cannot "
        f"see the stubs for pypto; install it with pip install (not -e) into the environment "
        "that runs pypto-check"
    )
