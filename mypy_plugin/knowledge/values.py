"""The values op rules work on: a tensor's shape and dtype, and the :class:`Args` of one call."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol, Union

from .shapes import Dim, Shape, agreed


@dataclass(frozen=True)
class TensorVal:
    shape: Shape
    dtype: str | None  # "DT_FP32", or None when unknown


# A list repeated more times than this (``[x] * 1000``) is read as repeated a number of times not known.
MAX_REPEAT: Final = 64


def repeated(items: list[TensorVal], count: int | None) -> list[TensorVal]:
    """``items * count``. For a count not known (or above MAX_REPEAT): the items once more with
    unknown dims, so their ranks, dtypes and dims off an axis stay and no sum along one is known."""
    if count is not None and 0 <= count <= MAX_REPEAT:
        return items * count
    return items + [TensorVal(None if v.shape is None else (None,) * len(v.shape), v.dtype) for v in items]


def joined(vals: list[TensorVal]) -> TensorVal:
    """A value that is one of ``vals`` (paths that meet, a union's members): the rank and the dims
    all of them agree on, their dtype when they share it."""
    dtypes = {v.dtype for v in vals}
    return TensorVal(agreed([v.shape for v in vals]), dtypes.pop() if len(dtypes) == 1 else None)


def merge_tensors(declared: TensorVal, actual: TensorVal) -> TensorVal | None:
    """What a parameter declared as ``declared`` is when a call passes ``actual``: the call's dims
    and dtype where the declaration leaves them open; None when the two disagree (which one the
    body works with is then not provable)."""
    if declared.dtype is not None and actual.dtype is not None and declared.dtype != actual.dtype:
        return None
    dtype = declared.dtype or actual.dtype
    if declared.shape is None or actual.shape is None:
        return TensorVal(declared.shape or actual.shape, dtype)
    if len(declared.shape) != len(actual.shape):
        return None
    dims = []
    for d, a in zip(declared.shape, actual.shape):
        if isinstance(d, int) and isinstance(a, int) and d != a:
            return None
        dims.append(d if isinstance(d, int) else a if isinstance(a, int) else d)
    return TensorVal(tuple(dims), dtype)




Key = Union[int, str]  # positional index, or the parameter name


class Args(Protocol):
    """The arguments of one call, seen as plain values (implemented by the mypy bridge)."""

    def given(self, key: Key, pos: int) -> bool: ...
    def tensor(self, key: Key, pos: int) -> TensorVal | None: ...
    def scalar(self, key: Key, pos: int) -> bool: ...  # a number or SymbolicScalar; never a tensor
    def python_int(self, key: Key, pos: int) -> bool: ...  # provably a Python int (not bool, not float)
    # "int" (an int at runtime), "float" (a float), "number" (an int or a float), None (not a Python number)
    def number_kind(self, key: Key, pos: int) -> str | None: ...
    def int_value(self, key: Key, pos: int) -> int | None: ...
    def bool_value(self, key: Key, pos: int, default: bool) -> bool | None: ...
    def dtype(self, key: Key, pos: int) -> str | None: ...
    def dims(self, key: Key, pos: int) -> list[Dim] | None: ...
    def varargs_dims(self, pos: int) -> list[Dim] | None: ...
    def tensor_list(self, key: Key, pos: int) -> list[TensorVal] | None: ...
    def index_keys(self) -> list[object]: ...
    def source(self, key: Key, pos: int) -> str | None: ...
    def text(self, key: Key, pos: int) -> str | None: ...  # as written, for a note (source: names only)


class _Special:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


SCALAR: Final = _Special("SCALAR")  # the op gives a SymbolicScalar, not a tensor
ANY: Final = _Special("ANY")  # a tensor or a scalar, we cannot tell

Result = Union[TensorVal, tuple[TensorVal, ...], _Special, None]
Rule = Callable[[Args], Result]
# Which axes a reduction reduces, for an input of the given rank (None: cannot tell).
AxesRule = Callable[[Args, int], Union[list[int], None]]
