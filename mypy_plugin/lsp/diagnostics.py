"""A file's mypy records as LSP diagnostics: those ``pypto-check`` shows for it (its one filter,
:func:`mypy_plugin.cli.shown_records`), each ``pypto-*`` code a link to its section of codes.md."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ..cli import shown_records
from ..cli.kernel_spans import TracedLines
from ..mypy_output import Record
from ..knowledge.codes import lookup

_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
SOURCE = "pypto-check"


def shown(found: list[Record], lines: Sequence[str], *, user_config: bool, show_all: bool) -> tuple[list[Record], int]:
    """The records a check of this file shows, and how many errors it hides."""

    def source_line(_path: str, line: int) -> str | None:
        return lines[line - 1].rstrip("\r\n") if 1 <= line <= len(lines) else None

    # the editor's text, not the file on disk: a name undefined in a kernel's trace is shown
    traced = TracedLines(lambda _path: "".join(lines))
    kept, hidden = shown_records(found, source_line, user_config=user_config, show_all=show_all, traced=traced)
    return kept, sum(r.severity == "error" for r in hidden)


def record_range(rec: Record, lines: Sequence[str]) -> types.Range:
    """mypy's span (1-based line and column, end column inclusive), in code points: the caller
    converts to the client's units."""
    line = max((rec.line or 1) - 1, 0)
    if rec.column is None:
        text = lines[line].rstrip("\r\n") if line < len(lines) else ""
        return types.Range(types.Position(line, 0), types.Position(line, len(text)))
    start = types.Position(line, max(rec.column - 1, 0))
    if rec.end_line is None or rec.end_column is None or (rec.end_line, rec.end_column) <= (rec.line, rec.column - 1):
        return types.Range(start, types.Position(line, start.character + 1))
    return types.Range(start, types.Position(rec.end_line - 1, rec.end_column))


def diagnostic(rec: Record, rng: types.Range, codes_url: str | None) -> types.Diagnostic:
    href = None
    if rec.code is not None and codes_url is not None and lookup(rec.code) is not None:
        href = types.CodeDescription(href=f"{codes_url}#{rec.code}")
    return types.Diagnostic(
        range=rng,
        message="\n".join([rec.message, *rec.notes]),
        severity=_SEVERITY.get(rec.severity, types.DiagnosticSeverity.Information),
        code=rec.code,
        code_description=href,
        source=SOURCE,
    )
