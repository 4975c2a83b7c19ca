"""Write the code table of docs/codes.md from the code table (mypy_plugin/knowledge/codes).

    python scripts/codes_doc.py          # rewrite the generated table in place
    python scripts/codes_doc.py --check  # exit 1 when the file is out of date (the tests do this)
"""

from __future__ import annotations

import sys
from pathlib import Path

from mypy_plugin.cli.catalogue import TABLE_END as END
from mypy_plugin.cli.catalogue import TABLE_START as START
from mypy_plugin.cli.catalogue import markdown_table

DOC = Path(__file__).resolve().parents[1] / "docs" / "codes.md"


def rendered(text: str) -> str:
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + START + markdown_table() + END + tail


def main(argv: list[str]) -> int:
    text = DOC.read_text(encoding="utf-8")
    new = rendered(text)
    if "--check" in argv:
        return 0 if new == text else 1
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
