"""Calls real 0.2.0 kernels with good and bad arguments; prints one JSON line per case.

    python -m tests.guard.driver guard    # the boundary guard on
    python -m tests.guard.driver debug3   # no guard, 0.2.0's runtime_debug_mode=3 instead

A spy on ``JitCallableWrapper._parse_call_args`` (the first thing a 0.2.0 call does) tells
whether PyPTO saw the call at all.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

MODE = sys.argv[1] if len(sys.argv) > 1 else "guard"
if MODE == "guard":
    from mypy_plugin import guard

    guard.enable()  # before pypto is imported: patched through the import hook

import pypto  # noqa: E402
import torch  # noqa: E402
from pypto.frontend.parser import entry  # noqa: E402

from tests.guard import kernels as k  # noqa: E402

if MODE == "debug3":
    pypto.set_debug_options(runtime_debug_mode=3)

_seen = [0]
_parse = entry.JitCallableWrapper._parse_call_args


def _spy(self: Any, *a: Any, **kw: Any) -> Any:
    _seen[0] += 1
    return _parse(self, *a, **kw)


entry.JitCallableWrapper._parse_call_args = _spy  # type: ignore[method-assign]


def t(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.ones(shape, dtype=dtype)


# (case id, the call). Cases that 0.2.0 would run with wrong data come last (debug3 mode runs them).
CASES: list[tuple[str, Callable[[], object]]] = [
    ("good_static", lambda: k.static_scale(t(16, 64), t(16, 64))),
    ("good_no_dtype_fp32", lambda: k.static_no_dtype(t(16, 64), t(16, 64))),
    ("good_scalar_kw", lambda: k.scaled(t(16, 64), t(16, 64), scale=3.0)),
    ("good_any_shape_16x64", lambda: k.any_shape(t(16, 64), t(16, 64))),
    ("good_any_shape_8x32", lambda: k.any_shape(t(8, 32), t(8, 32))),
    ("good_dyn_rows_32", lambda: k.dyn_rows(t(32, 64), t(32, 64))),
    ("good_shared_16", lambda: k.shared_rows(t(16, 64), t(16, 64), t(16, 64))),
    ("good_shared_32", lambda: k.shared_rows(t(32, 64), t(32, 64), t(32, 64))),
    ("good_contiguous_after_t", lambda: k.static_scale(t(64, 16).t().contiguous(), t(16, 64))),
    ("bad_shape", lambda: k.static_scale(t(16, 32), t(16, 64))),
    ("bad_rank", lambda: k.static_scale(t(16, 64, 1), t(16, 64))),
    ("bad_dtype_smaller", lambda: k.static_scale(t(16, 64, dtype=torch.bfloat16), t(16, 64))),
    ("bad_dtype_default_fp32", lambda: k.static_no_dtype(t(16, 64, dtype=torch.bfloat16), t(16, 64))),
    ("bad_status_dim", lambda: k.dyn_rows(t(16, 32), t(16, 32))),
    ("bad_status_rank", lambda: k.dyn_rows(t(2, 16, 64), t(2, 16, 64))),
    ("bad_any_shape_dtype", lambda: k.any_shape(t(8, 32, dtype=torch.float16), t(8, 32))),
    ("bad_symbol", lambda: k.shared_rows(t(16, 64), t(32, 64), t(16, 64))),
    ("bad_layout", lambda: k.static_scale(t(64, 16).t(), t(16, 64))),
    ("bad_keyword_tensor", lambda: k.static_scale(t(16, 64), out=t(16, 64))),
    ("bad_too_few", lambda: k.static_scale(t(16, 64))),
    ("bad_too_many", lambda: k.static_scale(t(16, 64), t(16, 64), 2.0)),
    ("bad_non_tensor", lambda: k.static_scale(t(16, 64), 1.0)),
    ("bad_tensor_for_scalar", lambda: k.scaled(t(16, 64), t(16, 64), scale=t(1))),
]


def main() -> None:
    only = set(sys.argv[2:])
    for case, call in CASES:
        if only and case not in only:
            continue
        before = _seen[0]
        row: dict[str, Any] = {"case": case}
        try:
            call()
            row["outcome"] = "ok"
        except Exception as e:  # noqa: BLE001 - the outcome is what we record
            codes = [f.code.name for f in getattr(e, "findings", [])]
            row.update(outcome="guard" if codes else "error", codes=codes, type=type(e).__name__,
                       message=str(e))
        row["pypto_saw_call"] = _seen[0] > before
        print("CASE " + json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
