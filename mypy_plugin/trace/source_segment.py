"""The source text of a node, as ``ast.get_source_segment`` gives it, from the lines of the source
split once: Python 3.11's ``get_source_segment`` splits the whole source, a character at a time,
on every call, and the tracer asks for the text of arguments (a matmul's operands in its messages)
at every traced call, so a trace of a long module spent most of its time splitting it again."""

from __future__ import annotations

import ast
import functools
import re
from typing import Final

# A line and its break (\r\n, \r or \n; a form feed is not a break): ast's own _splitlines_no_ff.
_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


@functools.lru_cache(maxsize=16)
def _lines(source: str) -> tuple[str, ...]:
    return tuple(_LINE.findall(source))


def source_segment(source: str, node: ast.AST) -> str | None:
    """``ast.get_source_segment(source, node)`` (unpadded)."""
    lineno, end_lineno = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if not (isinstance(lineno, int) and isinstance(end_lineno, int) and isinstance(col, int)
            and isinstance(end_col, int)):
        return None
    lines = _lines(source)
    first, last = lineno - 1, end_lineno - 1
    if not 0 <= first <= last < len(lines):
        return None
    if first == last:
        return lines[first].encode()[col:end_col].decode()
    return "".join([lines[first].encode()[col:].decode(), *lines[first + 1:last],
                    lines[last].encode()[:end_col].decode()])
