"""Fakes for the mypy-free knowledge layer: :class:`FakeArgs` (the ``Args`` protocol of
``knowledge/values.py``, over plain values) and :func:`op_call` (one ``Call`` of an op of the table).

Imported as ``knowledge.fakes`` (``tests/`` is on ``sys.path``: pytest puts the directory of the
root ``conftest.py`` there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from mypy_plugin.knowledge.checks.out import Write
from mypy_plugin.knowledge.codes.table import Code
from mypy_plugin.knowledge.findings import Finding
from mypy_plugin.knowledge.op_call import Call, Env
from mypy_plugin.knowledge.ops import OPS, Key, Result, TensorVal
from mypy_plugin.knowledge.shapes import Dim, Shape
from mypy_plugin.knowledge.tiles import UNKNOWN, CubeTile, VecTile


class FakeArgs:
    """Arguments by position (``values``) and by parameter name (``named``), as the bridge maps
    them: a name given in ``named`` wins, else the position. A value is a :class:`TensorVal`
    (a tensor), an ``int`` / ``float`` (a Python number), a ``bool``, a ``str`` (a dtype name,
    ``"DT_FP32"``), a ``list`` (dims, or a list of tensors) or anything else (unknown).
    ``sources`` / ``texts`` give a name / the text as written, by parameter name or position;
    ``keys`` the index keys of a subscript."""

    def __init__(
        self, *values: object, sources: Mapping[Key, str] | None = None, texts: Mapping[Key, str] | None = None,
        keys: Sequence[object] = (), **named: object,
    ) -> None:
        self.values = values
        self.named = named
        self.sources = dict(sources or {})
        self.texts = dict(texts or {})
        self.keys = list(keys)

    def _has(self, key: Key, pos: int) -> bool:
        return (isinstance(key, str) and key in self.named) or pos < len(self.values)

    def _get(self, key: Key, pos: int) -> object:
        if isinstance(key, str) and key in self.named:
            return self.named[key]
        return self.values[pos] if pos < len(self.values) else None

    def _by(self, table: Mapping[Key, str], key: Key, pos: int) -> str | None:
        if not self._has(key, pos):
            return None
        if isinstance(key, str) and key in self.named:
            return table.get(key)
        return table.get(key, table.get(pos))

    def given(self, key: Key, pos: int) -> bool:
        return self._has(key, pos)

    def tensor(self, key: Key, pos: int) -> TensorVal | None:
        v = self._get(key, pos)
        return v if isinstance(v, TensorVal) else None

    def scalar(self, key: Key, pos: int) -> bool:
        return isinstance(self._get(key, pos), (int, float))

    def python_int(self, key: Key, pos: int) -> bool:
        v = self._get(key, pos)
        return isinstance(v, int) and not isinstance(v, bool)

    def number_kind(self, key: Key, pos: int) -> str | None:
        v = self._get(key, pos)
        return "int" if type(v) is int else "float" if type(v) is float else None

    def int_value(self, key: Key, pos: int) -> int | None:
        v = self._get(key, pos)
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    def bool_value(self, key: Key, pos: int, default: bool) -> bool | None:
        if not self._has(key, pos):
            return default
        v = self._get(key, pos)
        return v if isinstance(v, bool) else None  # given, but not a literal bool: unknown

    def dtype(self, key: Key, pos: int) -> str | None:
        v = self._get(key, pos)
        return v if isinstance(v, str) else None

    def dims(self, key: Key, pos: int) -> list[Dim] | None:
        v = self._get(key, pos)
        return list(v) if isinstance(v, list) else None

    def varargs_dims(self, pos: int) -> list[Dim] | None:
        return None

    def tensor_list(self, key: Key, pos: int) -> list[TensorVal] | None:
        v = self._get(key, pos)
        return [t for t in v if isinstance(t, TensorVal)] if isinstance(v, list) else None

    def index_keys(self) -> list[object]:
        return self.keys

    def source(self, key: Key, pos: int) -> str | None:
        return self._by(self.sources, key, pos)

    def text(self, key: Key, pos: int) -> str | None:
        return self._by(self.texts, key, pos) or self.source(key, pos)


def t(shape: Shape, dtype: str | None = "DT_FP32") -> TensorVal:
    """A tensor value: ``t((8, 16))`` is ``[8, 16]`` FP32."""
    return TensorVal(shape, dtype)


class _Infer:
    """No result given: infer it with the op's rule."""


_INFER: Final = _Infer()


def op_call(
    op: str, *values: object, vec: VecTile = UNKNOWN, cube: CubeTile = UNKNOWN,
    reduce_align_rule: bool = True, reduce_align_fallback: str = "tile", vec_set_in_kernel: bool = True,
    dynamic_dim_rule: bool = True, result: Result | _Infer = _INFER, into_output: bool = False,
    retyped: frozenset[str] = frozenset(), label: str | None = None,
    sources: Mapping[Key, str] | None = None, texts: Mapping[Key, str] | None = None,
    keys: Sequence[object] = (), named: Mapping[str, object] | None = None,
) -> Call:
    """One call of ``OPS[op]`` with these arguments (``named``: by parameter name), the tiles in
    force (``UNKNOWN`` unless given: every tile check is then silent) and the env flags. The
    result is what the op's rule infers (its recovery when the rule raises) unless given; the
    label is how the bridge names the function (``pypto.sum``) or the operator (``operator +``)."""
    row = OPS[op]
    args = FakeArgs(*values, sources=sources, texts=texts, keys=keys, **dict(named or {}))
    inferred = row.infer(args)[0] if isinstance(result, _Infer) else result
    env = Env(vec, cube, reduce_align_rule, reduce_align_fallback, vec_set_in_kernel, dynamic_dim_rule)
    name = label if label is not None else row.method_label if row.is_operator else row.function_label
    return Call(op, row.kind, name, args, env, inferred, into_output, retyped)


def write(dest: TensorVal, value: TensorVal, keys: Sequence[object] | None = None, target: str = "out",
          value_text: str | None = "x * 2.0") -> Write:
    """``out[keys] = value`` (``keys`` None: ``out.move(value)``), the value written as ``value_text``."""
    return Write(dest, keys, value, target, value_text)


def assert_finding(found: Finding | None, code: Code, message: str, note: str | None) -> None:
    """The finding is exactly this row of the code table, this message and this note."""
    assert found is not None, f"expected {code.name}, got nothing"
    assert found.code is code, f"{found.code.name} != {code.name}"
    assert found.message == message
    assert found.note == note
