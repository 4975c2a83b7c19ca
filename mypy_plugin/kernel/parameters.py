"""A jit kernel's tensor parameters, read two ways: from the checked types (what every module sees,
also from mypy's cache) and from the parse (what the annotations write with variables, for the
module that has the kernel's body)."""

from __future__ import annotations

from typing import Final

from mypy.nodes import ARG_NAMED, ARG_POS, FuncDef
from mypy.types import CallableType, Type, TypeList, UnboundType

from ..bridge.tensor_types import tensor_val
from ..host.call_check import Parameters, Written, parameters
from ..knowledge.values import TensorVal
from .signature import param_kind

# id(checked signature) -> (that signature, its parameters). A kernel's parameters are read where
# it is defined (kernel_dims) and again at each host call: the signature object is the key (a
# re-analysed kernel gets a new one), and is kept so that its id is not reused. Bounded, so that a
# daemon holds few signatures of older versions of a module.
_PARAMETERS_CACHE_SIZE: Final = 4096
_parameters: dict[int, tuple[CallableType, str, tuple[Parameters | None, bool]]] = {}


def kernel_parameters(func: FuncDef) -> Parameters | None:
    """The kernel's parameters from its checked type (the same from mypy's cache). A parameter
    whose annotation mypy could not read counts as a non-tensor here (:func:`call_parameters`)."""
    return _read(func)[0]


def call_parameters(func: FuncDef) -> Parameters | None:
    """As :func:`kernel_parameters`, for checking the kernel's calls: None when mypy could not read
    some parameter's annotation. The frontend takes any annotation object with a ``to_tensor``
    method as a tensor (``Y: Y_def`` with ``Y_def = TensorAnnotation(...)``), so which of the
    call's arguments bind to tensors is unknown (rule: kernel-tensor-params-first)."""
    params, unread = _read(func)
    return None if unread else params


def _read(func: FuncDef) -> tuple[Parameters | None, bool]:
    typ = func.type
    if not isinstance(typ, CallableType):
        return None, False
    hit = _parameters.get(id(typ))
    if hit is not None and hit[0] is typ and hit[1] == func.name:
        return hit[2]
    if len(_parameters) >= _PARAMETERS_CACHE_SIZE:
        _parameters.clear()
    written = func.unanalyzed_type.arg_types if isinstance(func.unanalyzed_type, CallableType) else []
    made = _parameters[id(typ)] = (typ, func.name, _read_parameters(func.name, typ, written))
    return made[2]


def _read_parameters(kernel: str, typ: CallableType, written: list[Type]) -> tuple[Parameters | None, bool]:
    """The parameters, and whether mypy could not read some parameter's annotation (``written``:
    the annotations as written, when the parse is there)."""
    tensors: list[tuple[str, TensorVal]] = []
    others: list[str] = []
    required: set[str] = set()
    unread = False
    for i, (name, kind, arg_type) in enumerate(zip(typ.arg_names, typ.arg_kinds, typ.arg_types)):
        if name is None or not (kind.is_positional() or kind.is_named()):
            return None, False  # *args / **kwargs: the frontend's binding is not modelled
        val = tensor_val(arg_type)
        unread = unread or val is None and _unread(arg_type, written[i] if i < len(written) else None)
        if val is not None:
            if others:
                return None, unread  # a tensor after a non-tensor: pypto-kernel-signature says so
            tensors.append((name, val))
        else:
            others.append(name)
            if kind in (ARG_POS, ARG_NAMED):
                required.add(name)
    return parameters(kernel, tensors, others, frozenset(required)), unread


def _unread(t: Type, written: Type | None) -> bool:
    """An annotation mypy could not read as a type (``Y: Y_def`` with ``Y_def =
    TensorAnnotation(...)``, a name imported from a module mypy does not find): the frontend takes
    any object with a ``to_tensor`` method as a tensor annotation, so the parameter may be one
    (:func:`signature.param_kind` says unknown; a class of torch or numpy is a non-tensor there)."""
    return param_kind(t, written if written is not None else t) is None


def _names(items: object) -> list[str]:
    if not isinstance(items, (list, tuple)):
        return []
    return [i.name for i in items if isinstance(i, UnboundType) and not i.args and i.original_str_expr is None
            and i.name != "None" and "TileOpFormat." not in i.name]


def written(func: FuncDef, count: int) -> list[Written] | None:
    """What the first ``count`` parameters' annotations write (after the source rewrite, every
    form reads ``pypto.Tensor[shape, dtype, ...]``); None without the parse (a cached kernel)."""
    typ = func.unanalyzed_type
    if not isinstance(typ, CallableType) or len(typ.arg_types) < count:
        return None
    out = []
    for t in typ.arg_types[:count]:
        items = list(t.args) if isinstance(t, UnboundType) else []
        shape_var = None
        if items and not isinstance(items[0], TypeList):
            first = _names(items[:1])
            if first and not first[0].rpartition(".")[2].startswith("DT_"):
                shape_var, items = first[0], items[1:]  # ``Tensor(a_shape, dt)``: a shape in a variable
        names = _names(items)
        last = names[-1].rpartition(".")[2] if names else ""
        out.append(Written(last if not names or last.startswith("DT_") else names[-1], shape_var))
    return out
