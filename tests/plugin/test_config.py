"""Plugin options are read from pyproject.toml / ini files, and every bad key or value fails clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from mypy_plugin.config import ConfigError, PluginConfig, load


def test_defaults_without_config() -> None:
    assert load(None) == PluginConfig()


def test_pyproject_section(tmp_path: Path) -> None:
    f = tmp_path / "pyproject.toml"
    f.write_text('[tool.pypto-stubs]\nreduce_align_fallback = "dim"\npypto_version = "0.3"\nrebind_tensors = false\n')
    cfg = load(str(f))
    assert cfg.reduce_align_fallback == "dim"
    assert not cfg.has_reduce_align_rule
    assert cfg.allows_rebinding is False


def test_ini_section(tmp_path: Path) -> None:
    f = tmp_path / "mypy.ini"
    f.write_text("[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\npypto_version = 0.2\n")
    cfg = load(str(f))
    assert cfg.has_reduce_align_rule
    assert cfg.to_json() == {"pypto_version": "0.2", "reduce_align_fallback": "tile", "rebind_tensors": True,
                             "host_calls": True}


def test_unknown_key_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "mypy.ini"
    f.write_text("[pypto-stubs]\nreduce_align = dim\n")
    with pytest.raises(ConfigError, match=r"unknown option\(s\) reduce_align in \[pypto-stubs\]"):
        load(str(f))


@pytest.mark.parametrize("toml_value, ini_value, expected", [
    ("true", "true", True), ("false", "false", False), ('"true"', "yes", True), ('"false"', "off", False),
    ('"0"', "0", False), ('"On"', "On", True),
])
def test_boolean_spellings(tmp_path: Path, toml_value: str, ini_value: str, expected: bool) -> None:
    toml = tmp_path / "pyproject.toml"
    toml.write_text(f"[tool.pypto-stubs]\nrebind_tensors = {toml_value}\n")
    ini = tmp_path / "mypy.ini"
    ini.write_text(f"[pypto-stubs]\nrebind_tensors = {ini_value}\n")
    assert load(str(toml)).rebind_tensors is expected
    assert load(str(ini)).rebind_tensors is expected
    toml.write_text(f"[tool.pypto-stubs]\nhost_calls = {toml_value}\n")
    ini.write_text(f"[pypto-stubs]\nhost_calls = {ini_value}\n")
    assert load(str(toml)).host_calls is expected
    assert load(str(ini)).host_calls is expected


_BOOL = "must be a boolean (true or false; in an ini file also yes/no, on/off, 1/0)"
_VERSION = 'must be a PyPTO release like "0.2" or "0.3.1"'


@pytest.mark.parametrize("line, message", [
    ('rebind_tensors = "flase"', f'[pypto-stubs] rebind_tensors {_BOOL}, not "flase"'),
    ("rebind_tensors = 1", f"[pypto-stubs] rebind_tensors {_BOOL}, not 1"),
    ('pypto_version = "banana"', f'[pypto-stubs] pypto_version {_VERSION}, not "banana"'),
    ('pypto_version = "50%"', f'[pypto-stubs] pypto_version {_VERSION}, not "50%"'),
    ("pypto_version = 0.3", f"[pypto-stubs] pypto_version {_VERSION}, not 0.3 (quote it in TOML: "
                            "a number loses trailing zeros)"),
    ('reduce_align_fallback = "always"', '[pypto-stubs] reduce_align_fallback must be one of tile, dim, not "always"'),
    ("reduce_align_fallback = true", "[pypto-stubs] reduce_align_fallback must be one of tile, dim, not True"),
])
def test_bad_toml_values(tmp_path: Path, line: str, message: str) -> None:
    f = tmp_path / "pyproject.toml"
    f.write_text(f"[tool.pypto-stubs]\n{line}\n")
    with pytest.raises(ConfigError) as exc:
        load(str(f))
    assert str(exc.value) == message


@pytest.mark.parametrize("line, message", [
    ("rebind_tensors = flase", f'[pypto-stubs] rebind_tensors {_BOOL}, not "flase"'),
    ("pypto_version = banana", f'[pypto-stubs] pypto_version {_VERSION}, not "banana"'),
    # A % used to crash configparser's interpolation (INTERNAL ERROR).
    ("pypto_version = 50%", f'[pypto-stubs] pypto_version {_VERSION}, not "50%"'),
    ("reduce_align_fallback = always", '[pypto-stubs] reduce_align_fallback must be one of tile, dim, not "always"'),
])
def test_bad_ini_values(tmp_path: Path, line: str, message: str) -> None:
    f = tmp_path / "mypy.ini"
    f.write_text(f"[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\n{line}\n")
    with pytest.raises(ConfigError) as exc:
        load(str(f))
    assert str(exc.value) == message


def test_percent_in_other_ini_values_is_not_interpolated(tmp_path: Path) -> None:
    f = tmp_path / "setup.cfg"
    f.write_text("[metadata]\ndescription = 100% typed\n\n[pypto-stubs]\npypto_version = 0.3\n")
    assert load(str(f)).pypto_version == "0.3"


def test_default_section_does_not_leak_into_ours(tmp_path: Path) -> None:
    f = tmp_path / "mypy.ini"
    f.write_text("[DEFAULT]\nbase = /src\n\n[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\nreduce_align_fallback = dim\n")
    cfg = load(str(f))
    assert cfg == PluginConfig(reduce_align_fallback="dim")


def test_unreadable_ini_is_a_config_error(tmp_path: Path) -> None:
    f = tmp_path / "mypy.ini"
    f.write_text("[pypto-stubs]\npypto_version = 0.2\npypto_version = 0.3\n")
    with pytest.raises(ConfigError, match="cannot read mypy.ini: .*pypto_version"):
        load(str(f))
