"""Every independent bug in one run: kernels with two or three bugs, each confirmed alone by the
real PyPTO 0.2.0 compiler, must get every one of them reported by one checker run (no cascade, no
root cause twice). See :mod:`tests.oracle.multi_bug`; ``scripts/multi_bug_agreement.py`` runs
hundreds outside CI.
"""

from __future__ import annotations

import os

import pytest

from . import multi_bug
from .runner import have_pypto

N_CASES = int(os.environ.get("PYPTO_ORACLE_MULTI_N", "6"))
SEED = int(os.environ.get("PYPTO_ORACLE_SEED", "0"))
JOBS = int(os.environ.get("PYPTO_ORACLE_JOBS", "2"))

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not have_pypto(), reason="needs the real pypto 0.2.0 compiler and torch (the oracle extra)"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[multi_bug.MultiOutcome]:
    cases = multi_bug.generate(N_CASES, SEED)
    assert len(cases) == N_CASES and all(len(c.sites) >= 2 for c in cases)
    return multi_bug.run(cases, workdir=str(tmp_path_factory.mktemp("multi")), jobs=JOBS)


def test_every_confirmed_bug_is_reported_in_one_run(outcomes: list[multi_bug.MultiOutcome]) -> None:
    report = multi_bug.stats(outcomes)
    print(report)
    bad = [o for o in outcomes if o.agree is False]
    assert not bad, f"{report}\n{multi_bug.table(outcomes)}"


def test_the_compiler_confirms_the_bugs(outcomes: list[multi_bug.MultiOutcome]) -> None:
    """The generator's bug sites are real 0.2.0 rejections (else the share tests nothing)."""
    unconfirmed = [o.case.summary() for o in outcomes if not o.confirmed]
    assert len(unconfirmed) <= len(outcomes) // 4, unconfirmed
