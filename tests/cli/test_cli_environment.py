"""One clear message instead of a traceback: unsupported mypy, editable install, stubs missing."""

from __future__ import annotations

import json

import pytest

import mypy_plugin
from mypy_plugin.cli import environment, main
from mypy_plugin.versions import MYPY_RANGE, mypy_supported


@pytest.mark.parametrize("version, ok", [
    ("2.4.1", True), ("2.4.9", True), ("2.4.1+dev.1234abcd", True),
    ("2.4.0", False), ("2.5.0", False), ("1.15.0", False), ("3.0", False), ("", False),
])
def test_supported_mypy_versions(version: str, ok: bool) -> None:
    assert mypy_supported(version) is ok


def test_plugin_on_an_unsupported_mypy_stops_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # What an editor's bundled mypy 1.x gets instead of an AttributeError traceback.
    with pytest.raises(SystemExit) as exc:
        mypy_plugin.plugin("1.15.0")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: pypto-stubs supports mypy {MYPY_RANGE}, but this is mypy 1.15.0; install a supported one "
        f'(pip install "mypy{MYPY_RANGE}") and run that mypy '
        '(in VS Code: "mypy-type-checker.importStrategy": "fromEnvironment")\n'
    )


def test_pypto_check_on_an_unsupported_mypy(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(environment, "mypy_version", "1.15.0")
    assert main(["--output", "json", "k.py"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["fatal"][0].startswith(f"pypto-check: pypto-stubs supports mypy {MYPY_RANGE}, but this is mypy 1.15.0")


def test_stubs_are_visible_in_this_environment() -> None:
    assert environment.stubs_visible()


class _FakeDist:
    def __init__(self, direct_url: dict[str, object] | None) -> None:
        self._raw = None if direct_url is None else json.dumps(direct_url)

    def read_text(self, name: str) -> str | None:
        return self._raw if name == "direct_url.json" else None


def test_editable_install_is_explained(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(environment, "stubs_visible", lambda: False)
    dist = _FakeDist({"url": "file:///home/me/pypto-stubs", "dir_info": {"editable": True}})
    monkeypatch.setattr(environment.metadata, "distribution", lambda name: dist)
    assert main(["k.py"]) == 2
    assert capsys.readouterr().err == (
        "pypto-check: pypto-stubs is installed in editable mode (pip install -e): mypy does not follow editable "
        "installs to find stub packages, so it cannot see the stubs for pypto. Reinstall it without -e: "
        "pip install /home/me/pypto-stubs\n"
    )


def test_missing_stubs_are_explained(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(environment, "stubs_visible", lambda: False)
    monkeypatch.setattr(environment.metadata, "distribution", lambda name: _FakeDist(None))
    assert main(["k.py"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pypto-check: the stubs package pypto-stubs is not installed in this Python (")
    assert "mypy cannot see the stubs for pypto" in err


def test_a_regular_install_is_not_taken_for_editable() -> None:
    assert environment.editable_source() is None  # this environment has a real install
