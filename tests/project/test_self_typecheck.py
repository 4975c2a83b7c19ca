"""The plugin type-checks itself with mypy --strict."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

# A long run (mypy --strict over the whole plugin: a minute): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_plugin_is_strict_clean() -> None:
    stdout, stderr, status = api.run(["--strict", "--no-incremental", str(ROOT / "mypy_plugin")])
    assert status == 0, stdout + stderr
