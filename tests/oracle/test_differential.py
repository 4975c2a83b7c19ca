"""Differential test: generated kernels through the real PyPTO 0.2.0 compiler (SIM mode) vs our checker.

Needs pypto==0.2.0 and torch in the running interpreter (the ``oracle`` extra); skipped otherwise.
Deterministic (fixed hypothesis seed). The compiler runs each kernel in its own subprocess, two at a
time; the checker runs once over all kernels. See tests/oracle/README.md.
"""

from __future__ import annotations

import os

import pytest

from . import compare, generator
from .runner import have_pypto

N_KERNELS = int(os.environ.get("PYPTO_ORACLE_N", "72"))
SEED = int(os.environ.get("PYPTO_ORACLE_SEED", "0"))
JOBS = int(os.environ.get("PYPTO_ORACLE_JOBS", "2"))


pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not have_pypto(), reason="needs the real pypto 0.2.0 compiler and torch (the oracle extra)"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[compare.Outcome]:
    cases = generator.generate(N_KERNELS, SEED)
    assert len(cases) == N_KERNELS
    return compare.run(cases, workdir=str(tmp_path_factory.mktemp("oracle")), jobs=JOBS, timeout=180)


def test_checker_agrees_with_compiler(outcomes: list[compare.Outcome]) -> None:
    dis = [o for o in outcomes if o.agree is False]
    report = compare.stats(outcomes)
    print(report)
    assert not dis, f"{len(dis)} disagreement(s) between the compiler and the checker:\n{compare.table(outcomes)}\n\n{report}"


def test_generator_mix(outcomes: list[compare.Outcome]) -> None:
    """Roughly half of the kernels compile, and almost every rejection maps onto one of our codes."""
    accepted = sum(1 for o in outcomes if o.compiler.accepted)
    assert 0.25 * len(outcomes) <= accepted <= 0.75 * len(outcomes), compare.stats(outcomes)
    unc = [o for o in outcomes if o.agree is None]
    assert len(unc) <= 0.05 * len(outcomes), f"uncovered compiler verdicts:\n{compare.uncovered(outcomes)}"
    codes = {o.compiler.code for o in outcomes if not o.compiler.accepted and o.compiler.code}
    assert len(codes) >= 8, codes
