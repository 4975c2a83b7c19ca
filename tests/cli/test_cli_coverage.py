"""``pypto-check --coverage``: every kernel with how it was checked, in text and JSON."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mypy_plugin.cli import main

KERNELS = '''
import torch
import pypto


@pypto.frontend.jit
def declared(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0


@pypto.frontend.jit
def called(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * 2.0


@pypto.frontend.jit
def never_called(x: pypto.Tensor(), out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x


def run(t: torch.Tensor) -> None:
    for rows in (8, 16):
        x = torch.randn(rows, 64)
        called(x, torch.empty_like(x))
    called(t, t)
'''

ONE_OP = {"total": 1, "reached": 1, "known": 1, "unreached": []}

OTHER = '''
import torch
from kernels import never_called


def run() -> None:
    never_called(torch.randn(4, 64, dtype=torch.float16), torch.empty(4, 64, dtype=torch.float16))
'''


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "kernels.py").write_text(textwrap.dedent(KERNELS))
    (tmp_path / "host.py").write_text(textwrap.dedent(OTHER))
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\n\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_text_lists_each_kernel_and_a_summary(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--coverage", "kernels.py", "host.py"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-6:] == [
        "kernels.py:7: kernel declared: checked with declared shapes",
        "  ops: 1 of 1 reached (every check ran), 1 with every shape and tile known",
        "kernels.py:13: kernel called: checked with the tensors of 2 call sites",
        "  ops: 1 of 1 reached (every check ran), 1 with every shape and tile known",
        # called from another module: traced from its source with that call's tensors
        "kernels.py:19: kernel never_called: checked with the tensors of 1 call site",
        "coverage: 3 kernels: 1 with declared shapes, 2 with call-site shapes, 0 unknown "
        "(3 of 3 = 100% checked with concrete shapes); ops: 2 of 2 = 100% reached (every check that applies ran), "
        "2 = 100% with every shape and tile known",
    ]


@pytest.mark.parametrize("how", ["config", "environment", "option"])
def test_mypy_workers_do_not_empty_the_coverage(project: Path, how: str, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # mypy's parallel mode checks modules in worker processes; the coverage is collected in this
    # one, so --coverage checks here whatever a config, MYPY_NUM_WORKERS or the option asks.
    # (It once listed "0 kernels".)
    assert main(["--coverage", "kernels.py", "host.py"]) == 0
    alone = capsys.readouterr().out.splitlines()
    argv = ["--coverage", "kernels.py", "host.py"]
    if how == "config":
        (project / "mypy.ini").write_text((project / "mypy.ini").read_text().replace(
            "plugins = mypy_plugin\n", "plugins = mypy_plugin\nnum_workers = 2\n"))
    elif how == "environment":
        monkeypatch.setenv("MYPY_NUM_WORKERS", "2")
    else:
        argv += ["--num-workers", "2"]
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[-6:] == alone[-6:]
    assert alone[-1].startswith("coverage: 3 kernels")


def test_json_has_a_coverage_object_per_kernel(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--coverage", "--output", "json", "kernels.py"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["coverage"] == [
        {"kernel": "kernels.py:7:declared", "checked": "declared", "call_sites": 0, "reason": "", "ops": ONE_OP},
        {"kernel": "kernels.py:13:called", "checked": "call-sites", "call_sites": 2,
         "reason": "x: shape from the runtime tensor; out: shape from the runtime tensor", "ops": ONE_OP},
        {"kernel": "kernels.py:19:never_called", "checked": "unknown", "call_sites": 0,
         "reason": "x: shape and dtype from the runtime tensor; out: dims 0 from the runtime tensor; "
                   "no call in the checked files", "ops": {"total": 0, "reached": 0, "known": 0, "unreached": []}},
    ]


def test_without_the_flag_there_is_no_coverage(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--output", "json", "kernels.py"]) == 0
    assert "coverage" not in json.loads(capsys.readouterr().out)


def test_coverage_and_fix_do_not_mix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--coverage", "--fix", "kernels.py"])
    assert exit_info.value.code == 2
    assert "--coverage reports, --fix/--diff rewrite: give one" in capsys.readouterr().err


REJECTED = '''
import torch
import pypto


@pypto.frontend.jit
def mixed(x: pypto.Tensor([], pypto.DT_FP32), w: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    w[:] = x * 2.0


@pypto.frontend.jit
def mixed_again(x: pypto.Tensor([], pypto.DT_FP32), w: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    w[:] = x * 2.0


def run() -> None:
    mixed(torch.randn(8, 64), torch.randn(64, 8).t())
    mixed_again(torch.randn(8, 32), torch.randn(8, 32))
'''


def test_a_call_with_a_finding_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # A non-contiguous tensor fails at the call: the kernel is never traced. A tensor whose shape
    # breaks a static annotation of a kernel with runtime shapes is traced anyway (0.2.0 ignores
    # that annotation dim): the kernel counts as checked with the call's tensors.
    (tmp_path / "k.py").write_text(textwrap.dedent(REJECTED))
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\n\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["--coverage", "--output", "json", "k.py"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [e["code"] for e in data["errors"]] == ["pypto-call-layout", "pypto-call-shape"]
    assert data["coverage"] == [
        {"kernel": "k.py:7:mixed", "checked": "unknown", "call_sites": 0,
         "reason": "x: shape from the runtime tensor; 1 call(s) in its module with a pypto-call-* finding that stops "
                   "the trace (the call fails at run time, or its tensors do not fit the kernel's ranks or symbols)",
         "ops": {"total": 1, "reached": 0, "known": 0,
                 "unreached": [{"path": "k.py", "line": 9, "op": "operator *", "reason": "input shape or dtype unknown",
                                "skipped": [{"check": "dynamic-operand", "missing": "rank of input"},
                                            {"check": "vec-tile-rank", "missing": "rank of input"}]}]}},
        {"kernel": "k.py:13:mixed_again", "checked": "call-sites", "call_sites": 1,
         "reason": "x: shape from the runtime tensor", "ops": ONE_OP},
    ]


HELPERS = '''
import pypto


def scale(x):
    return x * 2.0


def norm(x, tile):
    pypto.set_vec_tile_shapes(*tile)
    return scale(x).sum(-1, keepdim=True)


def configure() -> None:
    pypto.set_vec_tile_shapes(8, 16)


@pypto.frontend.jit
def reaches(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    out[:] = norm(a, [8, 16])


@pypto.frontend.jit
def tile_unknown(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32), n: int):
    out[:] = norm(a, [8, n])
'''


def test_ops_in_helpers_count_for_the_kernel_that_calls_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # Every op a kernel reaches through its helpers (two levels here) counts; an op is reached when
    # every check that applies to it ran: the product needs no tile entry, the reduction the last one.
    (tmp_path / "h.py").write_text(textwrap.dedent(HELPERS))
    monkeypatch.chdir(tmp_path)
    assert main(["--coverage", "h.py"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-6:] == [
        "h.py:19: kernel reaches: checked with declared shapes",
        "  ops: 2 of 2 reached (every check ran), 2 with every shape and tile known",
        "h.py:24: kernel tile_unknown: checked with declared shapes",
        "  ops: 1 of 2 reached (every check ran), 0 with every shape and tile known",
        "  h.py:11: Tensor.sum: reduce-align skipped, no vec tile entry 1",
        "coverage: 2 kernels: 2 with declared shapes, 0 with call-site shapes, 0 unknown "
        "(2 of 2 = 100% checked with concrete shapes); ops: 3 of 4 = 75% reached (every check that applies ran), "
        "2 = 50% with every shape and tile known",
    ]


def test_ops_of_helpers_in_other_modules_count_for_the_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # The same helpers imported from another module: traced from its source, their ops count for
    # the kernel that calls them, with the helper module's lines.
    helpers, kernels = HELPERS.split("@pypto.frontend.jit", 1)
    (tmp_path / "hm.py").write_text(textwrap.dedent(helpers))
    (tmp_path / "k.py").write_text("import pypto\nfrom hm import norm\n\n\n@pypto.frontend.jit" + kernels)
    monkeypatch.chdir(tmp_path)
    assert main(["--coverage", "k.py"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-6:] == [
        "k.py:6: kernel reaches: checked with declared shapes",
        "  ops: 2 of 2 reached (every check ran), 2 with every shape and tile known",
        "k.py:11: kernel tile_unknown: checked with declared shapes",
        "  ops: 1 of 2 reached (every check ran), 0 with every shape and tile known",
        "  hm.py:11: Tensor.sum: reduce-align skipped, no vec tile entry 1",
        "coverage: 2 kernels: 2 with declared shapes, 0 with call-site shapes, 0 unknown "
        "(2 of 2 = 100% checked with concrete shapes); ops: 3 of 4 = 75% reached (every check that applies ran), "
        "2 = 50% with every shape and tile known",
    ]


FACTORY = '''
import pypto


def make(rows):
    @pypto.frontend.jit()
    def k(x: pypto.Tensor([rows, 64], pypto.DT_FP32), w: pypto.Tensor([32, 16], pypto.DT_FP32),
          b: pypto.Tensor([rows, 48], pypto.DT_FP32), out: pypto.Tensor([rows, 1], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 4)
        pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
        s = x.sum(-1, keepdim=True)
        m = pypto.matmul(x, w, pypto.DT_FP32)
        c = x + b
        out[:] = s

    return k


def make_unknown(n):
    @pypto.frontend.jit()
    def k2(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([8, 64]), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, n)
        out[:] = (x + y).sum(-1, keepdim=True)

    return k2
'''


def test_an_op_is_reached_when_each_of_its_checks_had_its_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # The factory's kernel has a dim of unknown size (rows): its three findings come from checks
    # that read no such dim, so its three ops are reached (the older measure: none). The second
    # kernel's ops each say which check was skipped, and the fact it missed.
    (tmp_path / "f.py").write_text(textwrap.dedent(FACTORY))
    monkeypatch.chdir(tmp_path)
    assert main(["--coverage", "--output", "json", "f.py"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(e["line"], e["code"]) for e in data["errors"]] == [
        (11, "pypto-reduce-align"), (12, "pypto-matmul-k"), (13, "pypto-broadcast")]
    assert [e["ops"] for e in data["coverage"]] == [
        {"total": 3, "reached": 3, "known": 0, "unreached": []},
        {"total": 2, "reached": 0, "known": 0, "unreached": [
            {"path": "f.py", "line": 23, "op": "Tensor.sum", "reason": "input shape or dtype unknown",
             "skipped": [{"check": "shape-rule", "missing": "rank of input"},
                         {"check": "vec-tile-rank", "missing": "rank of input"},
                         {"check": "reduce-align", "missing": "rank of input"}]},
            {"path": "f.py", "line": 23, "op": "operator +", "reason": "input shape or dtype unknown",
             "skipped": [{"check": "shape-rule", "missing": "rank of input"},
                         {"check": "dynamic-operand", "missing": "rank of input"},
                         {"check": "vec-tile-rank", "missing": "rank of input"}]}]},
    ]
    assert main(["--coverage", "f.py"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-4:] == [
        "  ops: 0 of 2 reached (every check ran), 0 with every shape and tile known",
        "  f.py:23: Tensor.sum: shape-rule skipped, no rank of input; vec-tile-rank skipped, no rank of input; "
        "reduce-align skipped, no rank of input",
        "  f.py:23: operator +: shape-rule skipped, no rank of input; dynamic-operand skipped, no rank of input; "
        "vec-tile-rank skipped, no rank of input",
        "coverage: 2 kernels: 0 with declared shapes, 0 with call-site shapes, 2 unknown (0 of 2 = 0% checked "
        "with concrete shapes); ops: 3 of 5 = 60% reached (every check that applies ran), 0 = 0% with every "
        "shape and tile known",
    ]


CONSTANTS_KERNEL = '''
import pypto
from consts import ROWS, TILE_C
from typed_consts import COLS


@pypto.frontend.jit
def k(x: pypto.Tensor([ROWS, COLS], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, TILE_C)
    out[:] = x.sum(-1, keepdim=True)
'''


def test_constants_whose_value_is_not_read_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # consts.py never mentions pypto: its plain ints are not part of its interface for mypy (reading
    # them would make warm and daemon runs differ from cold ones), so the kernel's dim and tile are
    # unknown; the report names each constant and the fix. A Final constant is read.
    (tmp_path / "consts.py").write_text("TILE_C = 4\nROWS = 8\n")
    (tmp_path / "typed_consts.py").write_text("from typing import Final\n\nCOLS: Final = 64\n")
    (tmp_path / "k.py").write_text(textwrap.dedent(CONSTANTS_KERNEL))
    monkeypatch.chdir(tmp_path)
    assert main(["--coverage", "k.py"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-4:-1] == [
        "  k.py:10: Tensor.sum: reduce-align skipped, no vec tile entry 1",
        "  consts.ROWS: a module constant whose value mypy does not keep (a plain int of a module that does not "
        "mention pypto, or one bound more than once): its value is not read; declare it `ROWS: Final = ...` in consts",
        "  consts.TILE_C: a module constant whose value mypy does not keep (a plain int of a module that does not "
        "mention pypto, or one bound more than once): its value is not read; declare it `TILE_C: Final = ...` in "
        "consts",
    ]
    assert main(["--coverage", "--output", "json", "k.py"]) == 0
    entry = json.loads(capsys.readouterr().out)["coverage"][0]
    assert entry["unread_constants"] == ["consts.ROWS", "consts.TILE_C"]


VIEW_KERNEL = '''
import pypto
from consts import ROWS


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.view(x, [ROWS, 64], [0, 0])
'''


def test_a_constant_only_an_ops_argument_needs_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # The tile flow skips the arguments of a call into a stub (pypto's ops: no body to enter) in
    # a plain run; the coverage report still reads them, for the constants they need.
    (tmp_path / "consts.py").write_text("ROWS = 8\n")
    (tmp_path / "k.py").write_text(textwrap.dedent(VIEW_KERNEL))
    monkeypatch.chdir(tmp_path)
    assert main(["--coverage", "--output", "json", "k.py"]) == 0
    entry = json.loads(capsys.readouterr().out)["coverage"][0]
    assert entry["unread_constants"] == ["consts.ROWS"]
