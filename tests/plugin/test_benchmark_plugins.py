"""The benchmarks' own configurations load and do what ``run.py`` says they do: the ``annotations``
configuration (``benchmarks/annotations_only_plugin.py``) reads tensor annotations and relaxes
kernels' signatures, with no op hook and no check."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mypy import api

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import run  # noqa: E402

KERNEL = """\
import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor([8, 60], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 15)
    reveal_type(x)
    s = x.sum(-1, keepdim=True)
    reveal_type(s)
    out[:] = s

def host() -> None:
    k(1, 2)
"""


def test_annotations_only_plugin_reads_annotations_and_runs_no_check(tmp_path: Path) -> None:
    (tmp_path / "k.py").write_text(KERNEL)
    (tmp_path / "annotations.ini").write_text(run.ANNOTATIONS_INI.replace("mypy_path = typings\n", ""))
    stdout, stderr, status = api.run(["--config-file", str(tmp_path / "annotations.ini"), "--no-incremental",
                                      str(tmp_path / "k.py")])
    assert "INTERNAL ERROR" not in stdout + stderr and "error: " not in stderr, stdout + stderr
    lines = [line.replace(str(tmp_path) + "/", "") for line in stdout.splitlines()]
    # The annotation is read (a precise type); the op's result is the stub's (no op hook), the
    # misaligned reduction is not reported (no check), and the host call passes (relaxed signature).
    assert lines == [
        'k.py:6: note: Revealed type is "pypto.Tensor[tuple[Literal[8], Literal[60]], pypto._DT_FP32]"',
        'k.py:8: note: Revealed type is "pypto.Tensor[Any, Any]"',
        "Success: no issues found in 1 source file",
    ], stdout


def test_the_command_configuration_checks_what_the_plugin_configuration_checks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # run.py's "pypto-check" configuration runs the command with the plugin's config: the same
    # output as "plugin" (python -m mypy), so the two differ only in what the command costs.
    (tmp_path / "k.py").write_text(KERNEL.replace("    reveal_type(x)\n", "").replace("    reveal_type(s)\n", ""))
    (tmp_path / "plugin.ini").write_text(run.PLUGIN_INI.replace("mypy_path = typings\n", ""))
    monkeypatch.setattr(run, "TARGETS_DIRS", ["k.py"])
    outputs = {}
    for name in ("plugin", run.CLI):
        cfg, extra = run.CONFIGS[name]
        done = run.run_measured(run.command(sys.executable, name, cfg, tmp_path / f".cache-{name}", extra), tmp_path)
        assert done["rc"] == 1, done["out"]
        outputs[name] = done["out"]
    assert "[pypto-reduce-align]" in outputs["plugin"]
    assert outputs[run.CLI] == outputs["plugin"]


def test_recall_credits_a_kernel_bug_shown_at_a_host_call_to_the_kernel_file() -> None:
    """A kernel of another module traced with a host call's tensors reports at the call; its note
    names the kernel's line. The benchmark counts that finding for the kernel's file (the seeded
    bug's), not as a finding in a clean host file; a host file's own finding stays its own."""
    manifest = {"kernels": [{"path": "kernels/a.py", "bug": "broadcast"}, {"path": "kernels/b.py", "bug": ""}]}
    output = "\n".join([
        "hosts/host_a.py:13: error: operator +: operand [1, 1, 64] would be expanded along 2 axes  [pypto-broadcast]",
        "hosts/host_a.py:13: note: expand it one axis at a time",
        "hosts/host_a.py:13: note: at kernels/a.py:27, in kernel k, traced with the tensors of this call: x [4, 64]",
        "hosts/host_b.py:9: error: Kernel \"k\", parameter \"x\": dim 1 is 32, not 64  [pypto-call-shape]",
        "hosts/host_b.py:9: note: pass a tensor of the annotated shape",
    ])
    recall = run.plugin_recall(output, manifest)
    assert recall["buggy_files_flagged"] == 1 and recall["missed_files"] == []
    assert recall["clean_files_flagged"] == ["hosts/host_b.py"]
