"""What Pylance/pyright show for each tensor annotation form with the stubs installed (docs/integrations.md's
pyright section states these results), and which settings quiet it. pyright has no plugins: this
pins what the stubs alone give an editor."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# A long run (pyright (node) over every annotation form): not in the default `pytest`; `.ci/run` runs it.
pytestmark = pytest.mark.slow

FORMS = '''\
import pypto


def forms(
    subscript: pypto.Tensor[[8, 64], pypto.DT_FP32],
    dynamic: pypto.Tensor[[pypto.DYNAMIC, 64], pypto.DT_FP32],
    call: pypto.Tensor([8, 64], pypto.DT_FP32),
    empty_call: pypto.Tensor(),
    bare: pypto.Tensor,
) -> None:
    reveal_type(subscript)
    reveal_type(dynamic)
    reveal_type(call)
    reveal_type(empty_call)
    reveal_type(bare)
    bare.abs()
    bare.T
'''
QUIET_COMMENT = "# pyright: reportInvalidTypeForm=false, reportGeneralTypeIssues=false\n"

Diagnostic = tuple[int, str, str]  # line, severity, rule (or the revealed type)


def _pyright(tmp_path: Path, config: dict[str, object], source: str = FORMS) -> list[Diagnostic]:
    exe = shutil.which("pyright")
    assert exe is not None, "pyright is in the test extra"
    (tmp_path / "forms.py").write_text(source)
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    result = subprocess.run(
        [exe, "--pythonpath", sys.executable, "--outputjson", "forms.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    report = json.loads(result.stdout)
    found: list[Diagnostic] = []
    for d in report["generalDiagnostics"]:
        line = d["range"]["start"]["line"] + 1
        if d["severity"] == "information":
            found.append((line, "reveal", d["message"].split(" is ", 1)[1]))
        elif d.get("rule") != "reportMissingModuleSource":  # only where pypto itself is not installed
            found.append((line, d["severity"], d["rule"]))
    return found


def _rules_by_line(found: list[Diagnostic]) -> dict[int, set[str]]:
    by_line: dict[int, set[str]] = {}
    for line, severity, rule in found:
        if severity != "reveal":
            by_line.setdefault(line, set()).add(f"{severity}:{rule}")
    return by_line


def test_pylance_default_mode(tmp_path: Path) -> None:
    # Pylance's default typeCheckingMode is "off": only invalid type forms, as warnings.
    found = _pyright(tmp_path, {"typeCheckingMode": "off"})
    assert [(line, t) for line, s, t in found if s == "reveal"] == [
        (11, '"Tensor"'), (12, '"Tensor"'), (13, '"Any"'), (14, '"Any"'), (15, '"Tensor"'),
    ]  # subscript and bare forms complete members; call forms are Any (no completion)
    assert _rules_by_line(found) == {
        5: {"warning:reportInvalidTypeForm"},
        6: {"warning:reportInvalidTypeForm"},
        7: {"warning:reportInvalidTypeForm"},
        8: {"warning:reportInvalidTypeForm"},
    }


def test_standard_mode_also_reports_literal_dims(tmp_path: Path) -> None:
    found = _pyright(tmp_path, {"typeCheckingMode": "standard", "reportDeprecated": "warning"})
    assert _rules_by_line(found) == {
        5: {"error:reportInvalidTypeForm", "error:reportGeneralTypeIssues"},  # "Expected class but received Literal[8]"
        6: {"error:reportInvalidTypeForm", "error:reportGeneralTypeIssues"},
        7: {"error:reportInvalidTypeForm"},
        8: {"error:reportInvalidTypeForm"},
        16: {"warning:reportDeprecated"},  # .abs(): the stubs' deprecation text names pypto.abs(x)
        17: {"warning:reportDeprecated"},  # .T
    }


def test_the_deprecation_text_gives_the_fix(tmp_path: Path) -> None:
    exe = shutil.which("pyright")
    assert exe is not None
    (tmp_path / "forms.py").write_text(FORMS)
    (tmp_path / "pyrightconfig.json").write_text(json.dumps({"reportDeprecated": "warning"}))
    out = subprocess.run([exe, "--pythonpath", sys.executable, "forms.py"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300).stdout
    assert "PyPTO tensors have no .abs(); use pypto.abs(x)" in out
    assert "PyPTO tensors have no .T; use pypto.matmul(a, b, dtype, b_trans=True) or pypto.transpose(x, 0, 1)" in out


@pytest.mark.parametrize("mode", ["off", "standard"])
def test_the_quieting_comment_leaves_only_real_findings(tmp_path: Path, mode: str) -> None:
    # The per-file comment for kernel modules (docs/integrations.md): the annotation forms stop being reported,
    # the types stay what they were (it changes no inference).
    loud = _pyright(tmp_path, {"typeCheckingMode": mode})
    quiet = _pyright(tmp_path, {"typeCheckingMode": mode}, QUIET_COMMENT + FORMS)
    assert _rules_by_line(quiet) == {}
    assert [t for _, s, t in quiet if s == "reveal"] == [t for _, s, t in loud if s == "reveal"]


RESHAPE = '''\
import pypto


def k(t: pypto.Tensor, u: pypto.Tensor) -> None:
    a = pypto.reshape(t, [t.shape[0], 8, 8])
    b = pypto.view(u, [u.shape[0] // 2, 64], [0, 0])
    c = t.reshape([t.shape[1], t.shape[0]])
    reveal_type(t.shape[0])
    takes_symints(t.shape)


def takes_symints(dims: list[pypto.SymInt]) -> None: ...
'''


def test_shape_items_go_into_shape_lists(tmp_path: Path) -> None:
    # pypto.reshape(t, [t.shape[0], ...]) runs on 0.2.0 for a static dim (regression
    # reshape_with_a_shape_item_ok): a dim is an int or a SymbolicScalar at run time, and only the
    # mypy plugin knows which (pypto-not-concrete for a dynamic one); the stubs accept it, and
    # ``t.shape`` goes into a helper annotated List[SymInt] as well.
    found = _pyright(tmp_path, {"typeCheckingMode": "standard"}, RESHAPE)
    assert _rules_by_line(found) == {}
    assert [t for _, s, t in found if s == "reveal"] == ['"Any"']
