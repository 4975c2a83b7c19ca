"""Kernels fixed by ``pypto-check --fix`` compile on the real PyPTO 0.2.0 compiler (SIM mode).

Generated kernels whose findings include a fixable code are fixed; each one left with no finding is
compiled and must be accepted. The generator draws mostly from the families with fixable findings.
The run outside CI: ``python scripts/fix_agreement.py -n 2600 --seed 21 --fixable``.
"""

from __future__ import annotations

import os

import pytest

from . import generator
from .fix_oracle import fix_and_compile, summary
from .runner import have_pypto

N_KERNELS = int(os.environ.get("PYPTO_FIX_ORACLE_N", "100"))
SEED = int(os.environ.get("PYPTO_FIX_ORACLE_SEED", "5"))

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not have_pypto(), reason="needs the real pypto 0.2.0 compiler and torch (the oracle extra)"),
]


def test_fixed_kernels_compile(tmp_path_factory: pytest.TempPathFactory) -> None:
    cases = generator.generate(N_KERNELS, SEED, generator.FIXABLE_WEIGHTS)
    results = fix_and_compile(cases, str(tmp_path_factory.mktemp("fix")), jobs=2)
    report = summary(results)
    print(report)
    clean = [r for r in results if r.fixed and not r.remaining]
    assert clean, f"no kernel was fixed completely:\n{report}"
    failed = [r for r in clean if not r.compiled]
    assert not failed, "fixed kernels the compiler rejects:\n" + "\n".join(
        f"case_{r.case:04d}: fixed {r.fixed}, compiler: {r.verdict}" for r in failed
    ) + "\n" + report
