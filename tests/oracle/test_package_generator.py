"""The package generator without the compiler: the packages are laid out as each case says, each
meant failure sits where the case says, the agreement rule maps a finding in the host module or in
a helper's module onto the kernel's line, and the checker (mypy with the plugin) gives the
verdicts the generator meant, the same cold and with worker processes (``mypy -n 2``)."""

from __future__ import annotations

import ast
import collections
import functools
import sys
from pathlib import Path

import pytest

from . import compare, package_generator, package_oracle
from .package_case import FILES, ORDER, STYLES, PackageCase, loc
from .runner import CheckerError, CompilerVerdict

PACKAGES = Path(__file__).resolve().parent / "packages"
pytestmark = pytest.mark.slow  # (a generator: the other generators' tests are slow too)


@functools.cache
def _cases(gaps: bool = False) -> tuple[PackageCase, ...]:
    return tuple(package_generator.generate_packages(90, seed=5, gaps=gaps))


def test_deterministic_and_distinct() -> None:
    first, again = (package_generator.generate_packages(20, seed=7) for _ in range(2))
    assert [c.source for c in again] == [c.source for c in first]
    assert len({c.source for c in _cases()}) == len(_cases())


def _imported(mod: str, node: ast.Import | ast.ImportFrom, pkg: str) -> list[str]:
    """The package's modules one import statement of ``mod`` names ('' for the package itself)."""
    if isinstance(node, ast.Import):
        return [a.name.split(".", 1)[1] if "." in a.name else "" for a in node.names if a.name.startswith(pkg)]
    base = node.module or ""
    if node.level:
        base = f"{pkg}.{base}" if base else pkg
    if not base.startswith(pkg):
        return []
    if base == pkg:  # from . import ops / from pkg import core
        return [a.name if f"{a.name}.py" in FILES else "" for a in node.names]
    return [base.split(".", 1)[1]]


def test_packages_are_laid_out_as_the_case_says() -> None:
    """Every module parses; the kernel is alone in kernel.py and run() in host.py calls it; each
    helper is in its module (the method in layout.py); a module imports only modules below it
    (no import cycle), the package itself only for what its __init__ re-exports."""
    for case in _cases():
        assert set(case.files) <= {f for f in FILES}, case.files
        trees = {name: ast.parse(text) for name, text in case.files.items()}
        kernel = [f for f in trees["kernel.py"].body if isinstance(f, ast.FunctionDef)]
        assert [f.name for f in kernel] == [case.name] and kernel[0].decorator_list
        run = next(f for f in trees["host.py"].body if isinstance(f, ast.FunctionDef) and f.name == "run")
        assert case.name in ast.unparse(run)
        for h in case.helpers:
            file = "layout.py" if h.name == case.method else f"{case.home[h.name]}.py"
            assert f"def {h.name}(" in case.files[file], (h.name, case.source)
            assert case.kernel_calls[h.name], (h.name, case.source)  # every helper is reached
        for name, tree in trees.items():
            me = name[:-3]
            if me == "__init__":  # (it re-exports: it imports the modules it names, in ORDER)
                continue
            for node in ast.walk(tree):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    for other in _imported(me, node, case.pkg):
                        assert other == "" or ORDER.index(other) < ORDER.index(me), (name, ast.unparse(node))
        if case.method:
            assert "LAYOUT = Layout(" in case.files["layout.py"]


def test_meant_failure_sits_where_the_case_says() -> None:
    """The op meant to fail is in a helper's module (the checker names it, or the call that
    reaches it) and the compiler's marker is meant to name the kernel's line that reaches it, or
    the kernel's own op after the call."""
    for case in _cases():
        if case.kind != "helper":  # spec and boundary packages: the compiler decides
            assert not case.expect and case.site is None
            continue
        if case.expect == "OK":
            assert case.site is None and case.blame_line is None
            continue
        assert case.site_line is not None and case.blame_line is not None
        assert case.blame_line in {ln for ln, _, _ in case.stmt_lines}
        if case.site[0] == case.name:
            assert case.site_line == case.blame_line
        else:
            assert case.blame_line in case.trace_lines(case.site_line), case.source


def test_mix_and_coverage() -> None:
    """Every plan (but the gap ones), boundary kind, host construct, family, layout and import
    style occurs."""
    from .host_generator import BOUNDARY, CONSTRUCTS

    cases = _cases()
    plans = collections.Counter(c.plan for c in cases)
    assert set(plans) == {"kernel", "helper", "override", "twice", "kernel_after", "none", "param", "spec", "sibling",
                          "helper_after", *BOUNDARY}
    assert {c.features.get("construct") for c in cases if c.kind != "helper"} \
        == set(CONSTRUCTS) - set(package_generator.GAP_CONSTRUCTS)
    assert {c.family for c in cases} == {"package-vec", "package-matmul", "package-spec", "package-boundary"}
    assert {c.features["runtime"] for c in cases} == {True, False}
    assert {c.obj_form for c in cases if c.method} == {"init", "dataclass"}
    assert any(c.moved for c in (*cases, *_cases(gaps=True)))  # (arguments the object holds: rare without gaps)
    assert {c.features["modules"] for c in cases} >= {1, 2}
    assert set(STYLES) <= {s for c in cases for s in c.features["styles"]}
    assert {c.init_pypto for c in cases} == {True, False}
    meant = {c.expect for c in cases}
    assert meant >= {"OK", "pypto-reduce-align", "pypto-tile-missing", "pypto-cube-tile", ""}


def test_gap_forms_only_on_request() -> None:
    """The forms the checker does not follow yet come only with ``gaps``; each has its package
    regression with a known-gap header."""
    assert not any(c.features["gaps"] for c in _cases())
    used = {g for c in _cases(gaps=True) for g in c.features["gaps"]}
    assert used == set(package_generator.GAPS)
    for folders in package_generator.GAPS.values():
        for name in folders:
            assert "# checker: known gap" in (PACKAGES / name / "main.py").read_text(), name


def test_findings_map_onto_the_kernel_lines() -> None:
    """A finding at the host call stands for the kernel line its note names (the first 'through',
    the outermost call); one in a helper's module for the kernel lines that reach that helper."""
    case = next(c for c in _cases() if c.expect not in ("OK", "") and c.site and c.site[0] != c.name
                and c.features["runtime"] and c.features["levels"] >= 2 and not c.method)
    case.render("case_0000")
    blame, site = case.blame_line, case.site_line
    assert blame is not None and site is not None
    where = {0: "kernel.py", 2: "ops.py", 3: "blocks.py"}[site // 100_000]
    out = "\n".join([
        f"case_0000/host.py:{case.call_line % 100_000}:5: error: found  [{case.expect}]",
        f"case_0000/host.py:{case.call_line % 100_000}:5: note: at case_0000/{where}:{site % 100_000}, through "
        f"block at kernel.py:{blame}, through core at blocks.py:3, in kernel k, traced with the tensors",
        f"case_0000/{where}:{site % 100_000}:5: error: own  [{case.expect}]",
    ])
    host, own = package_oracle.parse(out, ["case_0000"])[0]
    assert host.line == case.call_line and host.via == (blame,)
    assert compare.kernel_lines(case, host) == {blame}
    assert compare.kernel_lines(case, own) == case.trace_lines(site) and blame in compare.kernel_lines(case, own)
    verdict = CompilerVerdict("REJECT", case.expect, blame, [], "meant")
    assert compare.compare_one(0, case, verdict, [host]).agree is True
    assert compare.compare_one(0, case, verdict, [CheckerError(host.line, case.expect, "")]).agree is False
    assert loc("kernel.py", 7) == 7 and loc("host.py", 7) == 100_007


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[PackageCase], list[list[CheckerError]], str]:
    cases = [c for c in _cases() if c.expect][:30]
    wd = str(tmp_path_factory.mktemp("packages"))
    from .runner import write_cases

    folders = write_cases(list(cases), wd)
    found, out = package_oracle.run_checker(folders, wd, sys.executable)
    return cases, found, wd


def test_checker_gives_the_verdicts_the_generator_meant(
        checked: tuple[list[PackageCase], list[list[CheckerError]], str]) -> None:
    """The checker side alone (no compiler): each package is judged as its helper kernel was meant
    (confirmed against 0.2.0 by test_package_differential.py and the agreement script)."""
    cases, found, _ = checked
    wrong = []
    for i, (case, errs) in enumerate(zip(cases, found)):
        verdict = CompilerVerdict("OK") if case.expect == "OK" else CompilerVerdict(
            "REJECT", case.expect, case.blame_line, [], "meant")
        outcome = compare.compare_one(i, case, verdict, errs)
        if not outcome.agree:
            wrong.append(f"{outcome.reason}: {outcome.checker_short()}\n{case.source}")
    assert not wrong, "\n\n".join(wrong)
    assert {c.expect for c in cases} >= {"OK", "pypto-reduce-align", "pypto-cube-tile"}


def test_worker_processes_give_the_same_findings(
        checked: tuple[list[PackageCase], list[list[CheckerError]], str]) -> None:
    cases, _, wd = checked
    same, diff = package_oracle.same_with_workers(cases, wd)
    assert same, diff
