"""The machine outputs of a run: ``json`` (our schema), ``github`` (workflow commands), ``sarif`` (2.1.0)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mypy import errorcodes as mypy_codes

from ..mypy_output import Record
from ..versions import TARGET_PYPTO, pypto_stubs_version
from ..knowledge.codes import TABLE

JSON_SCHEMA_VERSION = 1
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


@dataclass
class Report:
    status: int  # the exit status: 0 clean, 1 findings, 2 fatal
    records: list[Record]  # what is shown
    hidden: int = 0  # mypy errors hidden by signal first
    fatal: list[str] = field(default_factory=list)  # why the run could not check (status 2)
    coverage: list[dict[str, Any]] | None = None  # --coverage: one object per kernel


def to_json(report: Report) -> str:
    data = {
        "version": JSON_SCHEMA_VERSION,
        "status": report.status,
        "errors": [r.to_json() for r in report.records],
        "hidden": report.hidden,
        "fatal": report.fatal,
    }
    if report.coverage is not None:
        data["coverage"] = report.coverage
    return json.dumps(data, indent=2) + "\n"


def _data(text: str) -> str:
    # GitHub's escaping of a workflow command's message.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    # ... and of a property value.
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def to_github(report: Report) -> str:
    lines: list[str] = []
    for rec in report.records:
        command = {"error": "error", "warning": "warning"}.get(rec.severity, "notice")
        props = [f"file={_prop(rec.path)}"]
        if rec.line is not None:
            props.append(f"line={rec.line}")
            if rec.end_line is not None:
                props.append(f"endLine={rec.end_line}")
            if rec.column is not None:
                props.append(f"col={rec.column}")
            if rec.end_column is not None:
                props.append(f"endColumn={rec.end_column}")
        props.append(f"title={_prop(rec.code or 'mypy')}")
        message = "\n".join([rec.message, *rec.notes])
        lines.append(f"::{command} {','.join(props)}::{_data(message)}")
    for message in report.fatal:
        lines.append(f"::error title=pypto-check::{_data(message)}")
    if report.hidden:
        lines.append(f"::notice title=pypto-check::{_data(hidden_line(report.hidden))}")
    return "".join(line + "\n" for line in lines)


def hidden_line(hidden: int) -> str:
    return (
        f"pypto-check: {hidden} other mypy error{'s' if hidden != 1 else ''} hidden (typing only, or not about "
        "PyPTO; no mypy config found); --all shows them"
    )


def _uri(path: str) -> tuple[str, bool]:
    p = Path(path)
    if p.is_absolute():
        return p.as_uri(), False
    return quote(path.replace(os.sep, "/")), True


def _rules(report: Report) -> list[dict[str, object]]:
    rules: list[dict[str, object]] = []
    for row in TABLE:
        rules.append({
            "id": row.name,
            "shortDescription": {"text": row.summary},
            "fullDescription": {"text": row.catches},
            "help": {"text": f"{row.catches}\nPyPTO {TARGET_PYPTO}: {row.compiler}\nBad:\n{row.bad}\nFixed:\n{row.fixed}"},
            "defaultConfiguration": {"level": "error", "enabled": row.enabled},
        })
    known = {row.name for row in TABLE}
    for code in sorted({r.code for r in report.records if r.code and r.code not in known}):
        mypy_code = mypy_codes.error_codes.get(code)
        text = mypy_code.description if mypy_code is not None else f"mypy error code {code}"
        rules.append({"id": code, "shortDescription": {"text": text}})
    return rules


def to_sarif(report: Report) -> str:
    rules = _rules(report)
    index = {str(rule["id"]): i for i, rule in enumerate(rules)}
    results: list[dict[str, object]] = []
    for rec in report.records:
        uri, relative = _uri(rec.path)
        artifact: dict[str, object] = {"uri": uri}
        if relative:
            artifact["uriBaseId"] = "SRCROOT"
        location: dict[str, object] = {"artifactLocation": artifact}
        if rec.line is not None:
            region: dict[str, int] = {"startLine": rec.line}
            if rec.column is not None:
                region["startColumn"] = rec.column
            if rec.end_line is not None and rec.end_column is not None:
                region["endLine"] = rec.end_line
                region["endColumn"] = rec.end_column + 1  # SARIF's end column is exclusive
            location["region"] = region
        result: dict[str, object] = {
            "level": {"error": "error", "warning": "warning"}.get(rec.severity, "note"),
            "message": {"text": "\n".join([rec.message, *rec.notes])},
            "locations": [{"physicalLocation": location}],
        }
        if rec.code is not None:
            result["ruleId"] = rec.code
            result["ruleIndex"] = index[rec.code]
        results.append(result)
    invocation: dict[str, object] = {"executionSuccessful": report.status != 2, "exitCode": report.status}
    notifications = [{"level": "error", "message": {"text": m}} for m in report.fatal]
    if report.hidden:
        notifications.append({"level": "note", "message": {"text": hidden_line(report.hidden)}})
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    sarif = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "pypto-check", "version": pypto_stubs_version(), "rules": rules}},
            "originalUriBaseIds": {"SRCROOT": {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
            "invocations": [invocation],
            "results": results,
        }],
    }
    return json.dumps(sarif, indent=2) + "\n"
