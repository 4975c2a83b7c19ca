"""The helper-kernel generator without the compiler: the modules parse, the helper chain is what the
case says, each meant failure sits where the case says, and the agreement rule maps a finding in a
helper onto the kernel's call (rule: helper-runs-in-the-trace)."""

from __future__ import annotations

import ast
import collections
import functools
from pathlib import Path

import pytest

from . import compare, helper_generator
from .helper_generator import HelperCase
from .runner import CheckerError, CompilerVerdict

# A long run (generates and checks many helper kernels): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

REGRESSIONS = Path(__file__).resolve().parent / "regressions"


@functools.cache
def _cases(gaps: bool = False) -> tuple[HelperCase, ...]:
    return tuple(helper_generator.generate_helpers(120, seed=5, gaps=gaps))


def _functions(case: HelperCase) -> dict[str, ast.FunctionDef]:
    """The module's functions, in definition order."""
    tree = ast.parse(case.source)
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}


def _called(stmt: ast.stmt) -> set[str]:
    return {n.func.id for n in ast.walk(stmt) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def test_deterministic_and_distinct() -> None:
    first, again = (helper_generator.generate_helpers(24, seed=7) for _ in range(2))
    assert [c.source for c in again] == [c.source for c in first]
    assert len({c.source for c in _cases()}) == len(_cases())


def test_modules_parse_and_helpers_chain() -> None:
    """The module defines the helpers (before or after the kernel), the kernel and run(); each
    helper of the main chain calls the next one, the kernel calls the outermost (twice in the
    plan "twice"), and run() calls the kernel."""
    for case in _cases():
        funcs = _functions(case)
        helpers = [h.name for h in case.helpers]
        assert list(funcs) == ([case.name] + helpers if case.after_kernel else helpers + [case.name]) + ["run"]
        for outer, inner in zip(case.main, case.main[1:]):
            assert inner in set().union(*map(_called, funcs[outer].body)), case.source
        assert len(case.call_lines) == (2 if case.plan == "twice" else 1), case.source
        assert case.name in _called(funcs["run"].body[-1])
        for name in helpers:  # every helper is reached from the kernel
            assert case.kernel_calls[name], (name, case.source)


def test_meant_failure_sits_where_the_case_says() -> None:
    """The site is an op of the innermost helper (its line is what the checker names; the
    kernel's call that reaches it is what the compiler's marker names) or the kernel's reduction
    after the call."""
    ops = {"pypto-reduce-align": ("sum", "amax", "amin", "softmax"), "pypto-tile-rank": ("x", ),
           "pypto-cube-tile": ("matmul",), "pypto-tile-missing": ("matmul", "sum", "amax", "amin", "softmax", "x")}
    for case in _cases():
        if case.expect == "OK":
            assert case.site is None and case.blame_line is None
            continue
        assert case.site is not None and case.site_line is not None and case.blame_line is not None
        src = case.source.splitlines()[case.site_line - 1]
        assert any(op in src for op in ops[case.expect]), (case.expect, src)
        if case.site[0] == case.name:  # the kernel's own op after the call: the marker names it
            assert case.plan in ("kernel_after", "helper_after") and case.blame_line == case.site_line
        else:
            assert case.site[0] == case.main[-1]
            assert case.blame_line in case.call_lines
            assert case.trace_lines(case.site_line) == set(case.call_lines)


def test_mix_and_coverage() -> None:
    """About half are meant to compile; every plan, depth, annotation form and tile form occurs."""
    cases = _cases()
    meant_ok = sum(c.expect == "OK" for c in cases)
    assert 0.35 * len(cases) <= meant_ok <= 0.65 * len(cases)
    assert {c.plan for c in cases} == set(helper_generator.VEC_PLANS) | set(helper_generator.MM_PLANS)
    assert any(c.after_kernel for c in cases)
    assert {c.features["levels"] for c in cases} == {1, 2, 3}
    assert {c.features["op"] for c in cases} >= {"sum", "amax", "amin", "center", "layernorm", "softmax",
                                                 "elementwise", "matmul"}
    pools = cases + _cases(gaps=True) + tuple(helper_generator.generate_helpers(120, seed=6))
    forms = collections.Counter(f.split(":")[1] for c in pools for f in c.features["forms"])
    assert set(forms) >= {"literal", "const", "mul_len", "arith", "inline", "comp", "const_arith", "comp_lit",
                          "param_int", "param_rank", "param_list", "shape", "cube_literal", "cube_locals", "cube_param"}
    assert any("tile_shape = " in c.source for c in cases)  # a list variable passed to a helper
    assert any(c.features.get("on_result") for c in cases)  # the kernel reduces a helper's result
    params = {p for c in cases for h in c.helpers for p in h.params}
    assert {"x", "x: pypto.Tensor", "eps"} <= params  # unannotated, partly annotated ...
    assert {p for p in params if p.endswith((": int", ": float", ": list[int]"))}  # ... and annotated
    meant = {c.expect for c in cases + _cases(gaps=True)}
    assert meant == {"OK", "pypto-reduce-align", "pypto-tile-missing", "pypto-tile-rank", "pypto-cube-tile"}


def test_gap_forms_only_on_request() -> None:
    """The forms of the last gaps (followed by the checker since) come only with ``gaps``, drawn
    often there; each has its regression kernel."""
    assert not any(c.features["gaps"] for c in _cases())
    used = {g for c in _cases(gaps=True) for g in c.features["gaps"]}
    assert used == set(helper_generator.GAPS)
    for files in helper_generator.GAPS.values():
        for name in files:
            assert "# expect: pypto-" in (REGRESSIONS / name).read_text(), name


def _outcome(case: HelperCase, errs: list[CheckerError]) -> bool | None:
    comp = CompilerVerdict("REJECT", case.expect, case.blame_line, [], "meant")
    return compare.compare_one(0, case, comp, errs).agree


def test_agreement_maps_a_helper_finding_onto_the_kernels_call() -> None:
    """The compiler's marker names the kernel's call; the checker names the helper's op, with a
    note per call (or none, from the helper's own pass): both agree. Another call line does not."""
    case = next(c for c in _cases() if c.site and c.site[0] != c.name and c.features["levels"] == 3)
    assert case.site_line is not None and case.blame_line is not None
    inner_call = case.lines_of[case.main[1]][-1]
    noted = CheckerError(case.site_line, case.expect, "", via=(inner_call, case.blame_line))
    assert _outcome(case, [noted]) is True
    assert _outcome(case, [CheckerError(case.site_line, case.expect, "")]) is True  # no note: the case's map
    assert _outcome(case, [CheckerError(case.site_line, case.expect, "", via=(case.blame_line + 1,))]) is False
    assert _outcome(case, [CheckerError(case.site_line, "pypto-axis", "")]) is False
