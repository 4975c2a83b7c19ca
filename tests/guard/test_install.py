"""How the guard hooks into PyPTO, against a stand-in ``pypto.frontend.parser.entry`` (fast, no
pypto or torch needed): nothing is imported or changed until enabled, the kernel class is
patched whether it is imported before or after enabling, disabling restores it, and the pytest
options switch it on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_ENTRY = '''
class _DT:
    name = "DT_FP32"

class _Def:
    shape = [4]
    status_dtype = _DT()

class JitCallableWrapper:
    def __init__(self, f):
        self._original_func = f
        self._cached_signature = ([_Def()], [])

    def __call__(self, *args, **kwargs):
        return "ran"

def jit(f):
    return JitCallableWrapper(f)
'''


def _fake_pypto(root: Path) -> None:
    for pkg in ("pypto", "pypto/frontend", "pypto/frontend/parser"):
        (root / pkg).mkdir(parents=True, exist_ok=True)
        (root / pkg / "__init__.py").write_text("")
    (root / "pypto/frontend/parser/entry.py").write_text(FAKE_ENTRY)


def _run(tmp: Path, body: str) -> dict[str, object]:
    _fake_pypto(tmp)
    script = "import json, sys\nsys.path.insert(0, %r)\n" % str(tmp) + textwrap.dedent(body)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    result: dict[str, object] = json.loads(p.stdout.strip().splitlines()[-1])
    return result


HEAVY = "[m for m in ('torch', 'pypto', 'jaxtyping', 'mypy_plugin.guard.check') if m in sys.modules]"


def test_enable_before_import_patches_on_import_and_disable_restores(tmp_path: Path) -> None:
    out = _run(tmp_path, f"""
        import mypy_plugin.guard.pytest_plugin
        from mypy_plugin import guard
        guard.enable()
        heavy_after_enable = {HEAVY}
        from pypto.frontend.parser import entry
        def kernel(x): ...
        k = entry.jit(kernel)
        try:
            k(1.0)
            bad = "ran"
        except TypeError as e:
            bad = [f.code.name for f in e.findings]
            message = str(e)
        good_seen_patch = hasattr(entry.JitCallableWrapper.__call__, "__pypto_guard_original__")
        guard.disable()
        print(json.dumps(dict(heavy=heavy_after_enable, bad=bad, message=message, patched=good_seen_patch,
                              after_disable=k(1.0), restored=entry.JitCallableWrapper.__call__.__qualname__)))
    """)
    assert out["heavy"] == []
    assert out["bad"] == ["pypto-call-args"]
    assert out["message"] == (
        'pypto guard: the call of kernel "kernel" does not match its annotations\n'
        'error: Kernel "kernel", parameter "x": expected a torch tensor, got a non-tensor; 0.2.0 fails at run '
        "time (AttributeError: ... has no attribute 'device')  [pypto-call-args]\n"
        "note: pass a contiguous torch tensor here; non-tensor parameters come after the tensors"
    )
    assert out["patched"] is True
    assert (out["after_disable"], out["restored"]) == ("ran", "JitCallableWrapper.__call__")


def test_off_changes_nothing_and_enable_after_import_patches_now(tmp_path: Path) -> None:
    out = _run(tmp_path, """
        import mypy_plugin.guard.pytest_plugin
        from pypto.frontend.parser import entry
        original = entry.JitCallableWrapper.__call__
        k = entry.jit(lambda x: None)
        off = k(1.0)
        from mypy_plugin import guard
        unchanged = entry.JitCallableWrapper.__call__ is original and not any(
            type(f).__name__ == "PatchOnImport" for f in sys.meta_path)
        @guard.guarded
        def script():
            try:
                return k(1.0)
            except TypeError as e:
                return [f.code.name for f in e.findings]
        on = script()
        print(json.dumps(dict(off=off, unchanged=unchanged, on=on, enabled=guard.is_enabled(),
                              restored=entry.JitCallableWrapper.__call__ is original)))
    """)
    assert out == {"off": "ran", "unchanged": True, "on": ["pypto-call-args"], "enabled": False, "restored": True}


def _pytest_state(tmp: Path, *opts: str) -> str:
    # (jaxtyping is left out: it ships a pytest11 plugin of its own that imports it)
    (tmp / "test_state.py").write_text(
        "import sys\nfrom mypy_plugin import guard\n\ndef test_state():\n"
        "    heavy = [m for m in ('torch', 'pypto') if m in sys.modules]\n"
        "    print('GUARD', guard.is_enabled(), heavy)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "pytest", "-s", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp),
                        *opts, str(tmp / "test_state.py")], cwd=tmp, capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    return next(ln for ln in p.stdout.splitlines() if "GUARD" in ln)


@pytest.mark.slow  # pytest runs in subprocesses with each option
def test_pytest_options(tmp_path: Path) -> None:
    assert _pytest_state(tmp_path).endswith("GUARD False []")
    assert _pytest_state(tmp_path, "--pypto-guard").endswith("GUARD True []")  # on, and nothing heavy loaded
    assert _pytest_state(tmp_path, "-o", "pypto_guard=true").endswith("GUARD True []")
