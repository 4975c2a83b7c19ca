"""The native-parser route: the wrapper around ``ast_serialize.parse`` and its guard."""

from __future__ import annotations

import ast
import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from collections.abc import Callable
from typing import Any

import ast_serialize
import pytest
from mypy.options import Options

from mypy_plugin.calls import module_sources  # noqa: F401  (it asks the rewrite for its summary)
from mypy_plugin.rewrite import module_marker, native_parse, parsed_trees
from mypy_plugin.rewrite.module_marker import source_digest

KERNEL = '''import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    reveal_type(x)
    pypto.set_vec_tile_shapes(8, 4)
    out[:] = x.sum(-1, keepdim=True)
'''
REVEALED = 'Revealed type is "pypto.Tensor[tuple[Literal[8], Literal[64]], pypto._DT_FP32]"'


def _real_parse(*args: Any, **kwargs: Any) -> Any:
    """The unwrapped parser: an in-process mypy run with the plugin (other tests) wraps the
    module attribute for the whole process."""
    real = getattr(ast_serialize.parse, native_parse._MARK, ast_serialize.parse)
    return real(*args, **kwargs)


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, fnam: str, source: object = None, **kwargs: Any) -> Any:
        self.calls.append((fnam, source, kwargs))
        return _real_parse(fnam, source, **kwargs)


def _kwargs(options: Options) -> dict[str, Any]:
    return {"always_true": options.always_true, "always_false": options.always_false, "cache_version": 5}


def test_files_without_pypto_reach_the_parser_untouched(tmp_path: Path) -> None:
    path = tmp_path / "plain.py"
    path.write_text("X = 1\n")
    options = Options()
    native_parse.register(options)
    original = Recorder()
    native_parse._make_wrapper(original)(str(path), None, **_kwargs(options))
    assert original.calls == [(str(path), None, _kwargs(options))]


def test_unregistered_builds_reach_the_parser_untouched(tmp_path: Path) -> None:
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL)
    options = Options()  # a build without the plugin
    original = Recorder()
    native_parse._make_wrapper(original)(str(path), None, **_kwargs(options))
    assert original.calls == [(str(path), None, _kwargs(options))]


def test_pypto_files_are_rewritten_and_keep_the_hash_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "kernel.py"
    path.write_bytes(KERNEL.encode())
    options = Options()
    native_parse.register(options)
    original = Recorder()
    result = native_parse._make_wrapper(original)(str(path), None, **_kwargs(options))
    [(_, source, _)] = original.calls
    assert isinstance(source, str) and "pypto.Tensor[[8, 64], pypto.DT_FP32]" in source
    # lines stay put; one is added after the last (the module's own options: module_marker.py)
    assert source.count("\n") == KERNEL.count("\n") + 1
    assert source.endswith(f"\n{module_marker.INLINE_OPTIONS}\n")
    plain = _real_parse(str(path), None, **_kwargs(options))
    assert result[0] != plain[0]  # a different tree ...
    assert result[4]["source_hash"] == hashlib.sha1(KERNEL.encode()).hexdigest() == plain[4]["source_hash"]  # ... same hash


def test_the_rewrite_runs_one_file_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # mypy calls the parser from several threads; Python's ast module is not safe for that
    # (a run of the fuzz suite failed with "SystemError: AST constructor recursion depth
    # mismatch" inside the rewrite's ast.parse), so the wrapper holds a lock around the rewrite.
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL)
    options = Options()
    native_parse.register(options)
    held: list[bool] = []

    def rewrite(text: str, keep: object = None) -> tuple[str, bool]:
        held.append(native_parse._REWRITE_LOCK.locked())
        return text, False

    monkeypatch.setattr(native_parse, "rewrite_for_parser", rewrite)
    native_parse._make_wrapper(Recorder())(str(path), None, **_kwargs(options))
    assert held == [True]
    assert not native_parse._REWRITE_LOCK.locked()


def test_a_proven_rewrite_that_does_not_parse_gives_the_file_as_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rewrite's proof (edit_proof.py) leaves the parse to the native parser: on any error
    in the rewritten text the wrapper parses the file as written, as the guard would have."""
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL)
    options = Options()
    native_parse.register(options)
    monkeypatch.setattr(native_parse, "rewrite_for_parser",
                        lambda text, keep=None: (text.replace("[8, 64]", "[8, 64"), True))
    original = Recorder()
    result = native_parse._make_wrapper(original)(str(path), None, **_kwargs(options))
    assert [source for _, source, _ in original.calls] == [KERNEL.replace("[8, 64]", "[8, 64"), None]
    assert result[1] == [] and result[0] == _real_parse(str(path), None, **_kwargs(options))[0]


def _run(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=cwd, capture_output=True,
                          text=True, check=False, timeout=300)


RUNS = '''
    import json
    from mypy import api
    runs = {}
    for name, ini in (("plugin", "plugin.ini"), ("plain", "plain.ini"), ("again", "plugin.ini")):
        stdout, stderr, _ = api.run(["--config-file", ini, "--no-incremental", "kernel.py"])
        runs[name] = {"stdout": stdout, "stderr": stderr}
    print(json.dumps(runs))
'''


def _runs(out: subprocess.CompletedProcess[str]) -> dict[str, dict[str, str]]:
    assert out.returncode == 0, out.stderr
    runs: dict[str, dict[str, str]] = json.loads(out.stdout.splitlines()[-1])
    return runs


def _reads_annotations(stdout: str) -> bool:
    return REVEALED in stdout and "[pypto-reduce-align]" in stdout and "[valid-type]" not in stdout


def _project(tmp_path: Path) -> None:
    (tmp_path / "kernel.py").write_text(KERNEL)
    (tmp_path / "plugin.ini").write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n")
    (tmp_path / "plain.ini").write_text("[mypy]\ncheck_untyped_defs = True\n")


def test_one_process_native_route_and_builds_without_the_plugin(tmp_path: Path) -> None:
    _project(tmp_path)
    check = '''
    import ast_serialize
    from mypy_plugin.rewrite import native_parse
    wrapper = ast_serialize.parse
    original = getattr(wrapper, "__pypto_stubs_original__")
    assert not hasattr(original, "__pypto_stubs_original__"), "wrapped twice"
    from mypy.options import Options
    assert native_parse.enable(Options()) and ast_serialize.parse is wrapper  # idempotent
    assert "kernel.py" in native_parse.rewritten_files  # parsed by the native parser, rewritten
    print("WRAPPED ONCE")
    print(json.dumps(runs))
    '''
    out = _run(RUNS + check, tmp_path)
    runs = _runs(out)
    assert out.stdout.splitlines()[-2] == "WRAPPED ONCE"
    for name in ("plugin", "again"):
        assert _reads_annotations(runs[name]["stdout"]), runs[name]
        assert runs[name]["stderr"] == ""
    assert out.stderr == ""  # no fallback notice
    # The run without the plugin sees the file as written: the rewrite is not its business.
    plain = runs["plain"]["stdout"]
    assert "[valid-type]" in plain and 'Revealed type is "Any"' in plain and "pypto-" not in plain


CHANGES = {
    # a mypy version whose parser internals were not read (a mypy outside the supported range
    # stops earlier, in plugin(): the route's own version gate is set narrower here instead)
    "version": ("import mypy_plugin.rewrite.native_parse\nmypy_plugin.rewrite.native_parse.TESTED_MYPY = '9.9.'\n",
                "mypy 2.4.1 is not 9.9.x"),
    # ast_serialize.parse returns something else than the 5-tuple that ends with the data dict
    "result_shape": ("import ast_serialize\n_parse = ast_serialize.parse\n"
                     "ast_serialize.parse = lambda *a, **k: (*_parse(*a, **k), None)\n",
                     "the native parser changed (TypeError: "),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_changed_internals_fall_back_to_the_python_ast_parser(tmp_path: Path, change: str) -> None:
    _project(tmp_path)
    setup, reason = CHANGES[change]
    out = _run(setup + textwrap.dedent(RUNS), tmp_path)
    runs = _runs(out)
    # On the process's stderr, once per process (not once per build).
    assert out.stderr.startswith(f"pypto-stubs: {reason}"), out.stderr
    assert out.stderr.endswith("; using mypy's slower Python-ast parser instead\n") and out.stderr.count("\n") == 1
    for name in ("plugin", "again"):
        assert _reads_annotations(runs[name]["stdout"]), runs[name]


HOSTED = KERNEL + '''

def test_k() -> None:
    k(torch.randn(8, 64), torch.empty(8, 1))
'''


def _wrapped_pair(tmp_path: Path) -> tuple[Path, Path, Callable[[Path], object]]:
    """``hosted.py`` (calls its kernel) and ``alone.py`` (does not), each parsed once through the
    wrapper; and the call that parses a file through it again."""
    options = Options()
    native_parse.register(options)
    wrapper = native_parse._make_wrapper(Recorder())

    def wrap(path: Path) -> object:
        return wrapper(str(path), None, **_kwargs(options))

    hosted, alone = tmp_path / "hosted.py", tmp_path / "alone.py"
    hosted.write_text(HOSTED)
    alone.write_text(KERNEL)
    for path in (hosted, alone):
        wrap(path)
    return hosted, alone, wrap


def test_a_module_that_calls_its_kernel_leaves_its_parse_for_its_host_evaluation(tmp_path: Path) -> None:
    """parsed_trees: the wrapper keeps the rewrite's parse of a file that calls its own kernel;
    the host evaluation takes it once, and only for the very bytes that were parsed."""
    hosted, alone, wrap = _wrapped_pair(tmp_path)
    data = hosted.read_bytes()
    assert parsed_trees.take(str(alone), alone.read_bytes()) is None  # no call of its kernel: not kept
    assert parsed_trees.take(str(hosted), data + b"\n") is None  # other bytes (an edit since): not used
    wrap(hosted)
    tree = parsed_trees.take(str(hosted), data)
    assert tree is not None
    assert ast.dump(tree, include_attributes=True) == ast.dump(ast.parse(data, type_comments=True), include_attributes=True)
    assert parsed_trees.take(str(hosted), data) is None  # taken once


def test_the_wrapper_leaves_what_a_modules_calls_may_call(tmp_path: Path) -> None:
    """parsed_trees.forms: for every file the rewrite parses, what its calls may call, for those
    very bytes only (the host evaluation of a kernel module then skips its parse)."""
    hosted, alone, _ = _wrapped_pair(tmp_path)
    assert parsed_trees.forms(str(hosted), hosted.read_bytes()) is None  # calls ``k``, a jit def's name
    forms = parsed_trees.forms(str(alone), alone.read_bytes())
    assert forms is not None and forms.names == {"reveal_type"}
    assert ("pypto", "set_vec_tile_shapes") in forms.attributes
    assert parsed_trees.forms(str(alone), alone.read_bytes() + b"\n") is None  # other bytes: parse them
    # A module that imports pypto declares the digest of its text: found by it, with no read.
    digest = source_digest(alone.read_text())
    assert parsed_trees.forms_of_text(str(alone), digest) == forms
    assert parsed_trees.forms_of_text(str(alone), digest + 1) is None


def test_the_wrapper_leaves_the_dtypes_its_kernels_annotations_write(tmp_path: Path) -> None:
    """parsed_trees.summary: for a file that imports pypto (it declares its digest), what the
    annotations of its decorated functions write for the dtype (module_sources registers it), for
    that very text only: the host-call check of a kernel of another module skips the parse."""
    _, alone, _ = _wrapped_pair(tmp_path)
    digest = source_digest(alone.read_text())
    assert parsed_trees.summary(str(alone), digest) == {"k": {"x": "DT_FP32", "out": "DT_FP32"}}
    assert parsed_trees.summary(str(alone), digest + 1) is None  # another text: parse it
