"""The host-code edits, at a kernel call: a non-contiguous view gets ``.contiguous()``, tensors
passed by keyword become positional. Each returns the fixed module or None."""

from __future__ import annotations

import ast
import re
from typing import Final

import libcst as cst

from .cst_tools import replace
from .findings import Finding
from .locate import Located, dotted

# ---- pypto-call-layout: the view passed to the kernel gets .contiguous() ----------------------

_PASS_CONTIGUOUS: Final = re.compile(r"^pass (?P<written>.+)\.contiguous\(\)$")
# What ``.contiguous()`` binds to without parentheses (the checker's note quotes these bare).
_RECEIVERS: Final = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)


def call_layout(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    """``k(w.t(), ...)`` -> ``k(w.t().contiguous(), ...)``: the one positional argument the note
    names (the argument as written) is made contiguous, in the call's own text."""
    written = next((m["written"] for m in map(_PASS_CONTIGUOUS.match, f.notes) if m), None)
    call = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Call))
    if written is None or not isinstance(call, cst.Call):
        return None
    wanted = _normal(written)
    hits = [a for a in call.args if a.keyword is None and not a.star and _normal(_receiver_text(loc, a.value)) == wanted]
    if wanted is None or len(hits) != 1:
        return None  # the note names the parameter, or two arguments read alike: not provable
    value = hits[0].value
    if not isinstance(value, _RECEIVERS) and not value.lpar:
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    fixed = cst.Call(func=cst.Attribute(value=value, attr=cst.Name("contiguous")))
    return replace(loc, hits[0], hits[0].with_changes(value=fixed))


def _receiver_text(loc: Located, node: cst.BaseExpression) -> str:
    text = loc.module.code_for_node(node)
    return text if isinstance(node, _RECEIVERS) or node.lpar else f"({text})"


def _normal(text: str) -> str | None:
    """The text as ``ast.unparse`` writes it (the checker's notes are written so)."""
    try:
        return ast.unparse(ast.parse(text.strip(), mode="eval"))
    except SyntaxError:
        return None


# ---- pypto-call-args: tensors passed by keyword become positional -----------------------------

_BY_KEYWORD: Final = re.compile(r'^Kernel "(?P<kernel>\w+)", parameter "\w+": tensor passed by keyword')
_ORDER: Final = re.compile(r"^pass the \d+ tensor\(s\) positionally, in the order (?P<names>[\w, ]+)$")
# Values whose evaluation has no effect, so the order they are written in does not matter.
_PURE: Final = (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.SimpleString)


def call_args(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    """``k(x=a, y=b)`` -> ``k(a, b)`` in the kernel's tensor order, when every keyword is a tensor
    parameter and the positionals before them are exactly the first tensors."""
    m = _BY_KEYWORD.match(f.message)
    order = next((o["names"].split(", ") for o in map(_ORDER.match, f.notes) if o), None)
    call = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Call))
    if m is None or order is None or not isinstance(call, cst.Call) or _callee(call) != m["kernel"]:
        return None
    args = list(call.args)
    if any(a.star for a in args):
        return None
    positional = [a for a in args if a.keyword is None]
    keywords = {a.keyword.value: a for a in args if a.keyword is not None}
    if args[:len(positional)] != positional or list(keywords) == [] or len(keywords) + len(positional) != len(args):
        return None  # a positional after a keyword does not parse; a duplicate keyword neither
    if sorted(keywords) != sorted(order[len(positional):]):
        return None  # a keyword that is not a tensor, or a tensor missing: not this fix
    moved = [keywords[name] for name in order[len(positional):]]
    written = [a for a in args if a.keyword is not None]
    if moved != written and not all(isinstance(a.value, _PURE) for a in moved):
        return None  # reordering would change when a call such as torch.randn(...) runs
    # Each slot keeps its comma and whitespace (so line breaks and comments stay where they were).
    new_args = positional + [
        slot.with_changes(value=a.value, keyword=None, equal=cst.MaybeSentinel.DEFAULT)
        for slot, a in zip(written, moved)
    ]
    return replace(loc, call, call.with_changes(args=new_args))


def _callee(call: cst.Call) -> str | None:
    """The called name's last part (``k`` of ``mod.k(...)``)."""
    text = dotted(call.func)
    return None if text is None else text.rsplit(".", 1)[-1]
