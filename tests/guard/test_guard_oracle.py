"""The guard in front of real PyPTO 0.2.0 kernels (SIM mode), and what 0.2.0's own hidden check
mode (runtime_debug_mode=3) does with the same bad calls. Runs tests/guard/driver.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from oracle.runner import have_pypto

ROOT = Path(__file__).resolve().parents[2]

# case -> (the guard's codes, what 0.2.0 with runtime_debug_mode=3 does without the guard)
BAD: dict[str, tuple[list[str], str]] = {
    "bad_shape": (["pypto-call-shape"], "ValueError: The shape of 1st input tensor"),
    "bad_rank": (["pypto-call-rank"], "ValueError: The number of dimensions of 1st input tensor"),
    "bad_dtype_smaller": (["pypto-call-dtype"], "ValueError: The dtype of 1st input tensor"),
    "bad_dtype_default_fp32": (["pypto-call-dtype"], "ok"),  # no dtype written: mode 3 skips it
    "bad_status_dim": (["pypto-call-shape"] * 2, "ValueError: The shape of 1st input tensor"),
    "bad_status_rank": (["pypto-call-rank"] * 2, "ValueError: The shape of 1st input tensor"),
    "bad_any_shape_dtype": (["pypto-call-dtype"], "ValueError: The dtype of 1st input tensor"),
    "bad_symbol": (["pypto-call-symbol"], "ok"),  # shared symbols: never compared
    "bad_layout": (["pypto-call-layout"], "RuntimeError: not all tensors are contiguous"),
    "bad_keyword_tensor": (["pypto-call-args"], "RuntimeError: Expected at least 2 tensor argument(s), got 1."),
    "bad_too_few": (["pypto-call-args"], "RuntimeError: Expected at least 2 tensor argument(s), got 1."),
    "bad_too_many": (["pypto-call-args"], "RuntimeError: Too many positional arguments"),
    "bad_non_tensor": (["pypto-call-args"], "AttributeError: 'float' object has no attribute 'device'"),
    "bad_tensor_for_scalar": (["pypto-call-args"], "RuntimeError: Non-tensor parameter 'scale' must not be a torch.Tensor"),
}
GOOD = ["good_static", "good_no_dtype_fp32", "good_scalar_kw", "good_any_shape_16x64", "good_any_shape_8x32",
        "good_dyn_rows_32", "good_shared_16", "good_shared_32", "good_contiguous_after_t"]


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ, HOME=str(tmp), PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT))
    return env


def _drive(mode: str, tmp: Path, cases: list[str]) -> dict[str, dict[str, Any]]:
    # cwd: PyPTO writes an output/ folder into the working directory
    p = subprocess.run([sys.executable, "-m", "tests.guard.driver", mode, *cases], cwd=tmp, env=_env(tmp),
                       capture_output=True, text=True, timeout=900)
    rows = [json.loads(ln[5:]) for ln in p.stdout.splitlines() if ln.startswith("CASE ")]
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return {r["case"]: r for r in rows}


def _need_pypto() -> None:
    if not have_pypto():
        pytest.skip("needs the real pypto 0.2.0 compiler and torch (the oracle extra)")


@pytest.mark.oracle
def test_guard_stops_bad_calls_before_pypto_and_lets_good_ones_run(tmp_path: Path) -> None:
    _need_pypto()
    rows = _drive("guard", tmp_path, [])
    assert set(rows) == set(BAD) | set(GOOD)
    for case in GOOD:
        assert rows[case]["outcome"] == "ok" and rows[case]["pypto_saw_call"], rows[case]
    for case, (codes, _) in BAD.items():
        r = rows[case]
        assert (r["outcome"], r["codes"], r["pypto_saw_call"]) == ("guard", codes, False), r
        assert r["type"] == "BoundaryError" and '"' in r["message"]
    assert rows["bad_shape"]["message"] == (
        'pypto guard: the call of kernel "static_scale" does not match its annotations\n'
        'error: Kernel "static_scale", parameter "x": dim 1 is 32, not 64 (annotation [16, 64] DT_FP32, '
        "tensor [16, 32]); 0.2.0 does not check this: it compiles the kernel for [16, 64] DT_FP32 over the "
        "tensor's buffer (silent wrong data; it is built to access 4096 bytes of a 2048-byte buffer: out of "
        "bounds, heap corruption on a write)  [pypto-call-shape]\n"
        'note: pass a [16, 64] tensor, or annotate a varying dim with pypto.frontend.dynamic("N") and loop over it'
    )
    assert 'symbol N is 16 in "a" (dim 0) but 32 in "b" (dim 0)' in rows["bad_symbol"]["message"]


@pytest.mark.oracle
def test_what_runtime_debug_mode_3_catches(tmp_path: Path) -> None:
    """Without the guard, 0.2.0's check mode rejects the static dims, rank and explicit dtypes the
    guard rejects, but runs the shared-symbol and dtype-less cases, and fails the others only
    inside the call (pypto_saw_call)."""
    _need_pypto()
    rows = _drive("debug3", tmp_path, list(BAD))
    for case, (_, verdict) in BAD.items():
        r = rows[case]
        got = "ok" if r["outcome"] == "ok" else f'{r["type"]}: {r["message"]}'
        assert " ".join(got.split()).startswith(verdict), (case, got)
        assert r["pypto_saw_call"], r
