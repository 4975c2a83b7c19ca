"""pypto-check's own options: argparse, no abbreviations, mypy options after --, --version/--help/--explain."""

from __future__ import annotations

import shutil
from pathlib import Path

import mypy.version
import pytest

from mypy_plugin import errorcodes
from mypy_plugin.cli import main
from mypy_plugin.knowledge.codes import TABLE
from mypy_plugin.versions import TARGET_PYPTO, pypto_stubs_version

ROOT = Path(__file__).resolve().parents[2]


def _usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # usage errors go to stderr only (stdout may be a JSON report)
    return captured.err


@pytest.mark.parametrize("argv, expected", [
    (["--outp", "json", "k.py"], "unrecognized arguments: --outp"),
    (["--out=json", "k.py"], "unrecognized arguments: --out=json"),
    (["--disallow-untyped-defs", "k.py"], "unrecognized arguments: --disallow-untyped-defs"),
    (["--output", "xml", "k.py"], "argument -o/--output: invalid choice: 'xml'"),
    (["--output"], "argument -o/--output: expected one argument"),
    ([], "give at least one PATH to check"),
    (["--output", "json"], "give at least one PATH to check"),
])
def test_usage_errors_are_clear(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error(argv, capsys)
    assert f"pypto-check: error: {expected}" in err
    assert "mypy options go after --" in err


@pytest.mark.parametrize(("argv", "expected"), [
    (["--fix", "--fix-style=ones", "k.py"], "--fix-style ones is not offered"),
    (["--fix", "--fix-style=dense", "k.py"], "--fix-style takes operators, subscript, not dense"),
    (["--fix-style=operators", "k.py"], "--fix-style needs --fix or --diff"),
    (["--fix", "--diff", "k.py"], "--fix writes the fixes and --diff only shows them: give one"),
    (["--fix-only", "pypto-transpose", "k.py"], "--fix-only needs --fix or --diff"),
    (["--fix", "--fix-only", "pypto-axis", "k.py"], "--fix-only takes fixable codes"),
])
def test_fix_option_misuse_is_refused_not_passed_to_mypy(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _usage_error(argv, capsys)
    assert f"pypto-check: {expected}" in err


def test_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # no config: the default release
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out == (
        f"pypto-check {pypto_stubs_version()} (pypto-stubs), mypy {mypy.version.__version__}, "
        f"targets PyPTO {TARGET_PYPTO}\n"
    )
    assert "unknown" not in out  # the package is installed


def test_version_names_the_configured_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # pypto_version = "0.3" in the config pypto-check would use: it targets 0.3, not 0.2.0.
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["mypy_plugin"]\n\n[tool.pypto-stubs]\npypto_version = "0.3"\n'
    )
    (tmp_path / "other.ini").write_text("[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\npypto_version = 0.2\n")
    (tmp_path / "bad.ini").write_text("[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\npypto_version = 3\n")
    monkeypatch.chdir(tmp_path)
    head = f"pypto-check {pypto_stubs_version()} (pypto-stubs), mypy {mypy.version.__version__}, targets PyPTO"
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"{head} 0.3 (pypto_version in pyproject.toml; verified on {TARGET_PYPTO})\n"
    assert main(["--version", "--", "--config-file", "other.ini"]) == 0
    assert capsys.readouterr().out == f"{head} {TARGET_PYPTO}\n"
    assert main(["--version", "--", "--config-file=bad.ini"]) == 2
    assert capsys.readouterr().err == (
        'bad.ini: error: [pypto-stubs] pypto_version must be a PyPTO release like "0.2" or "0.3.1", not "3"\n'
    )


def test_help_lists_outputs_exit_codes_and_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for fmt in ("text", "json", "github", "sarif"):
        assert f"\n  {fmt} " in out
    assert "exit status: 0 nothing to report, 1 findings shown, 2 usage, config or fatal error" in out
    for code in errorcodes.BY_NAME:
        assert f"\n{code} " in out


def test_list_codes_has_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list-codes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [row.name for row in TABLE]
    assert sorted(row.name for row in TABLE) == sorted(errorcodes.BY_NAME)
    assert any(line.startswith("pypto-matmul-dtype-doc ") and line.endswith("(off by default)") for line in lines)


@pytest.mark.parametrize("name", ["pypto-axis", "axis", "[pypto-axis]"])
def test_explain(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--explain", name]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pypto-axis\n\nCatches: A reduction / transpose / unsqueeze axis out of range.\n")
    assert "PyPTO 0.2.0: FFFFFF 'Axis is not in the reasonable range!'." in out
    assert "Bad:\n    s = x.sum(2)     # x: [8, 64]\n\nFixed:\n    s = x.sum(-1)\n" in out


def test_explain_unknown_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--explain", "pypto-banana"]) == 2
    assert "unknown code 'pypto-banana'; known: pypto-transpose," in capsys.readouterr().err


def test_mypy_options_after_double_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    assert main(["k.py", "--", "--no-incremental", "--show-column-numbers"]) == 1
    out = capsys.readouterr().out
    assert "k.py:18:11: error: PyPTO tensors have no \".abs()\"" in out


def test_option_value_forms_are_equal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    outputs = []
    for argv in (["--output=json", "k.py", "--no-incremental"], ["--output", "json", "k.py", "--no-incremental"],
                 ["-o", "json", "k.py", "--", "--no-incremental"]):
        assert main(argv) == 1
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    assert '"code": "pypto-no-method"' in outputs[0]


def test_error_end_implies_columns_as_in_mypy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    assert main(["k.py", "--show-error-end", "--no-incremental"]) == 1
    assert "k.py:18:11:18:17: error: PyPTO tensors have no \".abs()\"" in capsys.readouterr().out
