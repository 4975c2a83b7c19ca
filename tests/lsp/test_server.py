"""pypto-lsp end to end: the server started as an editor starts it, spoken to over stdio.

One server for the module, on a copy of examples/ (no mypy config there: the generated config
and the signal-first filter, as pypto-check in that folder).
"""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

from .stdio_client import Client  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.py"))


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lsp-examples")
    for name in EXAMPLES:
        shutil.copy(ROOT / "examples" / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def client(root: Path) -> Iterator[Client]:
    c = Client(root)
    yield c
    assert c.shutdown() == 0


def _pypto_check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy_plugin.cli", *args], cwd=root, capture_output=True,
                          text=True, check=False)


def _as_records(diags: list[dict[str, Any]], path: str) -> list[dict[str, Any]]:
    """Diagnostics back in pypto-check's JSON form (LSP ranges are 0-based, end exclusive)."""
    severity = {1: "error", 2: "warning", 3: "note"}
    out = []
    for d in diags:
        message, *notes = d["message"].split("\n")
        r = d["range"]
        out.append({"path": path, "line": r["start"]["line"] + 1, "column": r["start"]["character"] + 1,
                    "end_line": r["end"]["line"] + 1, "end_column": r["end"]["character"],
                    "severity": severity[d["severity"]], "code": d.get("code"), "message": message, "notes": notes})
    return out


def test_diagnostics_equal_pypto_check_json(client: Client, root: Path) -> None:
    run = _pypto_check(root, "-o", "json", *EXAMPLES)
    expected: dict[str, list[dict[str, Any]]] = {name: [] for name in EXAMPLES}
    for rec in json.loads(run.stdout)["errors"]:
        expected[rec["path"]].append(rec)
    assert all(expected[name] for name in EXAMPLES if name.endswith("_bad.py"))
    for name in EXAMPLES:
        uri = client.open(root / name)
        got = _as_records(client.diagnostics(uri), name)
        assert got == expected[name], name
    codes = client.diagnostics(client.uri(root / "l2_norm_bad.py"))
    assert codes[0]["codeDescription"]["href"].endswith("codes.md#pypto-no-method")


def test_hover_shape_and_tiles(client: Client, root: Path) -> None:
    uri = client.open(root / "rms_norm.py")
    client.diagnostics(uri)
    # mean_sq = sq.sum(-1, keepdim=True) / HIDDEN   (line 18)
    hover = client.hover(uri, 17, 5)
    assert hover["contents"]["value"] == "`[8, 1] DT_FP32`\n\nvec tile (8, 64), cube tile not set"
    # a parameter: the kernel starts with no tiles
    hover = client.hover(uri, 11, 5)
    assert hover["contents"]["value"] == "`[8, 64] DT_FP32`\n\nvec tile not set, cube tile not set"
    assert client.hover(uri, 0, 0) is None  # the docstring: no tensor


def test_inlay_hints(client: Client, root: Path) -> None:
    uri = client.open(root / "rms_norm.py")
    client.diagnostics(uri)
    hints = {(h["position"]["line"], h["label"]) for h in client.inlay_hints(uri)}
    assert hints == {(16, "[8, 64] FP32"), (17, "[8, 1] FP32"), (18, "[8, 1] FP32")}


def test_host_call_hover(client: Client, root: Path) -> None:
    uri = client.open(root / "host_calls_bad.py")
    client.diagnostics(uri)
    # out[:] = x * w   (line 15): x is [] in the annotation, known at each call
    text = client.hover(uri, 14, 13)["contents"]["value"]
    assert text.splitlines()[::2] == [
        "`[...] DT_BF16` (not all known here)",
        "vec tile (8, 64), cube tile not set",
        "with the call at host_calls_bad.py:23: `[8, 64] DT_BF16`",
        "with the call at host_calls_bad.py:23: `[8, 128] DT_BF16`",
    ]


def _apply(text: str, edits: list[dict[str, Any]]) -> str:
    lines = text.splitlines(keepends=True)
    for e in sorted(edits, key=lambda e: e["range"]["start"]["line"], reverse=True):
        start, end = e["range"]["start"], e["range"]["end"]
        assert start["character"] == 0 and end["character"] == 0  # whole lines
        lines[start["line"]:end["line"]] = [e["newText"]]
    return "".join(lines)


def _diff(name: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"a/{name}", tofile=f"b/{name}"))


# A host-call fix and a kernel fix (each candidate of --diff is a cold mypy run: a few seconds).
FIXED = ["host_calls_bad.py", "softmax_rows_bad.py"]


@pytest.fixture(scope="module")
def expected_diffs(root: Path) -> dict[str, str]:
    """``pypto-check --diff`` of the files (one run), by file."""
    out: dict[str, str] = {}
    name = ""
    for line in _pypto_check(root, "--diff", *FIXED).stdout.splitlines(keepends=True):
        if line.startswith("--- a/"):
            name = line[len("--- a/"):].strip()
        out[name] = out.get(name, "") + line
    return out


@pytest.mark.parametrize("name", FIXED)
def test_fix_all_edit_equals_diff(client: Client, root: Path, expected_diffs: dict[str, str], name: str) -> None:
    uri = client.open(root / name)
    diags = client.diagnostics(uri)
    actions = client.code_actions(uri, [], only=["source.fixAll"])
    assert [a["kind"] for a in actions] == ["source.fixAll.pypto"]
    resolved = client.request("codeAction/resolve", actions[0])
    before = (root / name).read_text(encoding="utf-8")
    fixed = _apply(before, resolved["edit"]["changes"].get(uri, []))
    assert expected_diffs[name]  # each has something to fix
    assert _diff(name, before, fixed) == expected_diffs[name]
    # The quick fix of one finding: that finding's part of the whole fix.
    fixable = [d for d in diags if d["code"] in ("pypto-no-method", "pypto-call-layout", "pypto-reduce-align")]
    quick = client.code_actions(uri, fixable[:1])
    assert quick[0]["kind"] == "quickfix" and quick[0]["diagnostics"] == fixable[:1]
    one = _apply(before, quick[0]["edit"]["changes"][uri]).splitlines()
    changed = [i for i, (a, b) in enumerate(zip(before.splitlines(), one)) if a != b]
    assert changed and all(one[i] == fixed.splitlines()[i] for i in changed)


def test_unsaved_change_gives_a_new_diagnostic_and_writes_nothing(client: Client, root: Path) -> None:
    path = root / "rms_norm.py"
    uri = client.open(path)
    assert client.diagnostics(uri) == []
    on_disk = path.read_bytes(), path.stat().st_mtime_ns
    files = sorted(p.name for p in root.iterdir())
    text = on_disk[0].decode().replace("pypto.set_vec_tile_shapes(ROWS, HIDDEN)", "pypto.set_vec_tile_shapes(ROWS, 4)")
    version = client.change(uri, text)
    diags = client.diagnostics(uri, version)
    assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("pypto-reduce-align", 17)]
    assert "vec tile (8, 4)" in client.hover(uri, 17, 5)["contents"]["value"]  # the unsaved text's tiles
    assert (path.read_bytes(), path.stat().st_mtime_ns) == on_disk
    assert sorted(p.name for p in root.iterdir()) == files
    version = client.change(uri, on_disk[0].decode())
    assert client.diagnostics(uri, version) == []


def test_second_file_and_back(client: Client, root: Path) -> None:
    first, second = root / "softmax_rows_fixed.py", root / "attention_scores_bad.py"
    a = client.open(first)
    assert client.diagnostics(a) == []
    b = client.open(second)
    assert client.diagnostics(b)
    client.close(b)
    text = first.read_text(encoding="utf-8") + "\n"
    version = client.change(a, text)
    assert client.diagnostics(a, version) == []
    b = client.open(second)
    assert client.diagnostics(b)
    notes = root / "notes.md"
    notes.write_text("# not Python: never checked\n", encoding="utf-8")
    md = client.open(notes, language="markdown")
    version = client.change(a, text + "\n")
    assert client.diagnostics(a, version) == []
    assert not [n for n in client.notifications if n.get("params", {}).get("uri") == md]
    assert client.process.poll() is None
    assert not [line for line in client.stderr if "Traceback" in line]


UNKNOWN_SHAPES = """\
import pypto
import torch


@pypto.frontend.jit
def scale(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    y = x * 2.0
    out[:] = y


def test_scale() -> None:
    scale(torch.ones(8, 16), torch.empty(8, 16))
    scale(torch.ones(4, 16), torch.empty(4, 16))
"""


def test_unknown_hints_by_setting(client: Client, root: Path) -> None:
    path = root / "unknown_shapes.py"
    path.write_text(UNKNOWN_SHAPES, encoding="utf-8")
    uri = client.open(path)
    assert client.diagnostics(uri) == []

    def labels(setting: str) -> list[tuple[int, str]]:
        client.notify("workspace/didChangeConfiguration", {"settings": {"pypto": {"inlayHints": {"unknown": setting}}}})
        return [(h["position"]["line"], h["label"]) for h in client.inlay_hints(uri)]

    try:
        assert labels("hide") == []
        assert labels("show") == [(7, "[...] FP32")]
        assert labels("callSites") == [(7, "[8, 16] FP32 | [4, 16] FP32")]
    finally:
        labels("hide")
    text = client.hover(uri, 7, 4)["contents"]["value"].split("\n\n")
    assert text == ["`[...] DT_FP32` (not all known here)", "vec tile (8, 16), cube tile not set",
                    "with the call at unknown_shapes.py:13: `[8, 16] DT_FP32`",
                    "with the call at unknown_shapes.py:14: `[4, 16] DT_FP32`"]
