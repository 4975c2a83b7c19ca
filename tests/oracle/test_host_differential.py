"""Differential test of host calls: modules that build torch tensors and call their kernel, run
through the real PyPTO 0.2.0 compiler (SIM mode) and through our checker (pypto-call-* at the call,
op checks of `[]` kernels with the call's tensors). Skipped without pypto. See tests/oracle/README.md.
"""

from __future__ import annotations

import os

import pytest

from . import compare, host_generator, host_oracle
from .runner import have_pypto

N_CASES = int(os.environ.get("PYPTO_ORACLE_HOST_N", "32"))  # two per construct of host_generator
SEED = int(os.environ.get("PYPTO_ORACLE_SEED", "0"))
JOBS = int(os.environ.get("PYPTO_ORACLE_JOBS", "2"))

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not have_pypto(), reason="needs the real pypto 0.2.0 compiler and torch (the oracle extra)"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[compare.Outcome]:
    cases = host_generator.generate_host(N_CASES, SEED)
    assert len(cases) == N_CASES
    return host_oracle.run(cases, workdir=str(tmp_path_factory.mktemp("host-oracle")), jobs=JOBS, timeout=180)


def test_checker_agrees_with_compiler_on_host_calls(outcomes: list[compare.Outcome]) -> None:
    dis = [o for o in outcomes if o.agree is False]
    report = compare.stats(outcomes)
    print(report)
    assert not dis, f"{len(dis)} disagreement(s):\n{compare.table(outcomes)}\n\n{report}"


def test_host_mix(outcomes: list[compare.Outcome]) -> None:
    """Both kinds occur: op errors that show only with the call's tensors, boundary rejections,
    silent boundary mismatches confirmed by the check mode, and good calls."""
    spec = [o for o in outcomes if isinstance(o.case, host_generator.HostCase) and o.case.kind == "spec"]
    assert any(o.compiler.code and not o.compiler.code.startswith("pypto-call-") for o in spec)
    assert any(o.compiler.status == "SILENT" for o in outcomes)
    assert any(o.compiler.status == "REJECT" and (o.compiler.code or "").startswith("pypto-call-") for o in outcomes)
    assert any(o.compiler.accepted for o in outcomes)
    assert sum(1 for o in outcomes if o.agree is None) <= 0.05 * len(outcomes), compare.uncovered(outcomes)
