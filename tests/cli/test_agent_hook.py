"""``pypto-check --hook claude|opencode``: a coding agent's post-edit hook (the JSON in, the
agent's answer out), run as the agent runs it: the installed command, the payload on stdin."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from mypy_plugin.cli.agent_hook import answer, edited_path, reason

BAD = '''
import pypto


@pypto.frontend.jit
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = a.sum(-1, keepdim=True)
'''
FINDING = ("k.py:8: error: Tensor.sum reduces the last axis of [8, 64] DT_FP32: vec tile (8, 4) has 4 at index 1, "
           "4 x 4 bytes = 16 bytes, not a multiple of 32 bytes (a multiple of 8 elements); the compiler raises "
           "FC1001  [pypto-reduce-align]")


def _hook(agent: str, payload: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["pypto-check", "--hook", agent], input=json.dumps(payload), cwd=cwd,
                          capture_output=True, text=True, check=False, timeout=300)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "k.py").write_text(textwrap.dedent(BAD))
    (tmp_path / "good.py").write_text(textwrap.dedent(BAD).replace("set_vec_tile_shapes(8, 4)", "set_vec_tile_shapes(8, 16)"))
    (tmp_path / "notes.md").write_text("# not Python\n")
    return tmp_path


def test_claude_blocks_with_the_findings_as_the_reason(project: Path) -> None:
    done = _hook("claude", {"hook_event_name": "PostToolUse", "tool_name": "Edit",
                            "tool_input": {"file_path": "k.py"}}, project)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["decision"] == "block"
    assert out["reason"].splitlines()[0] == FINDING
    assert "k.py:8: note: set that tile entry to a multiple of 8 (e.g. 8)" in out["reason"]


def test_claude_allows_a_clean_file_by_printing_nothing(project: Path) -> None:
    for path in ("good.py", "notes.md", "missing.py"):
        done = _hook("claude", {"tool_input": {"file_path": path}}, project)
        assert (done.returncode, done.stdout) == (0, ""), (path, done.stderr)


def test_opencode_answers_block_or_allow(project: Path) -> None:
    bad = json.loads(_hook("opencode", {"tool": "edit", "args": {"filePath": str(project / "k.py")}}, project).stdout)
    assert bad["decision"] == "block" and FINDING.split(": ", 1)[1] in bad["reason"]
    good = json.loads(_hook("opencode", {"tool": "write", "args": {"filePath": "good.py"}}, project).stdout)
    assert good == {"decision": "allow", "reason": ""}


def test_a_payload_without_a_file_never_blocks(project: Path) -> None:
    done = subprocess.run(["pypto-check", "--hook", "claude"], input="not json", cwd=project,
                          capture_output=True, text=True, check=False, timeout=60)
    assert (done.returncode, done.stdout) == (0, "")
    assert edited_path("claude", {"tool_input": {"command": "ls"}}) is None
    assert edited_path("opencode", {"filePath": "a.py"}) == "a.py"


def test_reason_keeps_the_first_findings_and_counts_the_rest() -> None:
    report = {"errors": [{"path": "k.py", "line": i, "severity": "error", "code": "pypto-broadcast",
                          "message": f"m{i}", "notes": []} for i in range(1, 4)]}
    assert reason(report, limit=2).splitlines() == [
        "k.py:1: error: m1  [pypto-broadcast]", "k.py:2: error: m2  [pypto-broadcast]",
        "... and 1 more (run pypto-check on the file)"]
    assert answer("claude", "") == ""


def test_hook_takes_no_paths(project: Path) -> None:
    done = subprocess.run(["pypto-check", "--hook", "claude", "k.py"], cwd=project, capture_output=True,
                          text=True, check=False, timeout=60)
    assert done.returncode == 2 and "--hook reads the edited file from the hook's JSON" in done.stderr
