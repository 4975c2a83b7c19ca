"""mypy's text output (run with columns, error ends and codes) as records, and back to mypy's text;
one run of mypy that gets past a file it finds under two module names."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from mypy import api

# path:line:col:end_line:end_col: severity: message  [code]   (columns and ends optional)
_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<column>\d+))?(?::(?P<end_line>\d+):(?P<end_column>\d+))?: "
    r"(?P<severity>error|note|warning): (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)
# A message about a whole file: "k.py: error: Duplicate module named ..."
_FILE_LINE = re.compile(r"^(?P<path>[^:\s][^:]*): (?P<severity>error|note|warning): (?P<message>.*)$")
_FOUND = re.compile(r"^Found \d+ errors? in \d+ files? \(checked (?P<checked>\d+) source files?\)$")
_SUCCESS = re.compile(r"^Success: no issues found in (?P<checked>\d+) source files?$")
# mypy stops the whole build on this (a blocker): a script folder's subfolder without
# __init__.py, given as a source ("compare") and imported by its neighbours ("utils.compare").
_TWICE = re.compile(
    r'^(?P<path>[^:\s][^:]*): error: Source file found twice under different module names: '
    r'"(?P<first>[^"]+)" and "(?P<second>[^"]+)"$', re.MULTILINE)


@dataclass
class Record:
    path: str
    line: int | None
    column: int | None  # 1-based
    end_line: int | None
    end_column: int | None  # inclusive
    severity: str
    message: str
    code: str | None
    notes: list[str] = field(default_factory=list)
    # The note lines as mypy printed them (they may be on other lines of the file).
    note_records: list[Record] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "notes": list(self.notes),
        }

    def render(self, columns: bool, ends: bool) -> list[str]:
        """mypy's own line for this record and its notes."""
        return [_render(self, columns, ends)] + [_render(n, columns, ends) for n in self.note_records]


def _render(rec: Record, columns: bool, ends: bool) -> str:
    where = rec.path
    if rec.line is not None:
        where += f":{rec.line}"
        if columns and rec.column is not None:
            where += f":{rec.column}"
            if ends and rec.end_line is not None:
                where += f":{rec.end_line}:{rec.end_column}"
    code = f"  [{rec.code}]" if rec.code and rec.severity == "error" else ""
    return f"{where}: {rec.severity}: {rec.message}{code}"


@dataclass
class Output:
    records: list[Record]
    other: list[str]  # lines that are not diagnostics or the summary (kept as they are)
    checked: int | None  # "checked N source files", when mypy printed its summary


def parse(text: str) -> Output:
    """A note that follows an error in the same file belongs to it when it is on the same line
    or points at a definition ("... defined here")."""
    records: list[Record] = []
    other: list[str] = []
    checked: int | None = None
    for raw in text.splitlines():
        summary = _FOUND.match(raw) or _SUCCESS.match(raw)
        if summary is not None:
            checked = int(summary["checked"])
            continue
        rec = _record(raw)
        if rec is None:
            if raw.strip():
                other.append(raw)
            continue
        last = records[-1] if records else None
        if (
            rec.severity == "note"
            and last is not None
            and last.severity == "error"
            and last.path == rec.path
            and (last.line == rec.line or rec.message.endswith("defined here"))
        ):
            if last.line == rec.line:
                last.notes.append(rec.message)
            last.note_records.append(rec)
            continue
        records.append(rec)
    return Output(records, other, checked)


def _record(raw: str) -> Record | None:
    m = _LINE.match(raw)
    if m is not None:
        return Record(
            path=m["path"],
            line=int(m["line"]),
            column=_int(m["column"]),
            end_line=_int(m["end_line"]),
            end_column=_int(m["end_column"]),
            severity=m["severity"],
            message=m["message"],
            code=m["code"],
        )
    f = _FILE_LINE.match(raw)
    if f is not None:
        return Record(f["path"], None, None, None, None, f["severity"], f["message"], None)
    return None


@dataclass(frozen=True)
class FoundTwice:
    path: str  # as mypy printed it
    first: str  # the module name it had as a source
    second: str  # the name its importer gives it


def found_twice(text: str) -> list[FoundTwice]:
    """The files mypy stopped on because it found them under two module names."""
    return [FoundTwice(m["path"], m["first"], m["second"]) for m in _TWICE.finditer(text)]


# Each retry gets past one file (mypy stops at the first); a tree has a few at most.
_MAX_RETRIES = 20


def run(args: Sequence[str]) -> tuple[str, str, int, list[FoundTwice]]:
    """``mypy.api.run(args)``; a file mypy finds twice is checked once, as its importers name it:
    it is left out of the sources (``--exclude``, or dropped from the command line), and mypy
    still checks it as the import (rule of mypy's --exclude: it only affects the discovery of
    sources). Returns the files so treated, for a line that says so."""
    current = list(args)
    treated: list[FoundTwice] = []
    while True:
        stdout, stderr, status = api.run(current)
        twice = found_twice(stdout) if status == 2 else []
        fresh = [t for t in twice if all(t.path != done.path for done in treated)]
        if not fresh or len(treated) >= _MAX_RETRIES:
            return stdout, stderr, status, treated
        treated += fresh
        current = _imports_only(current, [t.path for t in fresh])


def _imports_only(args: list[str], paths: list[str]) -> list[str]:
    wanted = {os.path.abspath(p) for p in paths}
    kept = [a for a in args if a.startswith("-") or os.path.abspath(a) not in wanted]
    for path in paths:
        rel = os.path.relpath(os.path.abspath(path)).replace(os.sep, "/")
        kept += ["--exclude", f"^{re.escape(rel)}$"]
    return kept


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


def summary(records: list[Record], checked: int | None) -> str | None:
    """mypy's closing line for these records."""
    errors = [r for r in records if r.severity == "error"]
    if checked is None:
        return None
    plural = "s" if checked != 1 else ""
    if not errors:
        return f"Success: no issues found in {checked} source file{plural}"
    files = len({r.path for r in errors})
    return (
        f"Found {len(errors)} error{'s' if len(errors) != 1 else ''} in {files} file{'s' if files != 1 else ''} "
        f"(checked {checked} source file{plural})"
    )
