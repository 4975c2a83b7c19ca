"""The compile loop the probe scripts share (``scripts/probe_grid.py``), on a fake compiler: each
pair's kernel is written and compiled once, in order, and the grid reads back into the tables
``probe_no_tile.py`` and ``probe_op_dtypes.py`` write, in the format they always wrote."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import probe_grid  # noqa: E402
import probe_no_tile  # noqa: E402
import probe_op_dtypes  # noqa: E402


@dataclass
class Verdict:
    """What ``tests.oracle.runner.compile_file`` gives, as far as the probes read it."""

    status: str
    text: str

    @property
    def accepted(self) -> bool:
        return self.status == "OK"


def fake(outcomes: dict[str, Verdict], seen: list[tuple[str, str]]) -> probe_grid.Compile:
    def compile(path: str, workdir: str) -> Verdict:
        with open(path) as f:
            seen.append((os.path.basename(path), f.read()))
        return outcomes[os.path.basename(path)]

    return compile


def test_each_pair_is_written_compiled_once_and_read_by_the_verdict(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    outcomes = {"exp_DT_FP32.py": Verdict("OK", ""), "exp_DT_INT8.py": Verdict("ERROR", "boom\nmore"),
                "minimum_int_DT_FP32.py": Verdict("OK", ""), "minimum_int_DT_INT8.py": Verdict("ERROR", "x")}
    seen: list[tuple[str, str]] = []
    grid = probe_grid.run_grid(["exp", "minimum/int"], ["DT_FP32", "DT_INT8"], lambda row, dt: f"{row} {dt}",
                               lambda v: (v.status, v.text.splitlines()[0] if v.text else ""), str(tmp_path),
                               compile=fake(outcomes, seen))
    assert grid == {"exp": {"DT_FP32": ("OK", ""), "DT_INT8": ("ERROR", "boom")},
                    "minimum/int": {"DT_FP32": ("OK", ""), "DT_INT8": ("ERROR", "x")}}
    assert seen == [("exp_DT_FP32.py", "exp DT_FP32"), ("exp_DT_INT8.py", "exp DT_INT8"),
                    ("minimum_int_DT_FP32.py", "minimum/int DT_FP32"), ("minimum_int_DT_INT8.py", "minimum/int DT_INT8")]
    assert capsys.readouterr().out.splitlines()[1] == f"{'exp':22} {'DT_INT8':9} {'ERROR':5} boom"


def test_probe_no_tile_keeps_its_kernels_verdicts_and_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcomes = {"sum_DT_FP32.py": Verdict("CRASH", "SIGSEGV"),
                "exp_DT_FP32.py": Verdict("ERROR", "Errcode: F21004! op [EXP]tile shape not set, func X"),
                "clone_DT_FP32.py": Verdict("OK", "")}
    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(probe_grid, "_compile_file", fake(outcomes, seen))
    table = probe_no_tile.probe(["sum", "exp", "clone"], ["DT_FP32"], str(tmp_path))
    assert seen[1] == ("exp_DT_FP32.py", probe_no_tile.kernel("exp", "DT_FP32"))
    assert table == {"sum": {"DT_FP32": ("SIGSEGV", "SIGSEGV")}, "exp": {"DT_FP32": ("F21004", "op [EXP]tile shape not set")},
                     "clone": {"DT_FP32": ("OK", "")}}
    assert "    'exp': dict.fromkeys(['DT_FP32'], ('F21004', 'op [EXP]tile shape not set')),\n" in probe_no_tile.render(
        table, ["DT_FP32"])


def test_the_committed_tables_are_what_the_scripts_render_from_their_rows() -> None:
    """Render from the rows of the current files: byte for byte the files (the format is unchanged)."""
    from mypy_plugin.knowledge import no_tile_data, op_dtypes_data, op_dtypes_scalar_data

    every = [n for n, op in probe_no_tile.OPS.items() if op.tile in probe_no_tile.REGIMES and n not in probe_no_tile.SAME_AS]
    rendered = probe_no_tile.render(probe_no_tile.recorded(every), list(no_tile_data.PROBED))
    assert rendered == (ROOT / "mypy_plugin" / "knowledge" / "no_tile_data.py").read_text()
    p = probe_op_dtypes
    ops = [n for n, op in p.OPS.items() if op.kind in p.KINDS and n not in p.SKIP and n not in p.SAME_AS]
    keys = [f"{op}/{kind}" for op in p.SCALAR_FORMS for kind in p.scalar_kinds(op)]
    rendered = p.render(p.recorded(ops), list(op_dtypes_data.PROBED))
    assert rendered == (ROOT / "mypy_plugin" / "knowledge" / "op_dtypes_data.py").read_text()
    rendered = p.render_scalars(p.recorded_scalars(keys), list(op_dtypes_scalar_data.PROBED))
    assert rendered == (ROOT / "mypy_plugin" / "knowledge" / "op_dtypes_scalar_data.py").read_text()
