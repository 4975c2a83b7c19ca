"""mypy types <-> (shape, dtype).

A tensor is ``pypto.Tensor[tuple[Literal[8], Literal[64]], pypto._DT_FP32]``: the shape is a
tuple of ``Literal[int]`` (known dim), ``Literal["N"]`` (named symbol) or ``Any`` (unknown),
or ``Any`` for an unknown rank; the dtype is one of the stubs' private marker classes.
Both are ordinary type arguments, so they survive assignment, containers and the cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import TypeInfo
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    ProperType,
    TupleType,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

from ..knowledge.dtypes import DTYPES
from ..knowledge.ops import TensorVal
from ..knowledge.shapes import Dim, Shape
from ..knowledge.values import joined

TENSOR: Final = "pypto.Tensor"
DIM: Final = "pypto._Dim"  # an item of x.shape that is not a known int (see attribute_hooks.shape_attribute_hook)
_MARKER_PREFIX: Final = "pypto._DT_"

NamedType = Callable[[str, list[Type]], Instance]


def marker_fullname(dtype: str) -> str:
    return f"pypto._{dtype}"


def dtype_of_value(t: Type | None) -> str | None:
    """The dtype named by a value's type (``pypto.DT_FP16`` has type ``pypto._DT_FP16``)."""
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, Instance) and p.type.fullname.startswith(_MARKER_PREFIX):
        name = p.type.fullname[len("pypto._"):]
        return name if name in DTYPES else None
    return None


def is_tensor(t: Type | None) -> bool:
    p = get_proper_type(t) if t is not None else None
    return isinstance(p, Instance) and p.type.fullname == TENSOR


_SCALARS: Final = ("builtins.int", "builtins.float", "pypto.SymbolicScalar", "pypto.Element")


def is_scalar_type(t: Type) -> bool:
    """A Python number, SymbolicScalar or Element (or a union of them): never a tensor."""
    p = get_proper_type(t)
    if isinstance(p, UnionType):
        return all(is_scalar_type(i) for i in p.items)
    if isinstance(p, LiteralType):
        p = p.fallback
    return isinstance(p, Instance) and any(p.type.has_base(name) for name in _SCALARS)


def _dim(t: Type) -> Dim:
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        v = p.value
        if type(v) is int or type(v) is str:  # not bool, not float
            return v
    return None


def _shape(t: Type) -> Shape:
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return tuple([_dim(i) for i in p.items])  # (a list first: faster than a generator)
    return None


def _single(p: ProperType) -> TensorVal | None:
    if isinstance(p, Instance) and p.type.fullname == TENSOR and len(p.args) == 2:
        return TensorVal(_shape(p.args[0]), dtype_of_value(p.args[1]))
    return None


def tensor_val(t: Type | None) -> TensorVal | None:
    """What we know of a tensor-typed expression; None if it is not (only) a PyPTO tensor."""
    if t is None:
        return None
    known = _read.get(id(t))
    if known is not None and known[0] is t:
        return known[1]  # one of the shared types below (most operands the op hooks read)
    p = get_proper_type(t)
    if isinstance(p, UnionType):
        vals = [_single(get_proper_type(i)) for i in p.items]
        if not vals or any(v is None for v in vals):
            return None
        # The value is one of the members (a join after an if, or after a loop mypy checked as
        # perhaps not run): what all of them agree on.
        return joined([v for v in vals if v is not None])
    return _single(p)


def _any() -> AnyType:
    return AnyType(TypeOfAny.special_form)


def dim_type(d: Dim, named: NamedType) -> Type:
    if isinstance(d, int):
        return LiteralType(d, named("builtins.int", []))
    if isinstance(d, str):
        return LiteralType(d, named("builtins.str", []))
    return _any()


def shape_type(shape: Shape, named: NamedType) -> Type:
    if shape is None:
        return _any()
    return TupleType([dim_type(d, named) for d in shape], named("builtins.tuple", [_any()]))


def dtype_type(dtype: str | None, named: NamedType) -> Type:
    if dtype is None or dtype not in DTYPES:
        return _any()
    return named(marker_fullname(dtype), [])


def tensor_type(val: TensorVal, named: NamedType) -> Instance:
    cache: dict[str, Instance] = {}

    def cached(name: str, args: list[Type]) -> Instance:
        if args:
            return named(name, args)
        if name not in cache:  # each lookup walks the symbol tables
            cache[name] = named(name, args)
        return cache[name]

    return named(TENSOR, [shape_type(val.shape, cached), dtype_type(val.dtype, cached)])


# One shared type object per (shape, dtype), for op results and for annotations alike. mypy keeps
# every expression's type until the module's checker is collected, and every signature's for the
# whole run; a type of a rank-2 tensor is ~14 GC-tracked objects. Made afresh each time, they
# filled the young generation past mypy's threshold (one long collection of all the checkers
# each time). mypy shares type objects between a declaration and its uses in the same way (types
# are not mutated).
_RESULT_CACHE_SIZE: Final = 4096
_results: dict[tuple[Shape, str | None], Instance] = {}
_results_of: list[object] = []  # the Tensor TypeInfo of the build the cached types belong to
# id(a shared type) -> (that type, what tensor_val reads of it), read once when it is made
_read: dict[int, tuple[Instance, TensorVal | None]] = {}


def result_type(val: TensorVal, api: object, named: NamedType) -> Instance:
    """An op's result type (``api``: the checker)."""
    lookup = getattr(api, "lookup_typeinfo", None)  # TypeChecker; absent elsewhere: no sharing
    return _shared(val, lookup(TENSOR) if lookup is not None else None, named)


def annotation_type(val: TensorVal, api: object, named: NamedType) -> Instance:
    """An annotation's type (``api``: mypy's type analyzer, whose ``api`` is the semantic analyzer)."""
    lookup = getattr(getattr(api, "api", None), "lookup_fully_qualified_or_none", None)
    sym = lookup(TENSOR) if lookup is not None else None
    info = getattr(sym, "node", None)
    return _shared(val, info if isinstance(info, TypeInfo) else None, named)


def _shared(val: TensorVal, info: TypeInfo | None, named: NamedType) -> Instance:
    if info is not None and (not _results_of or _results_of[0] is not info):
        # A new build (an in-process run after another, as pypto-check --fix does): the old
        # types would keep that whole build alive.
        _forget()
        _results_of[:] = [info]
    key = (val.shape, val.dtype)
    hit = _results.get(key)
    if hit is not None and info is not None and hit.type is info:
        return hit  # the same TypeInfo: the same build (a daemon that reloads pypto misses here)
    made = tensor_type(val, named)
    if info is not None and made.type is info:
        if len(_results) >= _RESULT_CACHE_SIZE:
            _forget()
        _results[key] = made
        _read[id(made)] = (made, _single(made))
    return made


def _forget() -> None:
    """Drop the shared types and what was read of them (one goes with the other)."""
    _results.clear()
    _read.clear()
