"""Apply fixes one at a time, keeping only those the checker confirms.

A fix is kept when, re-checked (mypy's shadow files: nothing is written until the end), its
finding is gone and no finding appears that was not there before. Each re-check also gives the
positions for the next fix, so fixes on one line do not disturb each other.
"""

from __future__ import annotations

import difflib
import tempfile
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from .edits import EDITS, HOST_CODES
from .findings import Finding, collect
from .locate import Located


@dataclass
class Outcome:
    """What a fix run did: the new text of each changed file, and what is left to the user."""

    fixed: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (before, after)

    def diff(self) -> str:
        chunks: list[str] = []
        for path, (before, after) in sorted(self.texts.items()):
            chunks.extend(difflib.unified_diff(
                before.splitlines(keepends=True), after.splitlines(keepends=True),
                fromfile=f"a/{path}", tofile=f"b/{path}",
            ))
        return "".join(chunks)

    def write(self) -> None:
        for path, (_before, after) in self.texts.items():
            Path(path).write_bytes(after.encode("utf-8"))


def run(targets: Sequence[str], mypy_args: Sequence[str], only: Collection[str] | None = None) -> Outcome:
    findings = collect(targets, mypy_args)
    with tempfile.TemporaryDirectory(prefix="pypto-fix-") as tmp:
        written: list[str] = []

        def recheck(texts: Mapping[str, str]) -> list[Finding]:
            shadows: dict[str, str] = {}
            for path, text in texts.items():
                shadow = Path(tmp) / f"{len(written)}.py"
                shadow.write_text(text, encoding="utf-8")
                written.append(str(shadow))
                shadows[path] = str(shadow)
            return collect(targets, mypy_args, shadows)

        return fix_loop(findings, _read, recheck, only)


def fix_loop(findings: list[Finding], read: Callable[[str], str],
             recheck: Callable[[Mapping[str, str]], list[Finding]], only: Collection[str] | None = None,
             pick: Callable[[Finding], bool] | None = None) -> Outcome:
    """The fixes of ``findings`` (those of codes in ``only``, those ``pick`` accepts), one at a
    time, each kept when ``recheck`` (the findings with the given files' texts in place of
    theirs) confirms it; ``read`` gives a file's text. pypto-check re-runs mypy; the language
    server updates its engine."""
    outcome = Outcome()
    tried: set[tuple[tuple[str, int, str], int, str]] = set()
    while True:
        candidate = _next_fix(findings, tried, outcome.texts, only, read, pick)
        if candidate is None:
            break
        finding, path, new_text = candidate
        trial = {**{p: after for p, (_before, after) in outcome.texts.items()}, path: new_text}
        after = recheck(trial)
        before_keys = Counter(f.key for f in findings)
        after_keys = Counter(f.key for f in after)
        if after_keys[finding.key] >= before_keys[finding.key] or after_keys - before_keys:
            continue  # the finding stayed, or the fix made a new one
        before = outcome.texts.get(path, (read(path), ""))[0]
        outcome.texts[path] = (before, new_text)
        outcome.fixed.append(finding)
        findings = after
    outcome.remaining = findings
    return outcome


def _next_fix(
    findings: Sequence[Finding],
    tried: set[tuple[tuple[str, int, str], int, str]],
    texts: dict[str, tuple[str, str]],
    only: Collection[str] | None,
    read: Callable[[str], str],
    pick: Callable[[Finding], bool] | None,
) -> tuple[Finding, str, str] | None:
    for finding in findings:
        edit = EDITS.get(finding.code)
        attempt = (finding.key, finding.column, finding.message)
        if edit is None or attempt in tried or (only is not None and finding.code not in only):
            continue
        if pick is not None and not pick(finding):
            continue
        tried.add(attempt)
        path = finding.path
        source = texts[path][1] if path in texts else read(path)
        new_text = _edited(source, finding)
        if new_text is not None and new_text != source:
            return finding, path, new_text
    return None


def _edited(source: str, finding: Finding) -> str | None:
    try:
        loc = Located.parse(source)
    except cst.ParserSyntaxError:
        return None  # never edit a file that does not parse
    pypto = loc.pypto_name()
    if pypto is None and finding.code not in HOST_CODES:
        return None
    module = EDITS[finding.code](loc, finding, pypto or "pypto")
    if module is None:
        return None
    text = module.code
    # Line-preserving by construction; a fix that moved lines would misplace every later finding.
    return text if text.count("\n") == source.count("\n") else None


def _read(path: str) -> str:
    return Path(path).read_bytes().decode("utf-8")
