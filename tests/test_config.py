"""Plugin options are read from pyproject.toml / ini files, and bad keys fail clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from mypy_plugin.config import ConfigError, PluginConfig, load


def test_defaults_without_config() -> None:
    assert load(None) == PluginConfig()


def test_pyproject_section(tmp_path: Path) -> None:
    f = tmp_path / "pyproject.toml"
    f.write_text('[tool.pypto-stubs]\nreduce_align_fallback = "dim"\npypto_version = "0.3"\n')
    cfg = load(str(f))
    assert cfg.reduce_align_fallback == "dim"
    assert not cfg.has_reduce_align_rule


def test_ini_section(tmp_path: Path) -> None:
    f = tmp_path / "mypy.ini"
    f.write_text("[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\npypto_version = 0.2\n")
    cfg = load(str(f))
    assert cfg.has_reduce_align_rule
    assert cfg.to_json() == {"pypto_version": "0.2", "reduce_align_fallback": "tile", "rebind_tensors": "true"}


def test_unknown_key_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "mypy.ini"
    f.write_text("[pypto-stubs]\nreduce_align = dim\n")
    with pytest.raises(ConfigError, match=r"unknown option\(s\) reduce_align in \[pypto-stubs\]"):
        load(str(f))


def test_bad_fallback_value(tmp_path: Path) -> None:
    f = tmp_path / "pyproject.toml"
    f.write_text('[tool.pypto-stubs]\nreduce_align_fallback = "always"\n')
    with pytest.raises(ConfigError, match="must be one of tile, dim"):
        load(str(f))
