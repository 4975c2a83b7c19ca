"""The mypy config file mypy itself would pick, and whether it enables the plugin."""

from __future__ import annotations

import configparser
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PLUGIN = "mypy_plugin"
_CONFIG_NAMES = ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg")


def _enables_plugin(path: Path) -> bool | None:
    """True/False if ``path`` is a mypy config (with/without our plugin); None if it is not one."""
    try:
        if path.suffix == ".toml":
            with path.open("rb") as f:
                section = tomllib.load(f).get("tool", {}).get("mypy")
            if not isinstance(section, dict):
                return None
            plugins = section.get("plugins", [])
            names = [plugins] if isinstance(plugins, str) else list(plugins)
        else:
            # As mypy reads it: no interpolation ("50%" is a value, not an error).
            parser = configparser.RawConfigParser()
            parser.read(path)
            if not parser.has_section("mypy"):
                return None
            names = parser.get("mypy", "plugins", fallback="").replace("\n", ",").split(",")
    except (OSError, ValueError, configparser.Error):
        return None
    return any(str(n).strip() == PLUGIN for n in names)


def find_config(start: Path) -> tuple[Path | None, bool]:
    """The config mypy itself would pick in ``start`` or above, and whether it enables the plugin."""
    for folder in [start, *start.parents]:
        for name in _CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file():
                enabled = _enables_plugin(candidate)
                if enabled is not None:
                    return candidate, enabled
    return None, False
