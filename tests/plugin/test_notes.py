"""Each fix note is right for the code it is attached to: applying what it says makes the error go.

The fixed source is built from the note's own text (not written by hand), so a wrong or generic
note (a keepdim=True where there is no reduction, an aligned entry named as misaligned, a
placeholder instead of the user's name) fails here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from mypy import api

# A long run (each note applied and the kernel checked again): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

HEAD = '''\
import pypto


@pypto.frontend.jit
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), q: pypto.Tensor([16, 32], pypto.DT_FP16),
      kt: pypto.Tensor([16, 32], pypto.DT_FP16), b: pypto.Tensor([32, 16], pypto.DT_FP16),
      out: pypto.Tensor([8, 64], pypto.DT_FP32), o1: pypto.Tensor([8, 1], pypto.DT_FP32),
      o2: pypto.Tensor([4, 128], pypto.DT_FP32), o3: pypto.Tensor([8, 64], pypto.DT_BF16),
      o4: pypto.Tensor([16, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
'''


def _errors(tmp_path: Path, body: str) -> list[tuple[int, str, str, list[str]]]:
    """(line, code, message, notes) of each error in the kernel HEAD + body."""
    return _mypy_errors(tmp_path, "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n", HEAD + body)


def _mypy_errors(tmp_path: Path, ini: str, source: str) -> list[tuple[int, str, str, list[str]]]:
    """(line, code, message, notes) of each error mypy reports in ``source`` as k.py."""
    (tmp_path / "mypy.ini").write_text(ini)
    (tmp_path / "k.py").write_text(source)
    stdout, _, _ = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--no-incremental",
                            "--show-error-codes", "--no-pretty", "--cache-dir", str(tmp_path / "cache"),
                            str(tmp_path / "k.py")])
    found: list[tuple[int, str, str, list[str]]] = []
    for line in stdout.splitlines():
        m = re.match(r".*k\.py:(\d+): (error|note): (.*?)(?:  \[([a-z0-9-]+)\])?$", line)
        if m is None:
            continue
        if m[2] == "error":
            found.append((int(m[1]), m[4] or "", m[3], []))
        elif found and found[-1][0] == int(m[1]):
            found[-1][3].append(m[3])
    return found


def _fix_no_method(body: str, note: str) -> str:
    call = re.fullmatch(r"Use (pypto\.abs\((\w+)\))", note)
    assert call is not None, note
    return body.replace(f"{call[2]}.abs()", call[1])


def _fix_keepdim(body: str, note: str) -> str:
    assert "reduce with keepdim=True" in note, note
    return body.replace("a.sum(-1)", "a.sum(-1, keepdim=True)")


def _fix_annotation(body: str, note: str) -> str:
    # The result is a kept-dim [8, 1] max: keepdim is already there, so the note must not ask for it.
    assert "keepdim" not in note, note
    m = re.fullmatch(r"make the result \[8, 64\], or fix the annotation of (\w+)", note)
    assert m is not None, note
    return body.replace(f"{m[1]}[:] = m", f"{m[1]}[:] = m.expand_clone([8, 64])")


def _fix_reshape(body: str, note: str) -> str:
    m = re.fullmatch(r"same number of elements: reshape the result to (\[[\d, ]+\]) before writing it", note)
    assert m is not None, note
    return body.replace("o2[:] = a", f"o2[:] = pypto.reshape(a, {m[1]})")


def _fix_cube(body: str, note: str) -> str:
    m = re.fullmatch(r"use a multiple of 16: kL0 = (\d+) \(the first entry of the k list\) in .*", note)
    assert m is not None, note  # nL0 (16) is aligned: the note must not name it
    return body.replace("[8, 16], [16, 16])", f"[{m[1]}, 16], [16, 16])")


def _fix_transpose(body: str, note: str) -> str:
    m = re.fullmatch(r"let the matmul transpose it: (pypto\.matmul\(q, kt, .*\))", note)
    assert m is not None, note
    return body.replace("pypto.matmul(q, kt.T, pypto.DT_FP32)", m[1])


def _fix_out_dtype(body: str, note: str) -> str:
    # the note quotes the value as written (issue 38): applying it is replacing the value by it
    m = re.fullmatch(r"cast it first: (pypto\.cast\(a \* 2\.0, pypto\.DT_\w+\))", note)
    assert m is not None, note
    return body.replace("o3[:] = a * 2.0", f"o3[:] = {m[1]}")


CASES: list[tuple[str, str, str, Callable[[str, str], str]]] = [
    ("no_method_names_the_receiver", "pypto-no-method",
     "    s = a * 2.0\n    out[:] = s.abs()\n", _fix_no_method),
    ("out_shape_lost_axis", "pypto-out-shape", "    o1[:] = a.sum(-1)\n", _fix_keepdim),
    ("out_shape_kept_dim_is_not_told_keepdim", "pypto-out-shape",
     "    m = a.amax(-1, keepdim=True)\n    out[:] = m\n", _fix_annotation),
    ("out_shape_same_count", "pypto-out-shape", "    o2[:] = a\n", _fix_reshape),
    ("out_dtype", "pypto-out-dtype", "    o3[:] = a * 2.0\n", _fix_out_dtype),
    ("cube_tile_names_only_the_bad_entry", "pypto-cube-tile",
     "    pypto.set_cube_tile_shapes([16, 16], [8, 16], [16, 16])\n    o4[:] = pypto.matmul(q, b, pypto.DT_FP32)\n",
     _fix_cube),
    ("transpose", "pypto-transpose",
     "    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])\n"
     "    o4[:] = pypto.matmul(q, kt.T, pypto.DT_FP32)\n", _fix_transpose),
]


@pytest.mark.parametrize("name, code, body, apply", CASES, ids=[c[0] for c in CASES])
def test_applying_the_note_fixes_the_error(
    tmp_path: Path, name: str, code: str, body: str, apply: Callable[[str, str], str]
) -> None:
    errors = _errors(tmp_path, body)
    assert [e[1] for e in errors] == [code], errors
    notes = errors[0][3]
    assert len(notes) == 1, errors
    fixed = apply(body, notes[0])
    assert fixed != body
    assert _errors(tmp_path, fixed) == []


HOST_CALL = '''\
import pypto
import torch


@pypto.frontend.jit
def mm(a: pypto.Tensor([16, 64], pypto.DT_FP16), b: pypto.Tensor([64, 32], pypto.DT_FP16),
       c: pypto.Tensor([16, 32], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
    c[:] = pypto.matmul(a, b, pypto.DT_FP32)


def run() -> None:
    a = torch.randn(16, 64, dtype=torch.float16)
    w = torch.randn(32, 64, dtype=torch.float16)
    mm(a, w.t(), torch.empty(16, 32))
'''


def test_the_layout_note_names_the_argument_as_written(tmp_path: Path) -> None:
    ini = "[mypy]\nplugins = mypy_plugin\n\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
    [(line, code, _, notes)] = _mypy_errors(tmp_path, ini, HOST_CALL)
    assert (line, code, notes) == (15, "pypto-call-layout", ["pass w.t().contiguous()"])
    m = re.fullmatch(r"pass (.+)\.contiguous\(\)", notes[0])
    assert m is not None
    assert _mypy_errors(tmp_path, ini, HOST_CALL.replace(f"mm(a, {m[1]},", f"mm(a, {m[1]}.contiguous(),")) == []
