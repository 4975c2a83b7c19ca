"""First contact (issue 32): what a new user sees first -- spans, coverage counts and reasons,
and paths written as mypy writes them."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mypy_plugin.cli import main

_INI = "[mypy]\nplugins = mypy_plugin\n\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"

FACTORY = '''
import torch
import pypto


def make(rows: int):
    @pypto.frontend.jit()
    def kernel(a: pypto.Tensor([rows, 8], pypto.DT_FP32), b: pypto.Tensor([], pypto.DT_FP32),
               out: pypto.Tensor([rows, 8], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 8)
        out[:] = a + b

    return kernel


def test_make() -> None:
    k = make(16)
    k(torch.randn(16, 8), torch.randn(8, 8), torch.empty(16, 8))
    k(torch.randn(16, 8), torch.randn(16, 8),
      torch.empty(8, 8))
'''


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    main(list(argv))
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


@pytest.mark.slow  # every output format, each a run
def test_call_site_findings_span_the_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # A factory's kernel (found by the host evaluator, not at a call mypy sees) and a finding of
    # the kernel checked again with a call's tensors: each spans its whole expression.
    (tmp_path / "k.py").write_text(textwrap.dedent(FACTORY))
    (tmp_path / "mypy.ini").write_text(_INI)
    monkeypatch.chdir(tmp_path)
    errors = _json(capsys, "--output", "json", "k.py", "--no-incremental")["errors"]
    assert isinstance(errors, list)
    assert [(e["code"], e["line"], e["column"], e["end_line"], e["end_column"]) for e in errors] == [
        ("pypto-out-shape", 11, 9, 11, 14),  # out[:], with the tensors of the call at line 19
        ("pypto-broadcast", 11, 18, 11, 22),  # a + b, with the tensors of the call at line 18
        ("pypto-call-shape", 19, 5, 20, 24),  # k(...) over two lines
    ]


KERNEL = '''
import pypto


@pypto.frontend.jit
def k(a: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a * 2.0


@pypto.frontend.jit
def shaped_by_calls(a: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a * 2.0
'''

TEST = '''
import os

import pytest
import torch

from kernels import k, shaped_by_calls


def test_k() -> None:
    a = torch.randn(8, 16)
    k(a, torch.empty(8, 16))
'''

SAME = '''
import os

import pytest
import torch
import pypto


@pypto.frontend.jit
def runtime_shaped(a: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = a * 2.0


@pytest.mark.parametrize("n", [int(os.environ["N"])])
def test_runtime_shaped(n):
    a = torch.randn(8, n)
    runtime_shaped(a, a)
'''


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "kernels.py").write_text(textwrap.dedent(KERNEL))
    (tmp_path / "test_kernels.py").write_text(textwrap.dedent(TEST))
    (tmp_path / "same.py").write_text(textwrap.dedent(SAME))
    (tmp_path / "mypy.ini").write_text(_INI)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_coverage_counts_the_calls_of_other_modules_and_names_why_a_call_is_unknown(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    coverage = _json(capsys, "--coverage", "--output", "json", ".")["coverage"]
    assert isinstance(coverage, list)
    assert [(e["kernel"], e["checked"], e["call_sites"], e["reason"]) for e in coverage] == [
        ("kernels.py:6:k", "declared", 1, ""),  # called (known tensors) from test_kernels.py
        ("kernels.py:12:shaped_by_calls", "unknown", 0,
         "a: shape from the runtime tensor; out: shape from the runtime tensor; no call in the checked files"),
        ("same.py:10:runtime_shaped", "unknown", 0,
         "a: shape from the runtime tensor; out: shape from the runtime tensor; 1 call(s) in its module whose "
         'tensors the host code does not prove (line 18: "a" has an unknown shape (in test_runtime_shaped, whose '
         "pytest.mark.parametrize values the checker cannot read))"),
    ]


@pytest.mark.parametrize("spelling", ["./sub", "sub", "sub/"])
def test_paths_read_as_mypy_writes_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "kernels.py").write_text(textwrap.dedent(KERNEL))
    (tmp_path / "mypy.ini").write_text(_INI)
    monkeypatch.chdir(tmp_path)
    coverage = _json(capsys, "--coverage", "--output", "json", spelling)["coverage"]
    assert isinstance(coverage, list)
    assert [e["kernel"] for e in coverage] == ["sub/kernels.py:6:k", "sub/kernels.py:12:shaped_by_calls"]
    monkeypatch.chdir(tmp_path / "sub")
    main(["--coverage", "."])
    assert "kernels.py:6: kernel k: checked with declared shapes" in capsys.readouterr().out.splitlines()


ROOT = Path(__file__).resolve().parents[2]


def test_fix_after_checking_a_copy_fixes_the_files_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # mypy's cache is keyed by module name: b/l2.py checked first is module "l2" too, same bytes.
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "l2.py").write_text((ROOT / "examples" / "l2_norm_bad.py").read_text())
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "l2.py").write_text((ROOT / "examples" / "l2_norm_bad.py").read_text())
    monkeypatch.chdir(tmp_path)
    assert main(["b"]) == 1
    capsys.readouterr()
    assert main(["--diff", "a"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("--- a/a/l2.py\n+++ b/a/l2.py\n")
    assert err == "Would fix 2 errors in 1 file; 0 remaining\n"


def test_fix_lists_what_remains_signal_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # No mypy config: as a check run, mypy's own errors are counted, not listed.
    source = (ROOT / "examples" / "attention_scores_bad.py").read_text() + '\n\nnot_pypto: int = "s"\n'
    (tmp_path / "k.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    assert main(["--fix", "k.py"]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    errors = [ln for ln in lines[:-1] if ": error: " in ln]
    assert [ln.split(": error: ")[0] for ln in errors] == ["k.py:20", "k.py:22"]
    assert all(ln.endswith(("[pypto-matmul-k]", "[pypto-dtype-mismatch]")) for ln in errors), out
    # what remains keeps its notes, as a check lists them (issue 38)
    assert lines[:-1] == [errors[0], "k.py:20: note: use pypto.matmul(q, k, pypto.DT_FP16, b_trans=True)",
                          errors[1], "k.py:22: note: the result is stored in a DT_FP32 output: cast the other side, "
                                     "pypto.cast(raw, pypto.DT_FP32)"], out
    assert lines[-1] == ("pypto-check: 1 other mypy error hidden (typing only, or not about PyPTO; no mypy config found); "
                         "--all shows them")
    assert err == "Fixed 1 error in 1 file; 2 remaining\n"


SCRIPT_FOLDER_HELPER = '''
def scale(x: int) -> int:
    return x * 2


wrong: int = "not an int"
'''

SCRIPT_FOLDER_TEST = '''
import pypto
from utils.compare import scale


@pypto.frontend.jit
def kernel(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = a.abs()


print(scale(2))
'''


@pytest.mark.parametrize("fix", [False, True])
def test_a_script_folder_with_a_utils_subfolder_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str], fix: bool) -> None:
    # PyPTO's model folders are run as scripts (`python model/test_x.py`) and import a subfolder
    # without __init__.py (`from utils.compare import compare`): mypy, given the folder, finds
    # utils/compare.py as "compare" and as "utils.compare" and stops the whole build. pypto-check
    # checks it once, as its importers name it, and says so.
    (tmp_path / "model" / "utils").mkdir(parents=True)
    (tmp_path / "model" / "utils" / "compare.py").write_text(SCRIPT_FOLDER_HELPER)
    (tmp_path / "model" / "test_model.py").write_text(SCRIPT_FOLDER_TEST)
    monkeypatch.chdir(tmp_path)
    if fix:
        assert main(["--diff", "model"]) == 0
        out, err = capsys.readouterr()
        assert "-    out[:] = a.abs()\n+    out[:] = pypto.abs(a)\n" in out
        return
    assert main(["--all", "model"]) == 1
    out, err = capsys.readouterr()
    assert [ln.split(": error: ")[0] for ln in out.splitlines() if ": error: " in ln] == [
        "model/utils/compare.py:6", "model/test_model.py:9"]
    assert err == ('pypto-check: model/utils/compare.py is a source of its own folder ("compare") and a module '
                   'its neighbours import ("utils.compare"): checked once, as "utils.compare"\n')
