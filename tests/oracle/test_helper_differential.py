"""Differential test of helper kernels: a jit kernel calling plain helpers (1-3 levels, tiles set
in the kernel, in a helper or both), through the real PyPTO 0.2.0 compiler (SIM mode) and through
our checker (rule: helper-runs-in-the-trace). Skipped without pypto. See tests/oracle/README.md.
"""

from __future__ import annotations

import os

import pytest

from . import compare, helper_generator
from .runner import have_pypto

N_CASES = int(os.environ.get("PYPTO_ORACLE_HELPER_N", "16"))
SEED = int(os.environ.get("PYPTO_ORACLE_SEED", "0"))
JOBS = int(os.environ.get("PYPTO_ORACLE_JOBS", "2"))

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not have_pypto(), reason="needs the real pypto 0.2.0 compiler and torch (the oracle extra)"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[compare.Outcome]:
    cases = helper_generator.generate_helpers(N_CASES, SEED)
    assert len(cases) == N_CASES
    return compare.run(list(cases), workdir=str(tmp_path_factory.mktemp("helper-oracle")), jobs=JOBS, timeout=180)


def test_checker_agrees_with_compiler_on_helper_kernels(outcomes: list[compare.Outcome]) -> None:
    dis = [o for o in outcomes if o.agree is False]
    report = compare.stats(outcomes)
    print(report)
    assert not dis, f"{len(dis)} disagreement(s):\n{compare.table(outcomes)}\n\n{report}"


def test_compiler_judges_what_the_generator_meant(outcomes: list[compare.Outcome]) -> None:
    """Each kernel tests what it was built for: the compiler accepts the ones meant to compile and
    rejects the others with the meant code, its marker on the kernel's call of the outermost helper
    (or on the kernel's own op)."""
    wrong = []
    for o in outcomes:
        case = o.case
        assert isinstance(case, helper_generator.HelperCase)
        line_ok = o.compiler.line is None or o.compiler.line == case.blame_line
        if o.expected_code != case.expect or not line_ok:
            wrong.append(f"case {o.index}: meant {case.expect} @ {case.blame_line}, compiler {o.compiler.short()}\n"
                         f"{case.source}")
    assert not wrong, "\n".join(wrong)


def test_helper_mix(outcomes: list[compare.Outcome]) -> None:
    """About half compile; the rejections have several codes; nothing is left uncovered."""
    accepted = sum(1 for o in outcomes if o.compiler.accepted)
    assert 0.25 * len(outcomes) <= accepted <= 0.75 * len(outcomes), compare.stats(outcomes)
    assert len({o.compiler.code for o in outcomes if not o.compiler.accepted}) >= 2, compare.stats(outcomes)
    assert not [o for o in outcomes if o.agree is None], compare.uncovered(outcomes)
