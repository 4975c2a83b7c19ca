"""Plugin options: ``[tool.pypto-stubs]`` in pyproject.toml, or ``[pypto-stubs]`` in an ini file."""

from __future__ import annotations

import configparser
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SECTION: Final = "pypto-stubs"
_FALLBACKS: Final = ("tile", "dim")


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class PluginConfig:
    # Which PyPTO the kernels are compiled with: "0.2" has the reduction 32-byte rule, later ones not.
    pypto_version: str = "0.2"
    # What pypto-reduce-align checks when the vec tile is unknown: "tile" = stay silent,
    # "dim" = the folklore rule (tensor dim * bytes % 32), for teams that always tile the full dim.
    reduce_align_fallback: str = "tile"
    # Kernels rebind names to tensors of other shapes (t = reshape(t, ...)); mypy's
    # allow_redefinition (set in modules with tensor annotations only, see module_options) lets
    # each assignment have its own type. "false" keeps mypy's default.
    rebind_tensors: str = "true"

    @property
    def allows_rebinding(self) -> bool:
        return self.rebind_tensors.lower() in ("true", "1", "yes", "on")

    @property
    def has_reduce_align_rule(self) -> bool:
        return self.pypto_version.split(".")[:2] in (["0", "2"], ["0", "1"])

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_mapping(cls, raw: dict[str, Any]) -> PluginConfig:
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise ConfigError(
                f"unknown option(s) {', '.join(unknown)} in [{SECTION}]; "
                f"known: {', '.join(sorted(known))}"
            )
        values = {k: str(v) for k, v in raw.items()}
        fallback = values.get("reduce_align_fallback", "tile")
        if fallback not in _FALLBACKS:
            raise ConfigError(
                f'reduce_align_fallback must be one of {", ".join(_FALLBACKS)}, not "{fallback}"'
            )
        return cls(**values)


def load(config_file: str | None) -> PluginConfig:
    """Read the section from mypy's config file (None: defaults)."""
    if not config_file:
        return PluginConfig()
    path = Path(config_file)
    if not path.is_file():
        return PluginConfig()
    if path.suffix == ".toml":
        with path.open("rb") as f:
            data = tomllib.load(f)
        section = data.get("tool", {}).get(SECTION, {})
        if not isinstance(section, dict):
            raise ConfigError(f"[tool.{SECTION}] must be a table")
        return PluginConfig.from_mapping(section)
    parser = configparser.ConfigParser()
    parser.read(path)
    if not parser.has_section(SECTION):
        return PluginConfig()
    return PluginConfig.from_mapping(dict(parser.items(SECTION)))
