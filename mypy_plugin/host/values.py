"""Values of host code as far as the source proves them: ints, tuples, dtypes and torch tensors.

A torch tensor is described by its shape, strides (so a view's contiguity is computed, as torch
computes ``is_contiguous``) and dtype; anything not proven is :data:`UNKNOWN`. Nothing here
imports torch: torch's behaviour is written down in the tables below.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Union


class _Unknown:
    """What the source does not prove (a value computed at run time, an unmodelled call)."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = _Unknown()


@dataclass(frozen=True)
class TorchDType:
    """A torch dtype: its canonical name ("torch.bfloat16") and element size in bytes."""

    name: str
    itemsize: int


@dataclass(frozen=True)
class HostTensor:
    """A torch tensor built in host code. ``strides`` is None once a view is not followed exactly."""

    shape: tuple[int, ...] | None
    dtype: TorchDType | None
    strides: tuple[int, ...] | None

    @property
    def contiguous(self) -> bool | None:
        """torch's rule: every dim of size > 1 has the row-major stride (empty tensors are)."""
        if self.shape is None or self.strides is None:
            return None
        if 0 in self.shape:
            return True
        expected = 1
        for size, stride in zip(reversed(self.shape), reversed(self.strides)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True


@dataclass(frozen=True)
class NdArray:
    """A numpy array built in host code (never a tensor itself): like :class:`HostTensor`."""

    shape: tuple[int, ...] | None
    dtype: TorchDType | None
    strides: tuple[int, ...] | None


@dataclass(frozen=True)
class PyptoDType:
    """``pypto.DT_FP16`` in host code (a kernel annotation may name it through a variable)."""

    name: str  # "DT_FP16"


@dataclass(frozen=True, eq=False)  # equal only to itself: two factory calls are two kernels
class KernelRef:
    """A jit kernel made by a factory call (``k = make_kernel(64)``): which one, and the factory's
    names at its ``return`` (the values the kernel's annotations and body read)."""

    kernel: str  # "make_kernel.kernel"
    env: Mapping[str, Value] = field(default_factory=dict)
    # ``functools.partial(kernel, x, ...)``: the arguments it puts first, and its keywords
    bound: tuple[Value, ...] = ()
    bound_keywords: tuple[tuple[str, Value], ...] = ()


@dataclass(frozen=True)
class Defined:
    """A name bound by a ``def`` (the node's id: a factory call must be the factory itself)."""

    node: int


@dataclass(frozen=True, eq=False)  # its own object: aliases are tracked by identity, as lists are
class DictVal:
    """A Python dict whose keys the source proves (in insertion order), with their values."""

    items: tuple[tuple[Value, Value], ...]


@dataclass(frozen=True)
class PytestParam:
    """``pytest.param(v1, v2, ..., marks=..., id=...)``: one parametrize case; ``skipped`` when its
    marks skip it (pytest never runs it)."""

    values: tuple[Value, ...]
    skipped: bool = False
    id: str | None = None  # its ``id=``: how pytest names the case


@dataclass(frozen=True)
class Request:
    """pytest's ``request`` fixture of an ``indirect`` parametrize case or a fixture's ``params``:
    ``request.param`` is the case's value."""

    param: Value


Value = Union[int, float, bool, str, None, tuple["Value", ...], TorchDType, HostTensor, NdArray, PyptoDType, KernelRef,
              Defined, DictVal, PytestParam, Request, _Unknown]

# Values that are objects of their own, changed in place (their aliases see it): lists, tuples of
# them, dicts, tensors.
OBJECTS: Final = (tuple, HostTensor, DictVal)


class ListVal(tuple[Value, ...]):
    """A Python list: a tuple of its items that is its own object even when empty, so an in-place
    change (``xs.append``) can tell its aliases (the same object) from equal lists."""

    __slots__ = ()


def row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides: list[int] = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def fresh(shape: tuple[int, ...] | None, dtype: TorchDType | None) -> HostTensor:
    """A newly allocated tensor: contiguous whatever its shape."""
    return HostTensor(shape, dtype, row_major(shape) if shape is not None else None)


def _dtypes() -> dict[str, TorchDType]:
    sizes = {
        "float32": 4, "float16": 2, "bfloat16": 2, "float64": 8, "int8": 1, "int16": 2, "int32": 4,
        "int64": 8, "uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8, "bool": 1,
        "float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e8m0fnu": 1, "complex64": 8, "complex128": 16,
    }
    table = {f"torch.{name}": TorchDType(f"torch.{name}", size) for name, size in sizes.items()}
    aliases = {
        "float": "float32", "half": "float16", "double": "float64", "int": "int32", "long": "int64",
        "short": "int16", "cfloat": "complex64",
    }
    table.update({f"torch.{alias}": table[f"torch.{name}"] for alias, name in aliases.items()})
    return table


# torch.<name> attribute -> dtype (aliases included: torch.half is torch.float16).
DTYPES: Final = _dtypes()
FLOAT32: Final = DTYPES["torch.float32"]
INT64: Final = DTYPES["torch.int64"]
BOOL: Final = DTYPES["torch.bool"]

# Tensor methods that only convert the dtype.
CAST_METHODS: Final = {
    "float": "torch.float32", "half": "torch.float16", "bfloat16": "torch.bfloat16", "double": "torch.float64",
    "int": "torch.int32", "long": "torch.int64", "short": "torch.int16", "bool": "torch.bool", "char": "torch.int8",
    "byte": "torch.uint8",
}
# Tensor methods that return the tensor itself (or a view of it with its own strides): autograd
# switches and in-place fills.
SELF_METHODS: Final = frozenset({
    "detach", "requires_grad_", "share_memory_",
    "uniform_", "normal_", "random_", "zero_", "fill_", "bernoulli_", "exponential_", "clamp_", "abs_", "neg_",
})
# Device moves: the tensor itself when it is already there, else a copy (``preserve_format``).
DEVICE_METHODS: Final = frozenset({"npu", "cuda", "cpu", "pin_memory"})
# Elementwise tensor methods that keep shape and dtype (a new dense tensor) ...
KEEP_DTYPE_METHODS: Final = frozenset({"abs", "neg", "sign", "clamp", "clip", "square", "relu", "floor", "ceil",
                                       "round", "trunc"})
# ... and those whose result is floating (an integer input gives the default float dtype).
FLOAT_METHODS: Final = frozenset({"exp", "log", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal"})
# Factories whose size is given by *size or a sequence, with a default float dtype.
SIZE_FACTORIES: Final = frozenset({"randn", "rand", "empty", "zeros", "ones"})
LIKE_FACTORIES: Final = frozenset({"randn_like", "rand_like", "empty_like", "zeros_like", "ones_like", "full_like",
                                   "randint_like"})


def leaf_dtype(leaf: Value, default_float: TorchDType | None) -> TorchDType | None:
    """torch's dtype for data made of values like ``leaf`` (a fill value, a tensor's elements)."""
    return BOOL if type(leaf) is bool else INT64 if type(leaf) is int else default_float if type(leaf) is float else None


def dtype_kw(kwargs: dict[str, Value], default: TorchDType | None) -> TorchDType | None:
    """The ``dtype=`` of a torch call, ``default`` without one; None for a value not proven a dtype."""
    if "dtype" not in kwargs:
        return default
    value = kwargs["dtype"]
    return value if isinstance(value, TorchDType) else None


class Raised(Exception):
    """The walked code surely raises this builtin exception here (``range(0, 8, 0)``,
    ``raise ValueError``): a ``try`` around it runs its handler."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def builtin_exception(name: str) -> type[BaseException] | None:
    found = getattr(builtins, name, None)
    return found if isinstance(found, type) and issubclass(found, BaseException) else None
