"""Code actions: the quick fix of a finding ``--fix`` can fix, and a fix-all source action; the
same edits as ``pypto-check --diff`` (the fixer's loop, :func:`mypy_plugin.fix.apply.fix_loop`,
with the engine re-checking each candidate on the unsaved text instead of a new mypy run)."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Mapping

from lsprotocol import types

from ..fix import FIXABLE
from ..fix.apply import Outcome, fix_loop
from ..fix.findings import Finding, parse
from .engine import Engine

FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.pypto"


def fix(engine: Engine, path: str, pick: Callable[[Finding], bool] | None) -> Outcome:
    """The fixes of the findings in the file at ``path`` (those ``pick`` accepts), each kept when
    the engine's re-check confirms it. The engine ends on the open texts again."""
    texts = engine.open_texts()

    def absolute(printed: str) -> str:
        return os.path.abspath(printed)

    def read(printed: str) -> str:
        full = absolute(printed)
        if full in texts:
            return texts[full]
        with open(full, encoding="utf-8") as f:
            return f.read()

    def recheck(trial: Mapping[str, str]) -> list[Finding]:
        return parse(engine.trial({absolute(p): t for p, t in trial.items()}))

    def here(f: Finding) -> bool:
        return absolute(f.path) == path and (pick is None or pick(f))

    findings = parse(engine.current_output())
    if not any(f.code in FIXABLE and here(f) for f in findings):
        return Outcome(remaining=findings)
    try:
        return fix_loop(findings, read, recheck, pick=here)
    finally:
        engine.restore()


def finding_of(diag: types.Diagnostic) -> Callable[[Finding], bool]:
    """The finding a diagnostic shows (its line, column and code)."""
    line, column = diag.range.start.line + 1, diag.range.start.character + 1
    return lambda f: f.line == line and f.column == column and f.code == diag.code


def text_edits(before: str, after: str) -> list[types.TextEdit]:
    """Whole-line edits from ``before`` to ``after`` (a fix keeps the line count), in code points."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal":
            rng = types.Range(types.Position(i1, 0), types.Position(i2, 0))
            edits.append(types.TextEdit(range=rng, new_text="".join(new[j1:j2])))
    return edits
