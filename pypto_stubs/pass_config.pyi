"""Stubs for ``pypto.pass_config`` (PyPTO 0.2.0): declared in ``pypto`` and re-exported."""

from pypto import (
    PassConfigKey as PassConfigKey,
    PassConfigs as PassConfigs,
    get_pass_config as get_pass_config,
    get_pass_configs as get_pass_configs,
    get_pass_default_config as get_pass_default_config,
    set_pass_config as set_pass_config,
    set_pass_default_config as set_pass_default_config,
)

__all__ = [
    "PassConfigs",
    "PassConfigKey",
    "get_pass_default_config",
    "set_pass_default_config",
    "get_pass_config",
    "set_pass_config",
    "get_pass_configs",
]
