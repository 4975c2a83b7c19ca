"""The inputs that once made the plugin super-linear do work linear in their size.

Work is counted (not timed): the plugin's passes are wrapped with counters and mypy runs in
process on size N and 2N. ``benchmarks/scaling.py`` times the same inputs at N, 2N and 4N.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mypy import api
from mypy.nodes import NameExpr, OpExpr

from mypy_plugin.kernel import decorators as kernels, tile_flow, tile_receivers, use_after_move

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import scaling  # noqa: E402

# A long run (inputs at N, 2N and 4N): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow


def _count(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    counter = [0]
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        result = original(*args, **kwargs)
        if isinstance(result, Iterator):
            def items() -> Iterator[Any]:
                for item in result:
                    counter[0] += 1
                    yield item
            return items()
        return result

    monkeypatch.setattr(owner, name, counted)
    return counter


def _work(tmp_path: Path, source: str, counter: list[int]) -> int:
    path = tmp_path / "k.py"
    path.write_text(source)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n")
    counter[0] = 0
    stdout, stderr, status = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--no-incremental", str(path)])
    assert status in (0, 1) and "INTERNAL ERROR" not in stdout + stderr, stdout + stderr
    return counter[0]


def _ratio(tmp_path: Path, make: Callable[[int], str], n: int, counter: list[int]) -> float:
    small = _work(tmp_path, make(n), counter)
    large = _work(tmp_path, make(2 * n), counter)
    assert large > 0
    return large / max(small, 1)


def test_many_kernels_do_not_rescan_the_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each kernel's tile pass asks whether its function is a kernel: never a scan of the module.
    counter = _count(monkeypatch, kernels, "decorators")
    assert _work(tmp_path, scaling.many_kernels(200), counter) == 0


def test_a_recursive_kernel_calling_a_tile_helper_is_linear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counter = _count(monkeypatch, tile_flow._Flow, "simple")
    assert _ratio(tmp_path, scaling.recursive_helper, 20, counter) < 2.5  # quadratic: 4; it was worse


def test_the_receivers_of_names_bound_again_and_again_are_resolved_once(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # Every method call's receiver is asked for; each ask walked all of the name's bindings (and
    # those of the names they read): cubic, 30 s for 1,600 statements.
    counter = _count(monkeypatch, tile_receivers.Receivers, "type_of")
    assert _ratio(tmp_path, scaling.rebound_names, 200, counter) < 2.5  # it was 7.6


def test_reads_of_a_long_chain_do_not_recurse() -> None:
    # t + t + ... + t nests N deep. Walked by recursion (nested generators), every name costs the
    # depth (quadratic: 28 s for 8,000 terms) and 5,000 terms exceed Python's default stack.
    e: Any = NameExpr("t")
    for _ in range(4999):
        e = OpExpr("+", e, NameExpr("t"))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        names = list(use_after_move._reads(e))
    finally:
        sys.setrecursionlimit(limit)
    assert len(names) == 5000 and all(n.name == "t" for n in names)
