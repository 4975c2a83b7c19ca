"""``pypto-check --hook claude|opencode``: a coding agent's post-edit hook. Reads the hook's JSON
from standard input (the edited file), checks that file, and answers in the agent's format:
block with the findings as the reason (the agent sees them and fixes the kernel), allow
otherwise. A file that is not Python, a missing file or a failure of the checker itself never
blocks the agent."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

AGENTS: Final = ("claude", "opencode")
_MAX_FINDINGS: Final = 20  # a reason the agent reads whole


def edited_path(agent: str, payload: object) -> str | None:
    """The edited file's path in the hook's JSON: Claude Code's PostToolUse gives
    ``tool_input.file_path``; an opencode plugin passes the tool's ``args`` (``filePath``)."""
    if not isinstance(payload, dict):
        return None
    if agent == "claude":
        tool_input = payload.get("tool_input")
        found = tool_input.get("file_path") if isinstance(tool_input, dict) else None
    else:
        args = payload.get("args")
        found = args.get("filePath") if isinstance(args, dict) else payload.get("filePath")
    return found if isinstance(found, str) and found else None


def reason(report: dict[str, Any], limit: int = _MAX_FINDINGS) -> str:
    """The findings as mypy prints them (``path:line: error: message  [code]`` and notes)."""
    lines: list[str] = []
    errors = [e for e in report.get("errors", []) if e.get("severity") == "error"]
    for e in errors[:limit]:
        lines.append(f"{e['path']}:{e['line']}: error: {e['message']}  [{e.get('code') or 'misc'}]")
        lines += [f"{e['path']}:{e['line']}: note: {n}" for n in e.get("notes", [])]
    if len(errors) > limit:
        lines.append(f"... and {len(errors) - limit} more (run pypto-check on the file)")
    return "\n".join(lines)


def answer(agent: str, findings: str) -> str:
    """The hook's standard output: Claude Code reads ``decision: block`` and shows the reason to
    the agent (nothing printed allows); the opencode plugin reads ``decision`` either way."""
    if agent == "claude":
        return json.dumps({"decision": "block", "reason": findings}) + "\n" if findings else ""
    return json.dumps({"decision": "block" if findings else "allow", "reason": findings}) + "\n"


def run(agent: str, stdin: str, check: Callable[[Sequence[str]], int], mypy_args: Sequence[str] = ()) -> str:
    """What the hook prints; ``check`` is pypto-check's main (run with ``--output json``)."""
    try:
        payload = json.loads(stdin)
    except ValueError:
        return answer(agent, "")
    path = edited_path(agent, payload)
    if path is None or not path.endswith((".py", ".pyi")) or not Path(path).is_file():
        return answer(agent, "")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = check(["--output", "json", path, *(["--", *mypy_args] if mypy_args else [])])
    if status != 1:
        return answer(agent, "")  # clean, or the checker could not run: never block on that
    try:
        report = json.loads(out.getvalue())
    except ValueError:
        return answer(agent, "")
    return answer(agent, reason(report))
