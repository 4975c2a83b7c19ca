"""What a traced name or expression holds: a tensor (``TensorVal``), a Python constant (int,
float, bool, str), a number of unknown value (:class:`Num`), a dtype, a list or tuple
(:class:`Seq`), something of pypto's namespace (:class:`Ref`), a function of a traced module
(:class:`Func`), another module (:class:`ModuleRef`), ``None`` (:data:`NONE`), or
:data:`UNKNOWN`. Two paths meet with :func:`join`: what both agree on survives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Union

from ..knowledge.shapes import Dim
from ..knowledge.values import TensorVal, joined


@dataclass(frozen=True)
class Num:
    """A number whose value is unknown: "int", "float", "symbolic" (a SymbolicScalar: a loop
    index, ``pypto.max(a, b)``) or "number" (an int or a float)."""

    kind: str


@dataclass(frozen=True)
class SymDim:
    """An item of ``x.shape`` that is a named symbol (``N``, or ``~N`` for a dynamic one)."""

    name: str


@dataclass(frozen=True)
class DType:
    name: str  # "DT_FP32"


@dataclass(frozen=True)
class Seq:
    items: tuple[Value, ...]
    is_list: bool


@dataclass(frozen=True)
class Ref:
    """A name of pypto's namespace (``pypto``, ``pypto.matmul``, ``pypto.frontend.jit``) or of a
    module the tracer does not enter (``torch``, ``math``): its full name."""

    fullname: str


@dataclass(frozen=True)
class ModuleRef:
    """A module of the checked program (``from . import common``): its names are traced."""

    name: str


@dataclass(frozen=True)
class Func:
    """A function of a traced module: ``module`` is its module name, ``qualname`` its name there."""

    module: str
    qualname: str


@dataclass(frozen=True)
class Class:
    """A class of a traced module (its body is read: methods, dataclass fields)."""

    module: str
    name: str


@dataclass(frozen=True)
class Obj:
    """An instance of a traced class, with the attributes its construction gave it."""

    cls: Class
    attrs: tuple[tuple[str, Value], ...] = ()

    def get(self, name: str) -> Value | None:
        return next((v for k, v in self.attrs if k == name), None)

    def with_attr(self, name: str, value: Value) -> Obj:
        return Obj(self.cls, tuple((k, v) for k, v in self.attrs if k != name) + ((name, value),))


@dataclass(frozen=True)
class Method:
    """``obj.method``: the method (a :class:`Func` named ``Class.method``) bound to ``obj``."""

    func: Func
    self_: Value


@dataclass(frozen=True)
class Range:
    """What ``pypto.loop(...)`` / ``range(...)`` give a ``for``: each item an int or a symbolic
    scalar of unknown value."""

    item: Value
    items: tuple[int, ...] | None = None  # every item, when they are known ints (``range(4)``)
    symbolic: bool = False  # pypto.loop: the frontend traces the body once, whatever the count


class _Special:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN: Final = _Special("UNKNOWN")
NONE: Final = _Special("None")

Value = Union[TensorVal, int, float, bool, str, Num, SymDim, DType, Seq, Ref, ModuleRef, Func, Class, Obj, Method,
              Range, _Special]


def is_int(v: object) -> bool:
    return type(v) is int


def is_number(v: Value) -> bool:
    """A Python number or a scalar (never a tensor): what an op's scalar operand may be."""
    return isinstance(v, (int, float, Num)) or isinstance(v, SymDim)


def is_symbolic(v: Value) -> bool:
    """A SymbolicScalar (a loop index, a dynamic dim, a comparison of one): the frontend traces
    both branches of an ``if`` on it."""
    return isinstance(v, Num) and v.kind == "symbolic" or isinstance(v, SymDim) and v.name.startswith("~")


def int_kind(v: Value) -> bool:
    """Provably a Python int (not a bool, not a float, not a SymbolicScalar)."""
    return type(v) is int or isinstance(v, Num) and v.kind == "int"


def dim_of(v: Value, name: str | None = None) -> Dim:
    """A shape list item as a dim: its int, its symbol, or the name it is written as (a local
    of unknown value names its dim, as mypy's reading does); None when nothing is known."""
    if type(v) is int:
        return v
    if isinstance(v, SymDim):
        return v.name
    if isinstance(v, (Num, _Special)) and v is not NONE and name is not None:
        return name
    return None


def dims_of_shape(shape: tuple[Dim, ...]) -> Seq:
    """``x.shape``: its known ints, its symbols, and unknown ints."""
    items: list[Value] = [d if isinstance(d, int) else SymDim(d) if isinstance(d, str) else Num("int") for d in shape]
    return Seq(tuple(items), True)


def join(a: Value, b: Value) -> Value:
    """Two paths meet: equal values survive, tensors keep what both agree on, two numbers of one
    kind are a number of that kind; anything else is unknown."""
    if a is b or type(a) is type(b) and a == b:
        return a
    if isinstance(a, TensorVal) and isinstance(b, TensorVal):
        return joined([a, b])
    ka, kb = _num_kind(a), _num_kind(b)
    if ka is not None and kb is not None:
        return Num(ka if ka == kb else "number" if {ka, kb} <= {"int", "float", "number"} else "symbolic")
    if isinstance(a, Seq) and isinstance(b, Seq) and len(a.items) == len(b.items) and a.is_list == b.is_list:
        return Seq(tuple(join(x, y) for x, y in zip(a.items, b.items)), a.is_list)
    return UNKNOWN


def _num_kind(v: Value) -> str | None:
    if type(v) is int:
        return "int"
    if type(v) is float:
        return "float"
    if isinstance(v, Num):
        return v.kind
    return None
