"""Hover on a kernel of one module that a test of another module calls (the layout of real
projects: ``kern/norm.py`` beside ``test_norm.py``): the kernel is traced with each call's tensors
(``calls.cross_module``) and the hover names each call with what the trace saw."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from .stdio_client import Client  # noqa: E402

KERNEL = """\
import pypto


@pypto.frontend.jit
def norm(x: pypto.Tensor(), out: pypto.Tensor()):
    pypto.set_vec_tile_shapes(8, 64)
    y = x * 2.0
    out[:] = y
"""

TEST = """\
import torch
from kern.norm import norm


def test_norm() -> None:
    norm(torch.randn(8, 64), torch.empty(8, 64))
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lsp-cross-module")
    (folder / "kern").mkdir()
    (folder / "kern" / "__init__.py").write_text("")
    (folder / "kern" / "norm.py").write_text(KERNEL)
    (folder / "test_norm.py").write_text(TEST)
    return folder


@pytest.fixture(scope="module")
def client(root: Path) -> Iterator[Client]:
    c = Client(root)
    yield c
    assert c.shutdown() == 0


def test_hover_names_the_call_in_the_other_module(client: Client, root: Path) -> None:
    test = client.open(root / "test_norm.py")
    client.diagnostics(test)
    kernel = client.open(root / "kern" / "norm.py")
    client.diagnostics(kernel)
    # y = x * 2.0 (line 7): y's value; the parameter x (line 5)
    assert client.hover(kernel, 6, 4)["contents"]["value"].splitlines()[::2] == [
        "`[...] ?` (not all known here)",
        "vec tile (8, 64), cube tile not set",
        "with the call at test_norm.py:6: `[8, 64] DT_FP32`",
    ]
    assert client.hover(kernel, 4, 9)["contents"]["value"].splitlines()[::2] == [
        "`[...] ?` (not all known here)",
        "vec tile not set, cube tile not set",
        "with the call at test_norm.py:6: `[8, 64] DT_FP32`",
    ]


def test_an_edit_of_the_call_replaces_what_hover_says(client: Client, root: Path) -> None:
    test = client.open(root / "test_norm.py")
    version = client.change(test, TEST.replace("8, 64", "16, 64"))
    client.diagnostics(test, version)
    kernel = client.open(root / "kern" / "norm.py")
    client.diagnostics(kernel)
    assert client.hover(kernel, 6, 4)["contents"]["value"].splitlines()[4:] == [
        "with the call at test_norm.py:6: `[16, 64] DT_FP32`",
    ]
