"""Packaging metadata says what is true: supported mypy and Pythons, license, targeted PyPTO."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mypy_plugin.versions import MYPY_BELOW, MYPY_MIN, MYPY_RANGE, TARGET_PYPTO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_mypy_range_matches_the_dependency() -> None:
    assert f"mypy{MYPY_RANGE}" in PROJECT["dependencies"]
    assert MYPY_RANGE == f">={'.'.join(map(str, MYPY_MIN))},<{'.'.join(map(str, MYPY_BELOW))}"


def test_python_classifiers_match_requires_python_and_ci() -> None:
    versions = [c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"] if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert PROJECT["requires-python"] == f">={versions[0]}"
    ci = (ROOT / ".ci" / "run").read_text()
    assert f"for version in {versions[0]} {versions[-1]}; do" in ci
    assert "Typing :: Stubs Only" in PROJECT["classifiers"]


def test_license_file() -> None:
    assert PROJECT["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def test_targeted_pypto_matches_the_stubs_metadata() -> None:
    meta = tomllib.loads((ROOT / "pypto_stubs" / "METADATA.toml").read_text())
    major_minor = ".".join(TARGET_PYPTO.split(".")[:2])
    assert meta["version"] == f"{major_minor}.*"
    assert f'"pypto=={TARGET_PYPTO}"' in (ROOT / "pyproject.toml").read_text()


def test_changelog_has_an_unreleased_section() -> None:
    assert "\n## Unreleased\n" in (ROOT / "CHANGELOG.md").read_text()
