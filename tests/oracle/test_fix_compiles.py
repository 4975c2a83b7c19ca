"""Kernels fixed by ``pypto-check --fix`` compile on the real PyPTO 0.2.0 compiler (SIM mode).

Generated kernels whose findings include a fixable code are fixed; each one left with no finding is
compiled and must be accepted. The generator draws mostly from the families with fixable findings.
The run outside CI: ``python scripts/fix_agreement.py -n 2600 --seed 21 --fixable``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from . import generator
from .fix_oracle import fix_and_compile, summary
from .runner import have_pypto

N_KERNELS = int(os.environ.get("PYPTO_FIX_ORACLE_N", "30"))
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


# The examples --fix leaves with no finding (tests/fix/test_fix.py EXAMPLE_FIXES); use-after-move is
# fixed only here and in tests/fix/test_fix_moves.py: the generator never reads a moved tensor.
# Each with a host call of the tensors its annotations name (the driver runs ``run()``).
FIXED_EXAMPLES = {
    "gate_two_outputs": "gate_two_outputs(*(torch.ones(ROWS, COLS) for _ in range(3)))",
    "l2_norm": "l2_norm(torch.ones(ROWS, DIM), torch.ones(DIM, 1), torch.ones(ROWS, DIM))",
    "softmax_rows": "row_stats(*(torch.ones(*s, dtype=torch.bfloat16) for s in ((ROWS, COLS), (ROWS, COLS), (ROWS, 1))))",
}


@pytest.mark.parametrize("name", sorted(FIXED_EXAMPLES))
def test_fixed_examples_compile(tmp_path: Path, name: str) -> None:
    from mypy_plugin.fix.apply import run

    from .runner import compile_file

    root = Path(__file__).resolve().parents[2]
    src = tmp_path / f"{name}.py"
    shutil.copy(root / "examples" / f"{name}_bad.py", src)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    outcome = run([str(src)], ["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache")])
    outcome.write()
    assert outcome.fixed and not outcome.remaining
    # the examples use the default run mode; the oracle compiles in simulation on the CPU
    text = src.read_text().replace("@pypto.frontend.jit\n", '@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})\n')
    src.write_text(f"{text}\n\ndef run() -> None:\n    import torch\n\n    {FIXED_EXAMPLES[name]}\n")
    verdict = compile_file(str(src), str(tmp_path / "compile"))
    assert verdict.accepted, verdict.short()
