"""``pypto-check PATH... [mypy options]``: mypy with the PyPTO plugin, config or not.

Uses the project's mypy config when it already enables the plugin; otherwise runs with a
generated config that does (and nothing else), so it works in a project with no mypy setup.
"""

from __future__ import annotations

import configparser
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from mypy import api

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_CONFIG_NAMES = ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg")
_PLUGIN = "mypy_plugin"
# Kernels have no return annotation (PyPTO forbids one), so also check untyped helpers.
_GENERATED = f"[mypy]\nplugins = {_PLUGIN}\ncheck_untyped_defs = True\n"


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
            parser = configparser.ConfigParser()
            parser.read(path)
            if not parser.has_section("mypy"):
                return None
            names = parser.get("mypy", "plugins", fallback="").replace("\n", ",").split(",")
    except (OSError, ValueError, configparser.Error):
        return None
    return any(str(n).strip() == _PLUGIN for n in names)


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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print("usage: pypto-check PATH... [mypy options]\n\nType-check PyPTO kernels with the pypto-stubs mypy plugin.")
        return 0 if args else 2
    if "--config-file" in args:
        return _run(args)
    config, enabled = find_config(Path.cwd())
    if config is not None and enabled:
        return _run(["--config-file", str(config), *args])
    if config is not None:
        sys.stderr.write(
            f"pypto-check: {config} does not enable the plugin; checking with the plugin only. "
            f'Add plugins = ["{_PLUGIN}"] to it to combine both.\n'
        )
    with tempfile.TemporaryDirectory(prefix="pypto-check-") as tmp:
        generated = Path(tmp) / "mypy.ini"
        generated.write_text(_GENERATED, encoding="utf-8")
        return _run(["--config-file", str(generated), *args])


def _run(args: list[str]) -> int:
    stdout, stderr, status = api.run(["--show-error-codes", *args])
    sys.stdout.write(stdout)
    sys.stderr.write(stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
