"""The README's and docs/' setup snippets work when pasted, and their pypto-check outputs are real runs.

The README is the first screen (what it is, an example, install, enable, links); the rest lives in
docs/: each test reads the snippet from the file that holds it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from mypy_plugin.cli import options
from mypy_plugin.config import load

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {path.name: path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))}
PROJECT_EXTRAS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
_FENCE = re.compile(r"^( *)```(\w+)\n(.*?)^\1```$", re.S | re.M)


def _text(doc: str) -> str:
    return README if doc == "README.md" else DOCS[doc]


def _blocks(lang: str, doc: str) -> list[str]:
    out = []
    for m in _FENCE.finditer(_text(doc)):
        if m.group(2) == lang:
            indent = len(m.group(1))
            out.append("".join(line[indent:] + "\n" for line in m.group(3).splitlines()))
    return out


def _block(lang: str, contains: str, doc: str) -> str:
    found = [b for b in _blocks(lang, doc) if contains in b]
    assert len(found) == 1, f"expected one ```{lang} block with {contains!r} in {doc}, got {len(found)}"
    return found[0]


def _bin() -> str:
    return str(Path(sys.executable).parent)


def _env() -> dict[str, str]:
    return {**os.environ, "PATH": _bin() + os.pathsep + os.environ.get("PATH", "")}


def _pypto_check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pypto-check", path=_env()["PATH"])
    cmd = [exe] if exe else [sys.executable, "-m", "mypy_plugin.cli"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, check=False, env=_env())


_PIP_INSTALL = re.compile(r"pip install((?: -[-\w]+)*) ([^\s`]+)")


def test_every_pip_install_works_from_a_clone() -> None:
    # pypto-stubs is installed from its repository (not from a package index): a target is the
    # clone (".", '".[guard]"') with extras pyproject.toml defines, or a variable the reader sets.
    extras = set(PROJECT_EXTRAS)
    targets = [m.group(2).strip("\"'") for text in (README, *DOCS.values()) for m in _PIP_INSTALL.finditer(text)]
    assert len(targets) >= 5
    for target in targets:
        if target.startswith("$"):
            continue
        m = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", target)
        assert m is not None, f"pip install {target}: not the clone"
        assert set((m.group(1) or "").split(",")) - {""} <= extras, target


@pytest.mark.parametrize("doc, name, contains", [
    ("README.md", "pyproject.toml", "[tool.mypy]"),
    ("configuration.md", "pyproject.toml", "[tool.pypto-stubs]"),
    ("configuration.md", "mypy.ini", "[pypto-stubs]"),
    ("configuration.md", "pyproject.toml", "strict_optional = false"),  # pypto-check's default in plain mypy
])
def test_config_snippets_enable_the_plugin(tmp_path: Path, doc: str, name: str, contains: str) -> None:
    lang = "toml" if name.endswith(".toml") else "ini"
    (tmp_path / name).write_text(_block(lang, contains, doc))
    load(str(tmp_path / name))  # every key and value is accepted
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "k.py"], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "[pypto-no-method]" in result.stdout and "[pypto-matmul-k]" in result.stdout


def test_bad_config_value_example_is_a_real_run(tmp_path: Path) -> None:
    block = _block("console", "rebind_tensors = flase", "configuration.md")
    command, expected = block.splitlines()[0], block.splitlines()[1:]
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n\n[pypto-stubs]\nrebind_tensors = flase\n")
    (tmp_path / "k.py").write_text("import pypto\n")
    args = shlex.split(command.split("#")[0])[2:]
    result = _pypto_check(*args, "--no-incremental", cwd=tmp_path)
    assert result.returncode == 2
    assert (result.stdout + result.stderr).splitlines() == expected


_SIGNAL_KERNEL = '''\
import pypto
import not_a_module


def helper(x):
    y: int = "s"
    return x


@pypto.frontend.jit
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 1], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    s = a.sum(-1, keepdims=True)
    t = pypto.no_such_op(a)
    out[:] = a.sum(-1, keepdim=True) * scale
'''


def test_signal_first_example_is_a_real_run(tmp_path: Path) -> None:
    block = _block("console", "other mypy errors hidden", "cli.md")
    (tmp_path / "k.py").write_text(_SIGNAL_KERNEL)
    result = _pypto_check("k.py", "--no-incremental", cwd=tmp_path)
    assert result.stdout.splitlines() == block.splitlines()[1:]


def test_github_example_line_is_a_real_run(tmp_path: Path) -> None:
    m = re.search(r"`(::error file=examples/l2_norm_bad.py[^`]*?) \.\.\.(%0A[^`]*)`", DOCS["cli.md"])
    assert m is not None
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    lines = _pypto_check("--output", "github", "examples", "--no-incremental", cwd=tmp_path).stdout.splitlines()
    assert any(line.startswith(m.group(1)) and line.endswith(m.group(2)) for line in lines)


def test_vscode_settings_run_the_environments_mypy_with_the_plugin(tmp_path: Path) -> None:
    settings = json.loads(_block("json", "mypy-type-checker", "integrations.md"))
    assert settings["mypy-type-checker.importStrategy"] == "fromEnvironment"
    (tmp_path / "pyproject.toml").write_text(_block("toml", "[tool.mypy]", "README.md"))
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", tmp_path / "k.py")
    # What the extension runs with fromEnvironment: this environment's mypy with the args.
    args = settings["mypy-type-checker.args"]
    result = subprocess.run([sys.executable, "-m", "mypy", *args, "--no-incremental", "k.py"], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert "[pypto-no-method]" in result.stdout, result.stdout + result.stderr


def test_actions_workflow_is_valid_and_its_command_parses() -> None:
    text = _block("yaml", "runs-on:", "integrations.md")
    workflow = yaml.safe_load(text)
    schema_file = resources.files("check_jsonschema.builtin_schemas.vendor").joinpath("github-workflows.json")
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True; GitHub (and check-jsonschema) read it as "on".
    workflow = {("on" if k is True else k): v for k, v in workflow.items()}
    jsonschema.validators.validator_for(schema)(schema).validate(workflow)
    assert "on" in workflow
    runs = [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]
    checks = [shlex.split(run)[1:] for run in runs if run.startswith("pypto-check")]
    assert checks == [["--output", "github", "kernels/"]]
    assert options.parse(checks[0]).output == "github"


@pytest.mark.skipif(shutil.which("pre-commit", path=_env()["PATH"]) is None, reason="pre-commit is not installed")
def test_pre_commit_local_hook(tmp_path: Path) -> None:
    repo = tmp_path / "user-project"
    repo.mkdir()
    (repo / ".pre-commit-config.yaml").write_text(_block("yaml", "repo: local", "integrations.md"))
    shutil.copy(ROOT / "examples" / "l2_norm_bad.py", repo / "bad.py")
    shutil.copy(ROOT / "examples" / "rms_norm.py", repo / "good.py")
    env = {**_env(), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    result = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=repo,
                            capture_output=True, text=True, env=env, check=False, timeout=600)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'bad.py:18: error: PyPTO tensors have no ".abs()"' in result.stdout
    assert "good.py:" not in result.stdout


def test_pre_commit_try_repo_command_names_the_hook() -> None:
    m = re.search(r"`pre-commit try-repo (\S+) (\S+) --files k.py`", DOCS["integrations.md"])
    assert m is not None and m.group(2) == "pypto-check"
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["pypto-check", "pypto-check-fix"]


def test_host_calls_example_is_a_real_run(tmp_path: Path) -> None:
    block = _block("console", "$ pypto-check examples/host_calls_bad.py", "host-calls.md")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    result = _pypto_check("examples/host_calls_bad.py", "--no-incremental", cwd=tmp_path)
    assert result.stdout.splitlines() == block.splitlines()[1:]


def test_coverage_example_lines_are_a_real_run(tmp_path: Path) -> None:
    block = _block("console", "$ pypto-check --coverage examples/", "cli.md")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    lines = _pypto_check("--coverage", "examples", cwd=tmp_path).stdout.splitlines()
    shown = [line for line in block.splitlines()[1:] if line != "..."]
    assert shown and all(line in lines for line in shown), (shown, lines)


def test_daemon_torch_stand_in_is_a_real_setup(tmp_path: Path) -> None:
    # The advice for dmypy with torch (docs/integrations.md) (mypy 2.4.1's daemon crashes on follow_imports =
    # skip for an installed package after an edit): a stand-in stub through mypy_path. The daemon
    # then reads the host call's tensors after edits, as a cold run does, and never analyses torch.
    text = DOCS["integrations.md"]
    assert "follow_imports = skip" in text.split("**Do not give the daemon `follow_imports = skip`", 1)[1][:100]
    (tmp_path / "mypy.ini").write_text(_block("ini", "mypy_path = typings", "integrations.md"))
    (tmp_path / "typings" / "torch").mkdir(parents=True)
    (tmp_path / "typings" / "torch" / "__init__.pyi").write_text(_block("python", "# typings/torch/__init__.pyi", "integrations.md"))
    shutil.copy(ROOT / "examples" / "host_calls_bad.py", tmp_path / "k.py")
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / ".dmypy.json")]
    run = [*dmypy, "run", "--", "--config-file", "mypy.ini", "k.py"]

    def daemon() -> list[str]:
        out = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300)
        assert "Daemon crashed" not in out.stdout + out.stderr, out.stdout + out.stderr
        return [line for line in out.stdout.splitlines() if ": error:" in line]

    try:
        before = daemon()
        text = (tmp_path / "k.py").read_text()
        (tmp_path / "k.py").write_text(text.replace("for hidden in (64, 128):", "for hidden in (64, 64):"))
        st = (tmp_path / "k.py").stat()
        os.utime(tmp_path / "k.py", (st.st_atime + 5, st.st_mtime + 5))
        after = daemon()
    finally:
        subprocess.run([*dmypy, "stop"], cwd=tmp_path, capture_output=True, check=False, timeout=60)
    cold = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "k.py"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert after == [line for line in cold.stdout.splitlines() if ": error:" in line]
    assert len(before) == 2 and len(after) == 1, (before, after)


# --- the first screen: the README's example, its two commands, its length -----------------


def test_readme_example_kernel_is_a_real_run(tmp_path: Path) -> None:
    (tmp_path / "k.py").write_text(_block("python", "@pypto.frontend.jit", "README.md"))
    block = _block("console", "$ pypto-check k.py", "README.md")
    result = _pypto_check("k.py", "--no-incremental", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines() == block.splitlines()[1:]


@pytest.mark.slow  # the fixer end to end
def test_readme_example_is_fixed_by_fix(tmp_path: Path) -> None:
    # "pypto-check --fix k.py fixes both".
    assert "`pypto-check --fix k.py` fixes both" in README
    (tmp_path / "k.py").write_text(_block("python", "@pypto.frontend.jit", "README.md"))
    result = _pypto_check("--diff", "k.py", "--no-incremental", cwd=tmp_path)
    assert "+    mag = pypto.abs(x)" in result.stdout and "pypto.Tensor([64, 1], pypto.DT_FP32)" in result.stdout
    assert "Would fix 2 errors in 1 file; 0 remaining" in result.stdout + result.stderr, result.stdout + result.stderr


def test_readme_examples_command_is_a_real_run(tmp_path: Path) -> None:
    block = _block("console", "pypto-check examples/", "README.md")
    command, *shown = block.splitlines()
    assert command == "$ python3 -m venv .venv && . .venv/bin/activate && pip install . && pypto-check examples/"
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    lines = _pypto_check("examples/", "--no-incremental", cwd=tmp_path).stdout.splitlines()
    assert shown[-1] == lines[-1]
    assert all(line in lines for line in shown if line != "..."), (shown, lines)


def test_readme_test_command_is_what_ci_runs() -> None:
    # .ci/run installs the built wheel with the test extra (and the oracle one) and then runs
    # the README's test command, which must stay "pytest" from the repository root.
    block = _block("console", '".[test]"', "README.md")
    assert block.strip() == '$ python3 -m venv .venv && . .venv/bin/activate && pip install ".[test]" && pytest'
    ci = (ROOT / ".ci" / "run").read_text()
    # ... then every test the fast default leaves out (pyproject's addopts deselect them)
    assert "\npytest\npytest -m \"slow or oracle\"\n" in ci
    assert "-m 'not slow and not oracle'" in (ROOT / "pyproject.toml").read_text()
    assert "test" in PROJECT_EXTRAS


def test_the_test_extra_installs_what_the_default_suite_needs() -> None:
    # A fresh clone's `pip install ".[test]" && pytest` (issue 38): the host cases read numpy arrays
    # with numpy's own types, so numpy comes with the test extra, not only with the oracle one.
    uses_numpy = [p.name for p in (ROOT / "tests" / "typecheck").glob("*.yml") if "import numpy" in p.read_text()]
    assert uses_numpy, "no typecheck case imports numpy any more: drop numpy from the test extra"
    assert any(dep.split(">")[0].split("=")[0].strip() == "numpy" for dep in PROJECT_EXTRAS["test"]), uses_numpy


def test_readme_is_short() -> None:
    assert len(README.splitlines()) <= 200
