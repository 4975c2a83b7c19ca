"""Tensor members PyPTO 0.2.0 does not have, or has broken, each with its fix (rule: missing-members).

The stubs declare them (deprecated) only so that they can be reported; the bridge reports every
name here with ``pypto-no-method``. ``.T`` has its own code and fix (rule: no-transpose-attribute).
After the report, a call yields what its torch meaning would (``torch``, on torch's parameters
``params``), so that later checks still run; a member with no such rule stays unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from . import member_rules, rules
from .dtypes import FP16, FP32
from .values import Rule, TensorVal


@dataclass(frozen=True)
class Missing:
    name: str
    fix: str  # what to write instead, in the words of the note ("Use <fix>"); {x} is the receiver
    # The member exists but forwards this many arguments to a function that takes fewer, so every
    # call fails with TypeError (rule: broken-where-lrelu); None: the member does not exist.
    broken_args: int | None = None
    attribute: bool = False  # read as ``x.ndim``, not called
    torch: Rule | None = None  # the result torch gives (receiver first, then ``params``)
    params: tuple[str, ...] = ()  # torch's parameter names, in order

    @property
    def spelled(self) -> str:
        """``.ndim`` or ``.abs()``."""
        return f".{self.name}" if self.attribute else f".{self.name}()"


_TABLE: Final = (
    Missing("abs", "pypto.abs({x})", torch=rules.same),
    Missing("neg", "-{x} (or pypto.neg({x}))", torch=rules.same),
    # torch names it ``exponent``; read as the binary rule's ``other`` (a tensor broadcasts).
    Missing("pow", "{x} ** n (or pypto.pow({x}, n))", torch=rules.binary(None), params=("other",)),
    Missing("float", "pypto.cast({x}, pypto.DT_FP32)", torch=rules.to_dtype(FP32)),
    Missing("half", "pypto.cast({x}, pypto.DT_FP16)", torch=rules.to_dtype(FP16)),
    Missing("mean", "{x}.sum(dim, keepdim=True) / n", torch=rules.reduction, params=("dim", "keepdim")),
    # torch gives a (values, indices) pair with a dim and a 0-d tensor without: left unknown.
    # (.numel(), .size(), .ndim are ints in torch: their declared type stays.)
    Missing("max", "{x}.amax(dim)"),
    Missing("min", "{x}.amin(dim)"),
    Missing("cast", "pypto.cast({x}, dtype)", torch=rules.cast, params=("dtype",)),
    Missing("to", "pypto.cast({x}, dtype)", torch=rules.cast, params=("dtype",)),
    Missing("permute", "pypto.transpose({x}, dim0, dim1)", torch=member_rules.torch_permute, params=member_rules.DIMS),
    Missing("squeeze", "{x}.reshape([...]) without the size-1 dim", torch=member_rules.torch_squeeze, params=("dim",)),
    Missing("expand", "{x}.expand_clone([...])", torch=member_rules.torch_expand, params=member_rules.DIMS),
    Missing("numel", "the product of the dims of {x}.shape"),
    Missing("size", "{x}.shape[dim]"),
    Missing("ndim", "{x}.dim", attribute=True),
    Missing("prod", "pypto.prod({x}, dim)", torch=rules.reduction, params=("dim", "keepdim")),
    Missing("clamp", "pypto.clip({x}, min, max)", torch=rules.same, params=("min", "max")),
    Missing("square", "{x} * {x}", torch=rules.same),
    Missing("where", "pypto.where(condition, {x}, y)", broken_args=4),
    Missing("lrelu", "pypto.lrelu({x}, negative_slope)", broken_args=3, torch=rules.same, params=("negative_slope",)),
)

MISSING: Final[dict[str, Missing]] = {m.name: m for m in _TABLE}
# The ones called as methods (``ndim`` is an attribute).
NO_METHODS: Final = frozenset(m.name for m in _TABLE if not m.attribute)


def torch_transpose(x: TensorVal) -> TensorVal:
    """What ``x.T`` is in torch: a matrix with its two dims swapped, a vector unchanged. On more
    dims torch reverses them all (deprecated) while the fix we give swaps the last two: only the
    rank is founded there."""
    if x.shape is None or len(x.shape) <= 2:
        return TensorVal(None if x.shape is None else tuple(reversed(x.shape)), x.dtype)
    return TensorVal((None,) * len(x.shape), x.dtype)
