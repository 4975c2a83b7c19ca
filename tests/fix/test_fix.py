"""``pypto-check --fix``: each fixable code, the exact fixed text, idempotence, comments kept,
and the cases it must leave alone."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mypy_plugin.fix.apply import run

ROOT = Path(__file__).resolve().parents[2]
CONFIG = "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n"

HEAD = '''\
import pypto


@pypto.frontend.jit
'''


def _fix(tmp_path: Path, body: str) -> tuple[str, list[str]]:
    """Fix ``body`` (a kernel after HEAD) and return the new text and the codes left."""
    (tmp_path / "mypy.ini").write_text(CONFIG)
    src = tmp_path / "kernel.py"
    src.write_text(HEAD + textwrap.dedent(body))
    args = ["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache")]
    outcome = run([str(src)], args)
    outcome.write()
    return src.read_text(), [f.code for f in outcome.remaining]


def _kernel(text: str) -> str:
    return HEAD + textwrap.dedent(text)


def test_transpose_on_matmul_operand_becomes_the_flag(tmp_path: Path) -> None:
    body = '''\
    def k(q: pypto.Tensor([16, 32], pypto.DT_FP16), kk: pypto.Tensor([16, 32], pypto.DT_FP16),
          out: pypto.Tensor([16, 16], pypto.DT_FP32)):
        pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
        out[:] = pypto.matmul(q, kk.T, pypto.DT_FP32)  # scores
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace("kk.T, pypto.DT_FP32)", "kk, pypto.DT_FP32, b_trans=True)"))
    assert left == []


def test_transpose_flips_an_existing_flag_and_keeps_a_trailing_comma(tmp_path: Path) -> None:
    body = '''\
    def k(q: pypto.Tensor([32, 16], pypto.DT_FP16), kk: pypto.Tensor([32, 16], pypto.DT_FP16),
          out: pypto.Tensor([16, 16], pypto.DT_FP32)):
        pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
        out[:] = pypto.matmul(
            q.T,
            kk, pypto.DT_FP32, a_trans=False,
        )
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace("q.T,", "q,").replace("a_trans=False", "a_trans=True"))
    assert left == []


@pytest.mark.slow  # several fix runs
def test_transpose_of_a_matrix_under_a_rank_2_tile_becomes_pypto_transpose(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP16), out: pypto.Tensor([64, 8], pypto.DT_FP16)):
        pypto.set_vec_tile_shapes(8, 64)
        out[:] = (x + 1.0).T  # flip
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace("(x + 1.0).T", "pypto.transpose((x + 1.0), 0, 1)"))
    assert left == []
    assert _fix_again(tmp_path) == (text, [])


def test_transpose_is_left_without_a_known_rank_2_tile_or_on_more_dims(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP16), y: pypto.Tensor([2, 8, 64], pypto.DT_FP16),
          out: pypto.Tensor([64, 8], pypto.DT_FP16), wide: bool):
        pypto.set_vec_tile_shapes(2, 8, 64)
        u = y.T  # torch reverses all three dims: no single transpose
        if wide:
            pypto.set_vec_tile_shapes(8, 64)
        out[:] = x.T  # which tile is in force depends on the path
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body)
    assert left == ["pypto-transpose", "pypto-transpose"]


def test_no_method_members_get_their_pypto_spelling(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP16), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        # magnitude first
        m = x.abs()
        out[:] = m.float()
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(
        body.replace("x.abs()", "pypto.abs(x)").replace("m.float()", "pypto.cast(m, pypto.DT_FP32)")
    )
    assert left == []


def test_clamp_becomes_clip_only_on_the_ranks_clip_compiles_for(tmp_path: Path) -> None:
    body = '''\
    def k(a: pypto.Tensor([16], pypto.DT_FP32), b: pypto.Tensor([2, 16], pypto.DT_FP32),
          out: pypto.Tensor([2, 16], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(2, 16)
        v = a.clamp(0.0, 1.0)  # 0.2.0: "The shape.size() only support 2~4, func Clip"
        out[:] = b.clamp(0.0, 1.0)
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace("b.clamp(0.0, 1.0)", "pypto.clip(b, 0.0, 1.0)"))
    assert left == ["pypto-no-method"]


def test_reduce_align_tile_entry_becomes_the_next_multiple(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([16, 64], pypto.DT_BF16), out: pypto.Tensor([16, 1], pypto.DT_BF16)):
        pypto.set_vec_tile_shapes(16, 8)  # rows, cols
        out[:] = x.amax(-1, keepdim=True)
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace("(16, 8)", "(16, 16)"))
    assert left == []


def test_reduce_align_changes_a_constant_that_is_only_a_tile_entry(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text(CONFIG)
    src = tmp_path / "kernel.py"
    source = "COL_TILE = 8\n" + _kernel('''\
    def k(x: pypto.Tensor([16, 64], pypto.DT_BF16), out: pypto.Tensor([16, 1], pypto.DT_BF16)):
        pypto.set_vec_tile_shapes(16, COL_TILE)
        out[:] = x.amax(-1, keepdim=True)
    ''')
    src.write_text(source)
    run([str(src)], ["--config-file", str(tmp_path / "mypy.ini")]).write()
    assert src.read_text() == source.replace("COL_TILE = 8", "COL_TILE = 16")


def test_reduce_align_leaves_a_tile_chosen_in_a_branch(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([16, 64], pypto.DT_BF16), out: pypto.Tensor([16, 1], pypto.DT_BF16), wide: bool):
        pypto.set_vec_tile_shapes(16, 8)
        if wide:
            pypto.set_vec_tile_shapes(16, 8)
        out[:] = x.amax(-1, keepdim=True)
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body)
    assert left == ["pypto-reduce-align"]


def test_ones_vector_built_in_the_kernel_gets_the_reduced_length(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
        ones = pypto.full([32, 1], 1.0, pypto.DT_FP32)
        out[:] = pypto.matmul(x, ones, pypto.DT_FP32)
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace("[32, 1]", "[64, 1]"))
    assert left == []


@pytest.mark.parametrize(
    ("annotation", "fixed"),
    [
        ("pypto.Tensor([DIM // 2, 1], pypto.DT_FP32)", "pypto.Tensor([DIM, 1], pypto.DT_FP32)"),
        ("pypto.Tensor[[32, 1], pypto.DT_FP32]", "pypto.Tensor[[64, 1], pypto.DT_FP32]"),
    ],
)
def test_ones_vector_parameter_annotation_gets_the_reduced_length(tmp_path: Path, annotation: str, fixed: str) -> None:
    module = textwrap.dedent(f'''\
    import pypto

    DIM = 64


    @pypto.frontend.jit
    def k(x: pypto.Tensor([8, DIM], pypto.DT_FP32), ones: {annotation},  # the row sum
          out: pypto.Tensor([8, 1], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
        out[:] = pypto.matmul(x, ones, pypto.DT_FP32)
    ''')
    (tmp_path / "mypy.ini").write_text(CONFIG)
    src = tmp_path / "kernel.py"
    src.write_text(module)
    outcome = run([str(src)], ["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache")])
    outcome.write()
    assert src.read_text() == module.replace(annotation, fixed)
    assert [f.code for f in outcome.fixed] == ["pypto-matmul-k"] and outcome.remaining == []


def test_ones_vector_parameter_is_left_when_the_host_passes_the_short_one(tmp_path: Path) -> None:
    """The fixed annotation would reject the module's own call: the re-check drops the fix."""
    (tmp_path / "mypy.ini").write_text(HOST_CONFIG)
    src = tmp_path / "kernel.py"
    src.write_text(textwrap.dedent('''\
    import pypto
    import torch


    @pypto.frontend.jit
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), ones: pypto.Tensor([32, 1], pypto.DT_FP32),
          out: pypto.Tensor([8, 1], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
        out[:] = pypto.matmul(x, ones, pypto.DT_FP32)


    def run() -> None:
        k(torch.randn(8, 64), torch.ones(32, 1), torch.empty(8, 1))
    '''))
    before = src.read_text()
    outcome = run([str(src)], ["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache")])
    outcome.write()
    assert src.read_text() == before
    assert [f.code for f in outcome.remaining] == ["pypto-matmul-k"]


def test_return_annotation_is_removed(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)) -> None:
        pypto.set_vec_tile_shapes(8, 64)
        out[:] = x + 1.0
    '''
    text, left = _fix(tmp_path, body)
    assert text == _kernel(body.replace(") -> None:", "):"))
    assert left == []


@pytest.mark.slow  # every fixable code, fixed twice
def test_a_second_fix_changes_nothing(tmp_path: Path) -> None:
    body = '''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP16), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 64)
        m = x.abs().float()
        t = m.T
        out[:] = m
    '''
    first, left = _fix(tmp_path, body)
    assert "pypto.cast(pypto.abs(x), pypto.DT_FP32)" in first
    assert "t = pypto.transpose(m, 0, 1)" in first
    assert left == []
    second, left_again = _fix_again(tmp_path)
    assert second == first
    assert left_again == left


def _fix_again(tmp_path: Path) -> tuple[str, list[str]]:
    src = tmp_path / "kernel.py"
    outcome = run([str(src)], ["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache")])
    assert outcome.texts == {}
    return src.read_text(), [f.code for f in outcome.remaining]


HOST_CONFIG = CONFIG + "\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
HOST_HEAD = '''\
import pypto
import torch


@pypto.frontend.jit
def mm(a: pypto.Tensor([16, 64], pypto.DT_FP16), w: pypto.Tensor([64, 32], pypto.DT_FP16),
       out: pypto.Tensor([16, 32], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([16, 16], [64, 64], [16, 16])
    out[:] = pypto.matmul(a, w, pypto.DT_FP32)


'''


def _fix_host(tmp_path: Path, host: str) -> tuple[str, list[str]]:
    """Fix a module of HOST_HEAD's kernel and ``host`` (the code that calls it)."""
    (tmp_path / "mypy.ini").write_text(HOST_CONFIG)
    src = tmp_path / "kernel.py"
    src.write_text(HOST_HEAD + textwrap.dedent(host))
    outcome = run([str(src)], ["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache")])
    outcome.write()
    return src.read_text(), [f.code for f in outcome.remaining]


@pytest.mark.slow  # several fix runs
def test_call_layout_view_argument_gets_contiguous(tmp_path: Path) -> None:
    host = '''\
    def run() -> None:
        a = torch.randn(16, 64, dtype=torch.float16)
        w = torch.randn(32, 64, dtype=torch.float16)
        mm(a, w.t(), torch.empty(16, 32))  # the weight, transposed
        wt = w.t()
        mm(a,
           wt,  # a view
           torch.empty(16, 32))
    '''
    text, left = _fix_host(tmp_path, host)
    assert text == HOST_HEAD + textwrap.dedent(
        host.replace("w.t(), torch", "w.t().contiguous(), torch").replace("   wt,", "   wt.contiguous(),")
    )
    assert left == []
    assert _fix_again(tmp_path) == (text, [])


def test_call_layout_keeps_parentheses_and_leaves_an_argument_too_long_to_quote(tmp_path: Path) -> None:
    host = '''\
    def run() -> None:
        a = torch.randn(16, 64, dtype=torch.float16)
        w = torch.randn(32, 64, dtype=torch.float16)
        mm(a, (w.t()), torch.empty(16, 32))
        mm(a, torch.randn(32, 64, dtype=torch.float16).transpose(0, 1), torch.empty(16, 32))
    '''
    text, left = _fix_host(tmp_path, host)
    # The second note says "pass w.contiguous()" (the parameter): no argument is written so.
    assert text == HOST_HEAD + textwrap.dedent(host.replace("(w.t()),", "(w.t()).contiguous(),"))
    assert left == ["pypto-call-layout"]


@pytest.mark.slow  # several fix runs
def test_call_args_tensors_by_keyword_become_positional(tmp_path: Path) -> None:
    host = '''\
    def run() -> None:
        a = torch.randn(16, 64, dtype=torch.float16)
        w = torch.randn(64, 32, dtype=torch.float16)
        out = torch.empty(16, 32)
        mm(a, out=out, w=w)  # by name
        mm(
            a=a,  # rows
            w=w,
            out=torch.empty(16, 32),
        )
    '''
    text, left = _fix_host(tmp_path, host)
    assert text == HOST_HEAD + textwrap.dedent(host.replace("mm(a, out=out, w=w)", "mm(a, w, out)").replace(
        "a=a,  # rows", "a,  # rows").replace("w=w,\n", "w,\n").replace("out=torch.empty(16, 32),", "torch.empty(16, 32),"))
    assert left == []
    assert _fix_again(tmp_path) == (text, [])


def test_call_args_keeps_an_order_that_would_move_a_call(tmp_path: Path) -> None:
    host = '''\
    def run() -> None:
        a = torch.randn(16, 64, dtype=torch.float16)
        mm(a, out=torch.empty(16, 32), w=torch.randn(64, 32, dtype=torch.float16))
    '''
    text, left = _fix_host(tmp_path, host)
    assert text == HOST_HEAD + textwrap.dedent(host)
    assert left == ["pypto-call-args", "pypto-call-args"]


@pytest.mark.parametrize("broken", ["x = (\n", "def f(:\n    pass\n"])
def test_a_file_with_a_syntax_error_is_never_edited(tmp_path: Path, broken: str) -> None:
    source = _kernel('''\
    def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
        out[:] = x.abs()
    ''') + broken
    (tmp_path / "mypy.ini").write_text(CONFIG)
    src = tmp_path / "kernel.py"
    src.write_text(source)
    outcome = run([str(src)], ["--config-file", str(tmp_path / "mypy.ini")])
    assert outcome.texts == {}


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pypto-check")
    cmd = [exe] if exe else [sys.executable, "-m", "mypy_plugin.cli"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, check=False)


@pytest.mark.slow  # the CLI end to end, several runs
def test_cli_diff_shows_and_fix_writes(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "attention_scores_bad.py", tmp_path / "k.py")
    before = (tmp_path / "k.py").read_text()
    shown = _cli("--diff", "k.py", cwd=tmp_path)
    assert (tmp_path / "k.py").read_text() == before  # --diff writes nothing
    assert "-    scores = pypto.matmul(q, k.T, pypto.DT_FP32)\n" in shown.stdout
    assert "+    scores = pypto.matmul(q, k, pypto.DT_FP32, b_trans=True)\n" in shown.stdout
    assert shown.stderr.endswith("Would fix 1 error in 1 file; 2 remaining\n")
    assert shown.returncode == 1  # q @ k (K mismatch, no unambiguous fix) and scores + raw (dtypes) remain
    fixed = _cli("--fix", "k.py", cwd=tmp_path)
    assert (tmp_path / "k.py").read_text() == before.replace("q, k.T, pypto.DT_FP32)", "q, k, pypto.DT_FP32, b_trans=True)")
    assert fixed.stdout.startswith("k.py:20: error: operator @: K-dimension mismatch")
    assert fixed.returncode == 1


@pytest.mark.slow  # the CLI end to end, several runs
def test_cli_fix_only_restricts_and_validates(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    before = (tmp_path / "k.py").read_text()
    assert _cli("--fix", "--fix-only", "pypto-transpose", "k.py", cwd=tmp_path).returncode == 1
    assert (tmp_path / "k.py").read_text() == before  # l2_norm_bad has no .T
    bad = _cli("--fix", "--fix-only", "pypto-axis", "k.py", cwd=tmp_path)
    assert bad.returncode == 2 and "--fix-only takes fixable codes" in bad.stderr
    assert _cli("--fix-style", "ones", "k.py", cwd=tmp_path).returncode == 2


# examples/<name>_bad.py: the codes --fix fixes, and those left (no unambiguous fix: the
# <name>_fixed.py partner fixes them by hand).
EXAMPLE_FIXES = {
    "attention_scores": (["pypto-transpose"], ["pypto-matmul-k", "pypto-dtype-mismatch"]),
    "gate_two_outputs": (["pypto-use-after-move"], []),
    "host_calls": (["pypto-call-layout"], ["pypto-broadcast"]),
    "l2_norm": (["pypto-no-method", "pypto-matmul-k"], []),
    "softmax_rows": (["pypto-reduce-align"], []),
}


def test_every_bad_example_has_its_expected_fixes() -> None:
    pairs = sorted(p.name.removesuffix("_bad.py") for p in (ROOT / "examples").glob("*_bad.py"))
    assert pairs == sorted(EXAMPLE_FIXES)
    assert all((ROOT / "examples" / f"{name}_fixed.py").exists() for name in pairs)


@pytest.mark.parametrize("name", sorted(EXAMPLE_FIXES))
def test_fixed_examples_match_their_fixed_partner(tmp_path: Path, name: str) -> None:
    """<name>_bad.py fixed by --fix: the expected codes fixed and left; with none left, it is
    <name>_fixed.py up to comments and docstring."""
    src = tmp_path / "k.py"
    shutil.copy(ROOT / "examples" / f"{name}_bad.py", src)
    (tmp_path / "mypy.ini").write_text(HOST_CONFIG)
    outcome = run([str(src)], ["--config-file", str(tmp_path / "mypy.ini")])
    outcome.write()
    fixed, left = EXAMPLE_FIXES[name]
    assert ([f.code for f in outcome.fixed], [f.code for f in outcome.remaining]) == (fixed, left)
    if not left:
        assert _code_lines(src.read_text()) == _code_lines((ROOT / "examples" / f"{name}_fixed.py").read_text())


def _code_lines(text: str) -> list[str]:
    import ast

    tree = ast.parse(text)
    tree.body = [s for s in tree.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return ast.unparse(tree).splitlines()


def test_in_process_runs_keep_no_earlier_build_alive(tmp_path: Path) -> None:
    """--fix re-checks in one process: the plugin's caches hold the last build only (they held
    thousands of builds, gigabytes, on a long fix run)."""
    import gc
    import weakref

    from mypy_plugin.calls import host_sites
    from mypy_plugin.bridge import tensor_types
    from mypy_plugin.fix.findings import collect

    (tmp_path / "mypy.ini").write_text(CONFIG)
    args = ["--config-file", str(tmp_path / "mypy.ini"), "--no-incremental"]
    infos = []
    for rows in (8, 16):
        src = tmp_path / f"k{rows}.py"
        src.write_text(_kernel(f'''\
        def k(x: pypto.Tensor([{rows}, 64], pypto.DT_FP32), out: pypto.Tensor([{rows}, 64], pypto.DT_FP32)):
            pypto.set_vec_tile_shapes(8, 64)
            out[:] = x + 1.0
        def run() -> None:
            k(x, x)
        '''))
        collect([str(src)], args)
        infos.append({id(t.type) for t in tensor_types._results.values()})
        assert len(infos[-1]) == 1
    assert infos[0] != infos[1]
    assert len(host_sites._cache) <= 1


def test_the_fixable_codes_are_the_edits_codes() -> None:
    # FIXABLE names them without importing the edits (libcst): the same codes, in order.
    from mypy_plugin.fix import FIXABLE
    from mypy_plugin.fix.edits import EDITS

    assert FIXABLE == tuple(sorted(EDITS))


def test_a_check_without_fix_does_not_import_libcst(tmp_path: Path) -> None:
    # libcst is a tenth of a second of imports, needed by --fix and --diff only.
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    program = (
        "import sys\n"
        "from mypy_plugin.cli import main\n"
        "status = main(['examples', '--no-incremental'])\n"
        "print('status', status, 'libcst' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.stdout.splitlines()[-1] == "status 1 False", done.stdout + done.stderr
