"""pypto-lsp's settings (as docs/editor.md lists them) and the edits of a fix as text edits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from mypy_plugin.lsp.actions import text_edits  # noqa: E402
from mypy_plugin.lsp.settings import UNKNOWN_HINTS, Settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_settings_as_given_or_under_pypto() -> None:
    given = {"debounceMs": 50, "inlayHints": {"unknown": "callSites"}, "showAll": True, "mypyArgs": ["--strict"],
             "codesUrl": "https://example.org/codes.md"}
    for data in (given, {"pypto": given}):
        s, problems = Settings().merged(data)
        assert problems == []
        assert (s.debounce_ms, s.unknown_hints, s.show_all, s.mypy_args, s.codes_url) == (
            50, "callSites", True, ("--strict",), "https://example.org/codes.md")
    assert Settings().merged(None) == (Settings(), [])


def test_bad_settings_are_named_and_ignored() -> None:
    s, problems = Settings().merged({"debounceMs": -1, "inlayHints": {"unknown": "all"}, "showAll": "yes",
                                     "mypyArgs": "--strict"})
    assert s == Settings()
    assert [p.split(":")[0] for p in problems] == ["debounceMs", "inlayHints.unknown", "showAll", "mypyArgs"]
    assert Settings().merged([1])[1] == ["settings: expected an object, got [1]"]


def test_the_docs_list_the_settings() -> None:
    table = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8").split("## Settings", 1)[1].split("\n## ")[0]
    names = re.findall(r"^\| `([\w.]+)` \|", table, re.M)
    assert names == ["debounceMs", "inlayHints.unknown", "showAll", "mypyArgs", "codesUrl"]
    assert all(f'"{v}"' in table for v in UNKNOWN_HINTS)


def test_the_default_code_link_is_the_installed_codes_md() -> None:
    url = Settings().codes_url
    assert url is not None and url.startswith("file://") and url.endswith("/codes.md")


def test_text_edits_replace_whole_lines() -> None:
    before = "a\nb\nc\nd\n"
    after = "a\nB\nc\nD\n"
    edits = text_edits(before, after)
    assert [(e.range.start.line, e.range.end.line, e.new_text) for e in edits] == [(1, 2, "B\n"), (3, 4, "D\n")]
    assert all(e.range.start.character == e.range.end.character == 0 for e in edits)
