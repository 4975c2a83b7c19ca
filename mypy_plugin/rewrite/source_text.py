"""A source file as bytes, with Python's line numbering, and line-preserving text edits on it."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Final

# Python's tokenizer ends a line at \r\n, \r or \n (a form feed is whitespace). ast line numbers
# count these; ast columns are UTF-8 byte offsets within the line.
LINE_BREAK: Final = re.compile(rb"\r\n|\r|\n")
ANNOTATION: Final = "annotation"  # the kind of an edit inside an annotation (the other kinds: edit_proof.py)
_SKIPPABLE: Final = frozenset(b" \t\f\r\n)")


class EditError(Exception):
    """An edit the source does not confirm (an unexpected character at a computed offset)."""


@dataclass(frozen=True)
class Edit:
    start: int  # byte offsets into the UTF-8 source
    end: int
    text: bytes
    kind: str = ANNOTATION  # what the edit is for (edit_proof.py proves each kind in place)


def _keep_breaks(chunk: bytes) -> bytes:
    """The line breaks of ``chunk``, in order: what a replacement must keep to move no line."""
    return b"".join(m.group() for m in LINE_BREAK.finditer(chunk))


class SourceText:
    def __init__(self, source: str) -> None:
        self.data = source.encode("utf-8")
        self.line_starts = [0, *(m.end() for m in LINE_BREAK.finditer(self.data))]
        self.edits: list[Edit] = []

    def offset(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col

    def start(self, node: ast.expr | ast.stmt | ast.keyword) -> int:
        return self.offset(node.lineno, node.col_offset)

    def end(self, node: ast.expr | ast.stmt | ast.keyword) -> int:
        if node.end_lineno is None or node.end_col_offset is None:
            raise EditError("node without an end position")
        return self.offset(node.end_lineno, node.end_col_offset)

    def text(self, node: ast.expr) -> str:
        return self.data[self.start(node):self.end(node)].decode("utf-8")

    def one_line(self, node: ast.expr) -> str:
        """The node's source text on one line: as written when it is, else unparsed (no comments)."""
        text = self.text(node)
        return ast.unparse(node) if LINE_BREAK.search(text.encode("utf-8")) else text

    def expect(self, pos: int, char: bytes) -> None:
        if self.data[pos:pos + len(char)] != char:
            raise EditError(f"expected {char!r} at byte {pos}")

    def skip(self, pos: int, chars: frozenset[int], limit: int | None = None) -> int:
        """Past ``chars``, comments and line continuations from ``pos`` (to ``limit`` at most)."""
        end = len(self.data) if limit is None else limit
        i = pos
        while i < end:
            c = self.data[i]
            if c == ord("#"):
                m = LINE_BREAK.search(self.data, i)
                i = m.start() if m else end
            elif c in chars or (c == ord("\\") and LINE_BREAK.match(self.data, i + 1)):
                i += 1
            else:
                break
        return i

    def open_paren_after(self, pos: int, limit: int) -> int:
        """The ``(`` of a call whose callee ends at ``pos``: only whitespace, line breaks,
        closing parens of a parenthesized callee, continuations and comments may come before it."""
        i = self.skip(pos, _SKIPPABLE, limit)
        if i < limit and self.data[i] == ord("("):
            return i
        raise EditError(f"no call parenthesis after byte {pos}")

    def colon_after(self, pos: int) -> int:
        """The ``:`` after a dict key ending at ``pos`` (only blanks may come between)."""
        i = pos
        while i < len(self.data) and self.data[i] in b" \t\f\r\n":
            i += 1
        self.expect(i, b":")
        return i

    # --- edits (all keep every line break of the span they replace, so no line moves) ---
    def replace(self, start: int, end: int, text: str, kind: str = ANNOTATION) -> None:
        """``text`` (one line) over [start, end), padded with spaces to the old width when it is
        shorter, followed by the span's line breaks."""
        new = text.encode("utf-8")
        if LINE_BREAK.search(new):
            raise EditError("a replacement must be one line")
        old = self.data[start:end]
        breaks = _keep_breaks(old)
        if not breaks and len(new) < len(old):
            new = new.ljust(len(old))
        self.edits.append(Edit(start, end, new + breaks, kind))

    def insert(self, pos: int, text: str, kind: str = ANNOTATION) -> None:
        self.replace(pos, pos, text, kind)

    def append_line(self, text: str, kind: str) -> None:
        """``text`` (one line) as a new last line: every line of the file stays where it is."""
        new = text.encode("utf-8")
        if LINE_BREAK.search(new):
            raise EditError("an appended line must be one line")
        ended = not self.data or self.data.endswith((b"\n", b"\r"))
        end = len(self.data)
        self.edits.append(Edit(end, end, (b"" if ended else b"\n") + new + b"\n", kind))

    def blank(self, start: int, end: int) -> None:
        """Spaces over [start, end), keeping line breaks where they are."""
        chunk = self.data[start:end]
        self.edits.append(Edit(start, end, bytes(c if c in b"\r\n" else 32 for c in chunk)))

    def apply(self) -> str | None:
        """The edited source; None if two edits overlap (a shape we do not understand)."""
        edits = sorted(self.edits, key=lambda e: (e.start, e.end))
        for a, b in zip(edits, edits[1:]):
            if b.start < a.end or (b.start == a.end == b.end and a.start == a.end):
                return None
        parts: list[bytes] = []
        pos = 0
        for e in edits:
            parts += (self.data[pos:e.start], e.text)
            pos = e.end
        parts.append(self.data[pos:])
        return b"".join(parts).decode("utf-8")
