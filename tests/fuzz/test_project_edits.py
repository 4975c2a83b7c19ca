"""A small share of the project edit fuzz (tests/fuzz/project_edits.py) in CI: after random edits
of kernels and of shared constants, cold, warm and daemon runs give the same findings and never
crash. ``scripts/fuzz_projects.py`` runs the same on thousands of modules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .project_edits import fuzz_project

# A long run (random edits, each checked cold, warm and by the daemon): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow


@pytest.mark.skipif(shutil.which("dmypy") is None, reason="dmypy not on PATH")
def test_cold_warm_and_daemon_agree_after_random_edits(tmp_path: Path) -> None:
    result = fuzz_project(tmp_path, modules=6, rounds=3, edits_per_round=3, seed=12)
    assert not result.crashes, result.crashes[0]
    assert not result.mismatches, result.mismatches[0]
    assert result.changed_rounds >= 1, "no edit changed the findings: the run proves nothing"
