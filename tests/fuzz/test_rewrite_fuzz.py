"""The CI share of the rewrite fuzz suite (``scripts/fuzz_rewrite.py`` runs tens of thousands).

Every valid generated module stays valid, every statement and name keeps its line (the raw
rewrite, before the guard that would hide a failure, and the guarded one), a second pass keeps
that too, and nothing raises.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from .rewrite_cases import FAILURES, Tally, check, module

from mypy_plugin.rewrite.reparse_guard import DEBUG_ENV

# A long run (800 random modules through the rewrite): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_rewrite_keeps_files_valid_and_lines_in_place(rng: random.Random) -> None:
    tally = Tally()
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(DEBUG_ENV, raising=False)
        check(module(rng), tally)
    failed = {k: tally.examples[k] for k in FAILURES if tally.counts[k]}
    assert not failed, failed
