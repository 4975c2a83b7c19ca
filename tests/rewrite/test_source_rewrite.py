"""The source rewrite, exactly: each input of issue 12 and the text it becomes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from mypy import api

from mypy_plugin.rewrite import module_marker
from mypy_plugin.rewrite import transform as source_rewrite
from mypy_plugin.rewrite.reparse_guard import DEBUG_ENV, RewriteRejected
from mypy_plugin.rewrite.transform import rewrite_source as _rewrite_source

# What module_marker.py appends to a module importing pypto without a tensor annotation (its own
# test is test_module_marker): the cases here are about the other edits.
_MARKER_IMPORT = f"ForwardRef as {module_marker.ALIAS}{module_marker.DECLARATION}"


_DIGEST = re.compile(rf"(, ForwardRef as {module_marker.DIGEST_ALIAS})|(; {module_marker.DIGEST_NAME}: "
                     rf"{module_marker.DIGEST_ALIAS}\[\d+\])")


def _without_inline_options(source: str, out: str) -> str:
    """``out`` without the ``# mypy:`` line module_marker.py appends (test_module_marker has it)."""
    line = f"{module_marker.INLINE_OPTIONS}\n"
    if not out.endswith(line) or source.endswith(line):
        return out
    out = out[:-len(line)]
    return out[:-1] if not source.endswith(("\n", "\r")) else out


def rewrite_source(source: str) -> str:
    """The rewrite without the declarations of module_marker.py (test_module_marker has them)."""
    out = _DIGEST.sub("", _without_inline_options(source, _rewrite_source(source))).replace(f"; from typing import ForwardRef as {module_marker.DIGEST_ALIAS}",
                                                         "; from typing import ")
    out = out.replace("; from typing import ;", ";").replace("; from typing import \n", "\n")
    out = out.replace("from typing import , ", "from typing import ")
    return out.replace(f", {_MARKER_IMPORT}", "").replace(f"; from typing import {_MARKER_IMPORT}", "")

FINAL = "from typing import ForwardRef as _PyptoStubsConst"
KERNEL_RETURN = "from typing import ForwardRef as _PyptoStubsKernelReturn"

CASES = {
    "compound_first_statement": (
        "try:\n    import pypto\nexcept ImportError:\n    pass\nROWS = 8\n",
        f"try:\n    import pypto; {FINAL}\nexcept ImportError:\n    pass\nROWS: _PyptoStubsConst[8] = 8\n",
    ),
    "decorated_def_only_statement_before_constant": (
        "@dec\ndef f(a: pypto.Tensor([8], pypto.DT_FP32)):\n    import pypto\nROWS = 8\n",
        f"@dec\ndef f(a: pypto.Tensor[[8], pypto.DT_FP32]):\n    import pypto\nROWS: _PyptoStubsConst[8] = 8; {FINAL}\n",
    ),
    "after_every_future_import": (
        "from __future__ import annotations\nfrom __future__ import division\nimport pypto\nROWS = 8\n",
        f"from __future__ import annotations\nfrom __future__ import division; {FINAL}\nimport pypto\n"
        "ROWS: _PyptoStubsConst[8] = 8\n",
    ),
    "lone_cr_in_docstring": (
        '"""doc\rmore"""\nimport pypto\ndef k(a: pypto.Tensor([8, 4], pypto.DT_FP32)) -> None: ...\n',
        '"""doc\rmore"""\nimport pypto\ndef k(a: pypto.Tensor[[8, 4], pypto.DT_FP32]) -> None: ...\n',
    ),
    "old_mac_line_ends": (
        "import pypto\rROWS = 8\rdef k(a: pypto.Tensor([ROWS, 4], pypto.DT_FP32)) -> None:\r    x = 1\r",
        f"import pypto; {FINAL}\rROWS: _PyptoStubsConst[8] = 8\rdef k(a: pypto.Tensor[[ROWS, 4], pypto.DT_FP32]) -> None:\r"
        "    x: _PyptoStubsConst[1] = 1\r",
    ),
    "windows_line_ends": (
        "import pypto\r\ndef k(a: pypto.Tensor([8, 4], pypto.DT_FP32)) -> None:\r\n    x = 1\r\n",
        f"import pypto; {FINAL}\r\ndef k(a: pypto.Tensor[[8, 4], pypto.DT_FP32]) -> None:\r\n    x: _PyptoStubsConst[1] = 1\r\n",
    ),
    "local_constant_only_in_functions_that_use_pypto": (
        "import pypto\ndef plain():\n    x = 1\ndef k(a: pypto.Tensor[[8], pypto.DT_FP32]) -> None:\n    x = 1\n",
        f"import pypto; {FINAL}\ndef plain():\n    x = 1\ndef k(a: pypto.Tensor[[8], pypto.DT_FP32]) -> None:\n"
        "    x: _PyptoStubsConst[1] = 1\n",
    ),
    "call_dim": (
        'import pypto\ndef k(a: pypto.Tensor([cfg.get("rows", 8), 4], pypto.DT_FP32)) -> None: ...\n',
        "import pypto\ndef k(a: pypto.Tensor[[\"=cfg.get('rows', 8)\", 4], pypto.DT_FP32]) -> None: ...\n",
    ),
    "subscript_dim": (
        'import pypto\ndef k(a: pypto.Tensor([CFG["rows"], 4], pypto.DT_FP32)) -> None: ...\n',
        "import pypto\ndef k(a: pypto.Tensor[[\"=CFG['rows']\", 4], pypto.DT_FP32]) -> None: ...\n",
    ),
    "dim_over_two_lines": (
        "import pypto\ndef k(a: pypto.Tensor([n *  # half\n    2, 4], pypto.DT_FP32)) -> None:\n    y = 1\n",
        f"import pypto; {FINAL}\ndef k(a: pypto.Tensor[['=n * 2'\n, 4], pypto.DT_FP32]) -> None:\n    y: _PyptoStubsConst[1] = 1\n",
    ),
    "dict_unpacking_and_empty_dict": (
        "import pypto\ndef k(a: pypto.Tensor[{**SPEC}], b: pypto.Tensor[{}]) -> None: ...\n",
        "import pypto\ndef k(a: pypto.Tensor[...     ], b: pypto.Tensor[...]) -> None: ...\n",
    ),
    "starred_dim": (
        "import pypto\ndef k(a: pypto.Tensor([*S, 8], pypto.DT_FP32)) -> None: ...\n",
        "import pypto\ndef k(a: pypto.Tensor[...    , pypto.DT_FP32]) -> None: ...\n",
    ),
    "unreadable_shape_and_dtype": (
        "import pypto\ndef k(a: pypto.Tensor(x.shape[1:], f(dt))) -> None: ...\n",
        "import pypto; from typing import Any as _PyptoStubsAny\ndef k(a: pypto.Tensor[...        , _PyptoStubsAny]) -> None: ...\n",
    ),
    "parenthesized_callee": (
        "import pypto\ndef k(a: (pypto.Tensor)([8, 4], pypto.DT_FP32)) -> None: ...\n",
        "import pypto\ndef k(a: (pypto.Tensor)[[8, 4], pypto.DT_FP32]) -> None: ...\n",
    ),
    "multi_line_starred_call_in_variable_and_return_annotations": (
        "import pypto\ndef k() -> pypto.Tensor(\n    *S\n):\n    x: pypto.Tensor(\n        *S\n    ) = f()\n",
        "import pypto\ndef k() -> (pypto.Tensor \n      \n):\n    x: (pypto.Tensor \n          \n    ) = f()\n",
    ),
    "name_keyword_over_two_lines": (
        "import pypto\ndef k(a: pypto.Tensor([8], pypto.DT_FP32, name=(\n'a'))) -> None: ...\n",
        "import pypto\ndef k(a: pypto.Tensor[[8], pypto.DT_FP32,      (\nNone)]) -> None: ...\n",
    ),
    "setattr_with_a_computed_name_is_an_object_attribute": (
        "import pypto\nROWS = 8\nsetattr(obj, field.name, 1)\n",
        f"import pypto; {FINAL}\nROWS: _PyptoStubsConst[8] = 8\nsetattr(obj, field.name, 1)\n",
    ),
    "docstring_first_then_import": (
        '"""doc"""\nimport pypto\nROWS = 8\n',
        f'"""doc"""\nimport pypto; {FINAL}\nROWS: _PyptoStubsConst[8] = 8\n',
    ),
    "tensor_imported_as": (
        "from pypto import Tensor as PT\ndef k(a: PT([8, 4], pypto.DT_FP32)) -> None: ...\n",
        "from pypto import Tensor as PT\ndef k(a: PT[[8, 4], pypto.DT_FP32]) -> None: ...\n",
    ),
    "pypto_imported_as": (
        "import pypto as pt\ndef k(a: pt.Tensor([8, 4], pt.DT_FP32)) -> None: ...\n",
        "import pypto as pt\ndef k(a: pt.Tensor[[8, 4], pt.DT_FP32]) -> None: ...\n",
    ),
    "tuple_and_negative_constants": (
        "import pypto\nVEC = (8, -4)\nNEG = -2 * 3\n",
        "import pypto; from typing import ForwardRef as _PyptoStubsConstTuple, ForwardRef as _PyptoStubsConst\n"
        "VEC: _PyptoStubsConstTuple[8, -4] = (8, -4)\nNEG: _PyptoStubsConst[-6] = -2 * 3\n",
    ),
    "kernel_return_for_strict": (
        "import pypto\n@pypto.frontend.jit\ndef k(a: pypto.Tensor, out: pypto.Tensor):\n    pass\n",
        f"import pypto; {KERNEL_RETURN}\n@pypto.frontend.jit\ndef k(a: pypto.Tensor, out: pypto.Tensor) -> "
        "_PyptoStubsKernelReturn:\n    pass\n",
    ),
    "kernel_return_after_comments_slash_and_trailing_comma": (
        "from pypto.frontend import jit as J\n@J()\ndef k(a: int,  # a\n      b: int = f(1),\n      /,\n      )  :\n"
        "    pass\n",
        f"from pypto.frontend import jit as J; {KERNEL_RETURN}\n@J()\ndef k(a: int,  # a\n      b: int = f(1),\n"
        "      /,\n      ) -> _PyptoStubsKernelReturn  :\n    pass\n",
    ),
    "kernel_return_after_a_parenthesized_annotation": (
        "import pypto\n@pypto.frontend.jit\ndef k(a: (int)): ...\n",
        f"import pypto; {KERNEL_RETURN}\n@pypto.frontend.jit\ndef k(a: (int)) -> _PyptoStubsKernelReturn: ...\n",
    ),
    "kernel_return_through_frontend_alias_and_async": (
        "from pypto import frontend as fe\nclass C:\n    @fe.jit\n    async def k(self, a: int): ...\n",
        f"from pypto import frontend as fe; {KERNEL_RETURN}\nclass C:\n    @fe.jit\n    async def k(self, a: int) -> "
        "_PyptoStubsKernelReturn: ...\n",
    ),
}

UNCHANGED = {
    # kernels that keep mypy's own rule: annotated already, no annotated parameter, a type
    # comment, another library's jit.
    "kernel_with_a_return_annotation": "import pypto\n@pypto.frontend.jit\ndef k(a: pypto.Tensor) -> None: ...\n",
    "kernel_without_annotations": "import pypto\n@pypto.frontend.jit\ndef k(a, b): ...\n",
    "kernel_with_a_type_comment": "import pypto\n@pypto.frontend.jit\ndef k(a: int, b):  # type: (int, int) -> None\n    pass\n",
    "another_librarys_jit": "import pypto\nimport numba\n@numba.jit\ndef k(a: int): ...\n",
    "local_tensor_class": "import pypto\nclass Tensor: ...\ndef f(a: Tensor([8], int)) -> None: ...\n",
    "other_library_tensor": "import pypto, torch\ndef f(a: torch.Tensor([8])) -> None: ...\n",
    "star_import_then_rebind": "from dims import *\nimport pypto\nROWS = 16\n",
    "rebound_through_an_attribute": "import pypto\nimport dims\nROWS = 16\ndims.ROWS = 4\n",
    "rebound_by_walrus": "import pypto\nROWS = 16\nprint(ROWS := 4)\n",
    "rebound_in_a_function": "import pypto\nROWS = 16\ndef f():\n    global ROWS\n    ROWS = 4\n",
    "namespace_writes": "import pypto\nROWS = 16\nglobals()['ROWS'] = 4\n",
    "setattr_by_name": "import pypto\nROWS = 16\nsetattr(sys.modules[__name__], 'ROWS', 4)\n",
    "type_comment": "import pypto\nROWS = 16  # type: int\n",
    "does_not_parse": "import pypto\nROWS = 16\ndef (:\n",
}


@pytest.mark.parametrize("name", CASES)
def test_rewrite(name: str) -> None:
    before, after = CASES[name]
    assert rewrite_source(before) == after
    assert _statement_lines(after) == _statement_lines(before)


def _statement_lines(text: str) -> list[tuple[str, int, int | None]]:
    """Each statement's kind and lines; ``X: Final = 1`` reads as ``X = 1``, the helper import is left out."""
    return sorted(
        (type(n).__name__.replace("AnnAssign", "Assign"), n.lineno, n.end_lineno)
        for n in ast.walk(ast.parse(text))
        if isinstance(n, ast.stmt) and not (isinstance(n, ast.ImportFrom) and n.module == "typing")
    )


@pytest.mark.parametrize("name", UNCHANGED)
def test_left_alone(name: str) -> None:
    assert rewrite_source(UNCHANGED[name]) == UNCHANGED[name]


def test_rewrite_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rewrite that would move a line is dropped (and raised under the debug switch)."""
    source = "import pypto\ndef k(a: pypto.Tensor([8], pypto.DT_FP32)) -> None: ...\n"
    monkeypatch.setattr(source_rewrite, "_rewrite", lambda s, tree, keep=None: (s.replace("(", "(\n", 1), False))
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    assert rewrite_source(source) == source
    monkeypatch.setenv(DEBUG_ENV, "1")
    with pytest.raises(RewriteRejected, match="moved or changed"):
        rewrite_source(source)


def test_exceptions_never_escape(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "import pypto\nROWS = 8\n"

    def boom(s: str, tree: object = None, keep: object = None) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(source_rewrite, "_rewrite", boom)
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    assert rewrite_source(source) == source
    monkeypatch.setenv(DEBUG_ENV, "1")
    with pytest.raises(RuntimeError, match="bug"):
        rewrite_source(source)


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_mypy_reads_files_with_other_line_ends(tmp_path: Path, newline: str) -> None:
    """Through mypy: the annotation is read and every message keeps its line."""
    lines = [
        '"""A docstring with a lone\rcarriage return."""',
        "import pypto",
        "ROWS = 8",
        "def k(a: pypto.Tensor([ROWS,",
        "                       4], pypto.DT_FP32)) -> None:",
        "    reveal_type(a)",
        'x: int = "no"',
    ]
    (tmp_path / "k.py").write_bytes(newline.join(lines).encode() + newline.encode())
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n")
    out, err, status = api.run(["--no-incremental", "--config-file", str(tmp_path / "mypy.ini"), str(tmp_path / "k.py")])
    got = [line.split("k.py:", 1)[1] for line in out.splitlines() if "k.py:" in line]
    assert got == [
        '7: note: Revealed type is "pypto.Tensor[tuple[Literal[8], Literal[4]], pypto._DT_FP32]"',
        '8: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
    ], out + err


def test_module_marker() -> None:
    """A module importing pypto without a tensor annotation gets the declaration that gives it
    the PyPTO module options (module_marker.py); once, and not when it has a tensor annotation.
    Every module importing pypto also declares the digest of its text (read by other modules'
    checks: calls/module_sources.py); a rewritten text keeps its one declaration."""
    plain = "import os\nimport pypto.frontend as pf\n\ndef test():\n    pass\n"
    digest = module_marker.source_digest(plain)
    marked = ("import os; from typing import ForwardRef as _PyptoStubsModule, ForwardRef as _PyptoStubsDigest; "
              f"_PyptoStubsUsesPypto: _PyptoStubsModule; _PyptoStubsSource: _PyptoStubsDigest[{digest}]\n"
              "import pypto.frontend as pf\n\ndef test():\n    pass\n# mypy: check-untyped-defs\n")
    assert _rewrite_source(plain) == marked
    assert _rewrite_source(marked) == marked
    annotated = "import pypto\ndef k(a: pypto.Tensor):\n    pass"  # (no line break at the end)
    digest = module_marker.source_digest(annotated)
    with_digest = annotated.replace(
        "import pypto\n", "import pypto; from typing import ForwardRef as _PyptoStubsDigest; "
        f"_PyptoStubsSource: _PyptoStubsDigest[{digest}]\n") + "\n# mypy: check-untyped-defs\n"
    assert _rewrite_source(annotated) == with_digest
    assert _rewrite_source(with_digest) == with_digest
    assert _rewrite_source("import os\n'''import pypto'''\n") == "import os\n'''import pypto'''\n"
