"""numpy arrays as far as host code builds them for ``torch.from_numpy``: ``np.zeros/ones/empty/
full/arange``, ``np.random.rand/randn``, ``.astype``, ``.T``, ``np.ascontiguousarray``. An array is
never a tensor: only ``torch.from_numpy`` (the same memory: shape, dtype, strides) and
``torch.tensor`` / ``torch.as_tensor`` (a copy, or the same memory) make one of it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .layout import preserved
from .values import DTYPES, UNKNOWN, HostTensor, NdArray, TorchDType, Value, row_major

# numpy's dtype names -> the torch dtype of the same element (numpy has no bfloat16)
NUMPY_DTYPES: Final = {f"numpy.{n}": DTYPES[f"torch.{t}"] for n, t in {
    "float32": "float32", "float16": "float16", "float64": "float64", "half": "float16", "single": "float32",
    "double": "float64", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8",
    "bool_": "bool", "complex64": "complex64", "complex128": "complex128",
}.items()}
_FLOAT64: Final = DTYPES["torch.float64"]
_INT64: Final = DTYPES["torch.int64"]
_BOOL: Final = DTYPES["torch.bool"]


def _shape(v: Value) -> tuple[int, ...] | None:
    items = v if isinstance(v, tuple) else (v,)
    return tuple(i for i in items if type(i) is int) if all(type(i) is int and i >= 0 for i in items) else None


def _dtype(kwargs: dict[str, Value], default: TorchDType | None) -> TorchDType | None:
    if "dtype" not in kwargs:
        return default
    found = kwargs["dtype"]
    return found if isinstance(found, TorchDType) else None


def _array(shape: tuple[int, ...] | None, dtype: TorchDType | None) -> NdArray:
    return NdArray(shape, dtype, row_major(shape) if shape is not None else None)


def call(name: str, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
    """``numpy.<name>(...)`` (``name`` after ``numpy.``)."""
    if name in ("zeros", "ones", "empty") and len(args) == 1 and set(kwargs) <= {"dtype"}:
        return _array(_shape(args[0]), _dtype(kwargs, _FLOAT64))
    if name == "full" and len(args) == 2 and set(kwargs) <= {"dtype"}:
        fill = args[1]
        default = _BOOL if type(fill) is bool else _INT64 if type(fill) is int else _FLOAT64 if type(fill) is float else None
        return _array(_shape(args[0]), _dtype(kwargs, default))
    if name == "arange" and len(args) == 1 and type(args[0]) is int and set(kwargs) <= {"dtype"}:
        return _array((max(args[0], 0),), _dtype(kwargs, _INT64))
    if name in ("random.rand", "random.randn") and not kwargs and all(type(a) is int for a in args):
        return _array(_shape(tuple(args)), _FLOAT64)
    if name == "ascontiguousarray" and len(args) == 1 and isinstance(args[0], NdArray) and not kwargs:
        return _array(args[0].shape, args[0].dtype)
    return UNKNOWN


def method(a: NdArray, name: str, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
    """``a.astype(dt)``: a copy, C order for a C-ordered array (order "K" keeps any other)."""
    if name == "astype" and len(args) == 1 and isinstance(args[0], TorchDType) and not kwargs:
        c_order = a.shape is not None and a.strides == row_major(a.shape)
        return NdArray(a.shape, args[0], a.strides if c_order else None)
    return UNKNOWN


def transposed(a: NdArray) -> NdArray:
    if a.shape is None or a.strides is None:
        return NdArray(None, a.dtype, None)
    return NdArray(tuple(reversed(a.shape)), a.dtype, tuple(reversed(a.strides)))


def to_tensor(name: str, a: NdArray) -> Value:
    """``torch.from_numpy(a)`` / ``torch.as_tensor(a)``: the array's memory; ``torch.tensor(a)``: a
    copy that keeps a dense array's layout (``a.T`` stays transposed)."""
    if name == "tensor" and a.shape is not None:
        return HostTensor(a.shape, a.dtype, preserved(a.shape, a.strides))
    return HostTensor(a.shape, a.dtype, a.strides)
