"""Proof from the edits alone that a rewrite moved and changed nothing outside annotations: the
fast path of :mod:`rewrite_guard` (which re-parses the file and compares every node).

Edits that touch no string, comment or line continuation cannot change how the code around them
is tokenized. Each edit is then one of:

- inside an edited annotation, whose new text must be a primary (a dotted name or a bracketed
  group, then ``.name`` and bracketed groups: ``pypto.Tensor[[8, 64], DT]``, ``(Tensor)``,
  ``_PyptoStubsAny``) with balanced brackets and no line break outside them: the parser reads
  it as one expression over the same span, whatever its brackets hold;
- ``-> _PyptoStubsKernelReturn`` (``kernel_returns.header_close`` checked the ``)`` and ``:``);
- ``: _PyptoStubsConst[8]`` right after ``NAME`` of ``NAME = value``;
- ``; from typing import ...`` at the end of a simple statement's line;
- ``# mypy: ...`` as a new last line (a comment after everything: nothing before it moves).

What is left unproven is whether the brackets' content parses: the caller's own parser says so
(``native_parse`` parses the rewritten text anyway, and takes the file as written on any error).
Anything else is not proven here and goes through the full guard.
"""

from __future__ import annotations

import keyword
import re
from typing import Final

from .reparse_guard import ALIAS_PREFIX
from .source_text import ANNOTATION, Edit, SourceText

RETURN: Final = "return"  # kernel_returns: the None return of a jit kernel
CONSTANT: Final = "constant"  # ``NAME: _PyptoStubsConst[...]``
IMPORT: Final = "import"  # the appended helper import
INLINE_CONFIG: Final = "inline-config"  # module_marker.INLINE_OPTIONS, as a new last line

# Characters that start a string, a comment or a line continuation (and a placeholder of ours).
_HAZARD: Final = re.compile(rb"[#\\'\"\f\x01]")
# A complete one-line string literal, as repr() writes one (a dim kept as text: '=n * 2').
_LITERAL: Final = re.compile(rb"'(?:[^'\\\r\n]|\\.)*'|\"(?:[^\"\\\r\n]|\\.)*\"")
_GROUP: Final = re.compile(rb"\([^()\[\]{}]*\)|\[[^()\[\]{}]*\]|\{[^()\[\]{}]*\}")
_NAME: Final = rb"[A-Za-z_][A-Za-z0-9_]*"
_PRIMARY: Final = re.compile(
    rb"[ \t]*(?:\x01|" + _NAME + rb"(?:[ \t]*\.[ \t]*" + _NAME + rb")*)[ \t]*"
    rb"(?:(?:\x01|\.[ \t]*" + _NAME + rb")[ \t]*)*"
)
_NAMES: Final = re.compile(_NAME)
# What rewrite_guard reads as an annotation the rewrite added (``x: _PyptoStubsAny``, ``-> _Pypto...``):
# left to the guard, which compares such an annotation as absent.
_ADDED: Final = re.compile(rb"[ \t]*" + ALIAS_PREFIX.encode() + rb"[A-Za-z0-9_]*[ \t]*(?:\[.*)?", re.DOTALL)
_ASSIGN_AFTER: Final = re.compile(rb"[ \t]*=(?!=)")
_LINE_REST: Final = re.compile(rb"[ \t]*(?:[;#\r\n]|\Z)")
_CONFIG_LINE: Final = re.compile(rb"\n?# mypy: [a-z-]+(?:, [a-z-]+)*\n")


def proven(src: SourceText, spans: list[tuple[int, int]]) -> bool:
    """Are all of ``src``'s edits of the kinds above? ``spans``: the edited annotations."""
    inside: dict[tuple[int, int], list[Edit]] = {span: [] for span in spans}
    for e in src.edits:
        if e.kind == ANNOTATION:
            span = next((s for s in spans if s[0] <= e.start and e.end <= s[1]), None)
            if span is None:
                return False
            inside[span].append(e)
        elif e.kind == CONSTANT:
            if not _ASSIGN_AFTER.match(src.data, e.end) or _HAZARD.search(e.text):
                return False
        elif e.kind == IMPORT:
            if not _LINE_REST.match(src.data, e.end) or _HAZARD.search(e.text):
                return False
        elif e.kind == INLINE_CONFIG:
            if e.start != len(src.data) or not _CONFIG_LINE.fullmatch(e.text):
                return False
        elif e.kind != RETURN:
            return False
    return all(_primary(src.data, span, edits) for span, edits in inside.items())


def _primary(data: bytes, span: tuple[int, int], edits: list[Edit]) -> bool:
    """Is the annotation's new text one primary expression (see the module docstring)?"""
    parts: list[bytes] = []
    pos = span[0]
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < pos:
            return False  # overlapping edits: apply() refuses them anyway
        parts.append(data[pos:e.start])
        text = e.text.rstrip(b"\r\n")
        # A string literal we wrote is one token: read it as a number, its line breaks kept.
        parts.append(b"0" + e.text[len(text):] if _LITERAL.fullmatch(text) else e.text)
        pos = e.end
    parts.append(data[pos:span[1]])
    text = b"".join(parts)
    if _HAZARD.search(text) or _ADDED.fullmatch(text):
        return False
    while True:  # innermost groups first: left with the text outside all brackets
        text, n = _GROUP.subn(b"\x01", text)
        if not n:
            break
    if not _PRIMARY.fullmatch(text):
        return False  # unbalanced or crossed brackets, a line break or an operator outside them
    return not any(keyword.iskeyword(m.group().decode()) for m in _NAMES.finditer(text))
