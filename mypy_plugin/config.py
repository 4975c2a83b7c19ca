"""Plugin options: ``[tool.pypto-stubs]`` in pyproject.toml, or ``[pypto-stubs]`` in an ini file."""

from __future__ import annotations

import configparser
import re
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Final

from .versions import release_label

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SECTION: Final = "pypto-stubs"
_FALLBACKS: Final = ("tile", "dim")
# configparser's spellings (mypy's ini booleans read the same way).
_TRUE: Final = ("1", "yes", "true", "on")
_FALSE: Final = ("0", "no", "false", "off")
_VERSION: Final = re.compile(r"\d+\.\d+(\.\d+)?")
# A section name no ini file uses: [DEFAULT] stays an ordinary section instead of
# leaking its keys into [pypto-stubs] as unknown options.
_NO_DEFAULT_SECTION: Final = "\x00pypto-stubs: no default section"


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
    # each assignment have its own type. False keeps mypy's default.
    rebind_tensors: bool = True
    # Check host calls of kernels: pypto-call-* at the call, and the kernel again with the call's
    # tensors (docs/host-calls.md). False: kernels alone.
    host_calls: bool = True

    @property
    def allows_rebinding(self) -> bool:
        return self.rebind_tensors

    @property
    def has_reduce_align_rule(self) -> bool:
        return self._probed_release

    @property
    def has_dynamic_dim_rules(self) -> bool:
        """pypto-dynamic-dim and pypto-not-concrete: probed on 0.2.0 only; PyPTO's own later code
        calls min() on dynamic dims and multiplies DYNAMIC-shaped matrices."""
        return self._probed_release

    @property
    def has_jit_keyword_rule(self) -> bool:
        """pypto-jit-keyword: the keywords of 0.2.0's jit; later releases take others (new_ir)."""
        return self._probed_release

    @property
    def release(self) -> str:
        """The targeted PyPTO as messages and ``pypto-check --version`` name it ("0.2" is 0.2.0)."""
        return release_label(self.pypto_version)

    @property
    def _probed_release(self) -> bool:
        return self.pypto_version.split(".")[:2] in (["0", "2"], ["0", "1"])

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_mapping(cls, raw: dict[str, Any]) -> PluginConfig:
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise ConfigError(
                f"unknown option(s) {', '.join(unknown)} in [{SECTION}]; known: {', '.join(sorted(known))}"
            )
        values: dict[str, Any] = {}
        if "pypto_version" in raw:
            values["pypto_version"] = _version(raw["pypto_version"])
        if "reduce_align_fallback" in raw:
            values["reduce_align_fallback"] = _choice("reduce_align_fallback", raw["reduce_align_fallback"], _FALLBACKS)
        for key in ("rebind_tensors", "host_calls"):
            if key in raw:
                values[key] = _boolean(key, raw[key])
        return cls(**values)


def _shown(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _version(value: object) -> str:
    if isinstance(value, str) and _VERSION.fullmatch(value.strip()):
        return value.strip()
    hint = " (quote it in TOML: a number loses trailing zeros)" if isinstance(value, float) else ""
    raise ConfigError(
        f'[{SECTION}] pypto_version must be a PyPTO release like "0.2" or "0.3.1", not {_shown(value)}{hint}'
    )


def _choice(key: str, value: object, allowed: tuple[str, ...]) -> str:
    if isinstance(value, str) and value.strip() in allowed:
        return value.strip()
    raise ConfigError(f"[{SECTION}] {key} must be one of {', '.join(allowed)}, not {_shown(value)}")


def _boolean(key: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise ConfigError(
        f"[{SECTION}] {key} must be a boolean (true or false; in an ini file also yes/no, on/off, 1/0), "
        f"not {_shown(value)}"
    )


def load(config_file: str | None) -> PluginConfig:
    """Read the section from mypy's config file (None: defaults)."""
    if not config_file:
        return PluginConfig()
    path = Path(config_file)
    if not path.is_file():
        return PluginConfig()
    if path.suffix == ".toml":
        try:
            with path.open("rb") as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise ConfigError(f"cannot read {path.name}: {err}") from None
        tool = data.get("tool", {})
        section = tool.get(SECTION, {}) if isinstance(tool, dict) else {}
        if not isinstance(section, dict):
            raise ConfigError(f"[tool.{SECTION}] must be a table")
        return PluginConfig.from_mapping(section)
    # No interpolation: "50%" is a value, as in mypy's own reading of the file.
    parser = configparser.RawConfigParser(default_section=_NO_DEFAULT_SECTION)
    try:
        parser.read(path, encoding="utf-8")
    except (OSError, UnicodeDecodeError, configparser.Error) as err:
        raise ConfigError(f"cannot read {path.name}: {err}") from None
    if not parser.has_section(SECTION):
        return PluginConfig()
    return PluginConfig.from_mapping(dict(parser.items(SECTION)))


# The options of this mypy run: the plugin loads them once (``activate``); the code that reads
# them outside a hook that has the plugin at hand (messages naming the release, call-site
# checks) asks ``active()``. One holder, set in one place.
_ACTIVE: list[PluginConfig] = []


def activate(config: PluginConfig) -> None:
    _ACTIVE[:] = [config]


def active() -> PluginConfig:
    return _ACTIVE[0] if _ACTIVE else PluginConfig()
