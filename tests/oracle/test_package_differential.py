"""Differential test of packages: helper, spec and boundary kernels laid out as packages (helpers in
one or two other modules, a method of a module-level object, the kernel in its own module, the
host call in a third), through the real PyPTO 0.2.0 compiler (SIM mode) and through the checker
(mypy with the plugin, cold, on the packages). Skipped without pypto. See tests/oracle/README.md;
``scripts/oracle_agreement.py --packages`` runs more.
"""

from __future__ import annotations

import os

import pytest

from . import compare, package_generator, package_oracle
from .package_case import PackageCase
from .runner import have_pypto

N_CASES = int(os.environ.get("PYPTO_ORACLE_PACKAGE_N", "24"))
SEED = int(os.environ.get("PYPTO_ORACLE_SEED", "0"))
JOBS = int(os.environ.get("PYPTO_ORACLE_JOBS", "2"))

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not have_pypto(), reason="needs the real pypto 0.2.0 compiler and torch (the oracle extra)"),
]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[compare.Outcome]:
    cases = package_generator.generate_packages(N_CASES, SEED)
    assert len(cases) == N_CASES
    found, _ = package_oracle.run(cases, workdir=str(tmp_path_factory.mktemp("package-oracle")), jobs=JOBS,
                                  timeout=180)
    return found


def test_checker_agrees_with_compiler_on_packages(outcomes: list[compare.Outcome]) -> None:
    dis = [o for o in outcomes if o.agree is False]
    report = compare.stats(outcomes)
    print(report)
    assert not dis, f"{len(dis)} disagreement(s):\n{compare.table(outcomes)}\n\n{report}"


def test_compiler_judges_what_the_generator_meant(outcomes: list[compare.Outcome]) -> None:
    """A package of a helper kernel tests what that kernel was built for: the compiler accepts the
    ones meant to compile and rejects the others with the meant code, its marker (when it prints
    one) on the kernel's line that reaches the failing op (spec packages make no prediction)."""
    wrong = []
    for o in outcomes:
        case = o.case
        assert isinstance(case, PackageCase)
        if not case.expect:
            continue
        line_ok = o.compiler.line is None or o.compiler.line == case.blame_line
        if o.expected_code != case.expect or not line_ok:
            wrong.append(f"case {o.index}: meant {case.expect} @ {case.blame_line}, compiler {o.compiler.short()}\n"
                         f"{case.source}")
    assert not wrong, "\n".join(wrong)


def test_package_mix(outcomes: list[compare.Outcome]) -> None:
    """About half compile; several codes; every layout occurs; nothing is left uncovered."""
    cases = [o.case for o in outcomes if isinstance(o.case, PackageCase)]
    accepted = sum(1 for o in outcomes if o.compiler.accepted)
    assert 0.25 * len(outcomes) <= accepted <= 0.75 * len(outcomes), compare.stats(outcomes)
    assert len({o.compiler.code for o in outcomes if not o.compiler.accepted}) >= 3, compare.stats(outcomes)
    assert {c.features["runtime"] for c in cases} == {True, False}
    assert {c.features["method"] for c in cases} == {True, False}
    assert {c.family for c in cases} == {"package-vec", "package-matmul", "package-spec", "package-boundary"}
    assert not [o for o in outcomes if o.agree is None], compare.uncovered(outcomes)
