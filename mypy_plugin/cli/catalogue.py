"""The code table (``knowledge/codes``) as text: ``--explain``, ``--list-codes`` and the table of
``docs/codes.md``. Nothing about a code is written here."""

from __future__ import annotations

from ..knowledge.codes import TABLE, Code
from ..versions import TARGET_PYPTO


def explain(row: Code) -> str:
    default = "" if row.enabled else f" (off by default: enable_error_code = {row.name})"
    rules = f"Rules: {', '.join(row.rules)} (docs/rules.md)\n" if row.rules else ""
    return (
        f"{row.name}{default}\n\n"
        f"Catches: {row.catches}\n"
        f"PyPTO {TARGET_PYPTO}: {row.compiler}\n{rules}\n"
        f"Bad:\n{_indent(row.bad)}\n\nFixed:\n{_indent(row.fixed)}\n\n"
        f"Silence one line with  # type: ignore[{row.name}]  or the code with  disable_error_code = {row.name}\n"
    )


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def list_codes() -> str:
    width = max(len(row.name) for row in TABLE)
    lines = [f"{row.name:<{width}}  {row.summary}{'' if row.enabled else ' (off by default)'}" for row in TABLE]
    return "\n".join(lines) + "\n"


# Around the generated table in docs/codes.md (scripts/codes_doc.py writes between them).
TABLE_START = "<!-- generated from mypy_plugin/knowledge/codes (scripts/codes_doc.py); do not edit -->\n"
TABLE_END = "<!-- end of generated table -->\n"


def markdown_table() -> str:
    """The table at the top of docs/codes.md (a test keeps the file equal to this)."""
    lines = ["| code | what it catches | PyPTO " + TARGET_PYPTO + " | rules (rules.md) |", "|---|---|---|---|"]
    for row in TABLE:
        off = " (off by default)" if not row.enabled else ""
        cells = (f"`{row.name}`{off}", row.summary, row.compiler, ", ".join(row.rules) or "-")
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
