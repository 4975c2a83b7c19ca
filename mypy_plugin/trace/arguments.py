"""One traced op call's arguments as the op table's :class:`~..knowledge.values.Args`.

The actual arguments are put on the op's parameters as the stubs declare them
(:mod:`..knowledge.op_signatures_data`), the way mypy maps them: positional ones in order, the
rest of them into a ``*args`` parameter, keywords by name. A method puts its receiver first.
An unpacked ``*xs`` whose items are not known leaves the parameters from there on unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from ..ast_fields import dotted
from ..knowledge.op_signatures_data import FUNCTIONS, METHODS
from ..knowledge.shapes import Dim
from ..knowledge.values import Key, TensorVal
from .source_segment import source_segment
from .values import NONE, UNKNOWN, DType, Num, Seq, SymDim, Value, dim_of, int_kind, is_number


@dataclass(frozen=True)
class Actual:
    value: Value
    node: ast.expr | None  # as written (None: an item of an unpacked sequence)
    keyword: str | None = None
    starred: bool = False  # ``*xs``: its items are spread (``value`` is the sequence)


Slot = tuple[Value, "ast.expr | None"]


Formals = tuple[tuple["str | None", str], ...]  # (name, kind), the receiver first for a method


def formals(op: str, method: bool) -> Formals:
    """The parameters of an op's function or method form (none for a name the stubs lack)."""
    params = (METHODS if method else FUNCTIONS).get(op, ())
    return (((None, "pos"),) if method else ()) + tuple(params)


class TraceArgs:
    """``Args`` over traced values, put on ``formals``; ``source`` is the module's text (for ``text``)."""

    def __init__(self, formals: Formals, actuals: Sequence[Actual], source: str,
                 keys: list[object] | None = None) -> None:
        self.source_text = source
        self.keys = keys
        self.names: list[str | None] = [name for name, _ in formals]
        self.slots: list[list[Slot]] = [[] for _ in formals]
        self.spread: list[bool] = [False for _ in formals]  # a formal an unknown spread may reach
        self._place(formals, actuals)

    def _place(self, formals: Sequence[tuple[str | None, str]], actuals: Sequence[Actual]) -> None:
        positional = [i for i, (_, kind) in enumerate(formals) if kind in ("pos", "arg")]
        star = next((i for i, (_, kind) in enumerate(formals) if kind == "star"), None)
        at = 0  # the next positional formal
        lost = False  # an unknown spread went by: later positions are not known
        for a in actuals:
            if a.keyword is not None:
                if a.keyword in self.names:
                    self.slots[self.names.index(a.keyword)].append((a.value, a.node))
                continue
            items: list[Slot]
            if a.starred:
                if not isinstance(a.value, Seq):
                    lost = True
                    for i in positional[at:] + ([star] if star is not None else []):
                        self.spread[i] = True
                    continue
                items = [(v, None) for v in a.value.items]
            else:
                items = [(a.value, a.node)]
            for item in items:
                if lost:
                    continue
                if at < len(positional):
                    self.slots[positional[at]].append(item)
                    at += 1
                elif star is not None:
                    self.slots[star].append(item)

    # --- lookup ---------------------------------------------------------------------
    def _slot(self, key: Key, pos: int) -> Slot | None:
        if isinstance(key, str) and key in self.names:
            i = self.names.index(key)
            if self.slots[i] and not self.spread[i]:
                return self.slots[i][0]
        if pos < len(self.slots) and self.slots[pos] and not self.spread[pos]:
            return self.slots[pos][0]
        return None

    def _value(self, key: Key, pos: int) -> Value:
        s = self._slot(key, pos)
        return UNKNOWN if s is None else s[0]

    def given(self, key: Key, pos: int) -> bool:
        return self._slot(key, pos) is not None

    def tensor(self, key: Key, pos: int) -> TensorVal | None:
        v = self._value(key, pos)
        return v if isinstance(v, TensorVal) else None

    def scalar(self, key: Key, pos: int) -> bool:
        return is_number(self._value(key, pos))

    def python_int(self, key: Key, pos: int) -> bool:
        return int_kind(self._value(key, pos))

    def number_kind(self, key: Key, pos: int) -> str | None:
        v = self._value(key, pos)
        if isinstance(v, Num):
            return v.kind if v.kind in ("int", "float", "number") else None
        return "int" if type(v) is int else "float" if type(v) is float else None

    def int_value(self, key: Key, pos: int) -> int | None:
        v = self._value(key, pos)
        return v if type(v) is int else None

    def bool_value(self, key: Key, pos: int, default: bool) -> bool | None:
        s = self._slot(key, pos)
        if s is None:
            return default
        return s[0] if type(s[0]) is bool else None

    def dtype(self, key: Key, pos: int) -> str | None:
        v = self._value(key, pos)
        return v.name if isinstance(v, DType) else None

    def dims(self, key: Key, pos: int) -> list[Dim] | None:
        s = self._slot(key, pos)
        return None if s is None else _dims(s)

    def varargs_dims(self, pos: int) -> list[Dim] | None:
        if pos >= len(self.slots) or not self.slots[pos] or self.spread[pos]:
            return None
        slots = self.slots[pos]
        if len(slots) == 1 and isinstance(slots[0][0], Seq):
            return _dims(slots[0])
        return [dim_of(v, _name(n)) for v, n in slots]

    def tensor_list(self, key: Key, pos: int) -> list[TensorVal] | None:
        """As the mypy side's (hooks/tensor_lists.py): an item not known to be a tensor is one of
        unknown shape and dtype (anything else fails the call)."""
        v = self._value(key, pos)
        return [as_tensor(i) for i in v.items] if isinstance(v, Seq) else None

    def index_keys(self) -> list[object]:
        return list(self.keys) if self.keys is not None else [None]

    def source(self, key: Key, pos: int) -> str | None:
        s = self._slot(key, pos)
        return dotted(s[1]) if s is not None and s[1] is not None else None

    def text(self, key: Key, pos: int) -> str | None:
        s = self._slot(key, pos)
        if s is None or s[1] is None:
            return None
        return source_segment(self.source_text, s[1]) or ast.unparse(s[1])

    def operand_values(self) -> list[Value]:
        """Every argument's value (for coverage: are the tensors known?)."""
        return [v for slots in self.slots for v, _ in slots]


def _name(node: ast.expr | None) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _dims(slot: Slot) -> list[Dim] | None:
    value, node = slot
    if not isinstance(value, Seq):
        return None
    written = node.elts if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == len(value.items) else None
    return [dim_of(v, _name(written[i]) if written is not None else None) for i, v in enumerate(value.items)]


def is_known_scalar(v: Value) -> bool:
    """A number the op table may take as a scalar operand (not None, not unknown)."""
    return v is not NONE and v is not UNKNOWN and (is_number(v) or isinstance(v, (Num, SymDim)))


def as_tensor(v: Value) -> TensorVal:
    """An item of a list of tensors: itself, or a tensor of unknown shape and dtype when it is not
    known to be one (anything else there fails the call)."""
    return v if isinstance(v, TensorVal) else TensorVal(None, None)
