"""Python builtins on a dynamic dim or a loop index in a jit kernel (rule: dynamic-dim-not-concrete).

While the 0.2.0 frontend traces a kernel, ``x.shape[i]`` of a ``pypto.DYNAMIC`` (or
``frontend.dynamic("N")``) dim and the index of ``pypto.loop`` are ``SymbolicScalar``s. Python code that needs its value fails
there: ``min``, ``max``, ``bool``, ``int``, ``sorted``, ``not``, ``and``/``or`` and a conditional
expression ask for its truth or its int (``ValueError: Not concrete value``); ``range``, ``abs``,
``divmod`` and ``round`` raise ``TypeError``. An ``if`` statement on it compiles (the frontend
builds the branch itself), and so do its arithmetic and its ``.min()`` / ``.max()`` methods.
The shape lists of ``view``/``reshape``/``expand_clone`` and the sizes of ``full``/``zeros``/``ones``
must be ints too (``TypeError: View(): incompatible function arguments``; rule:
dynamic-dim-in-shape-list); ``valid_shape``, offsets, ``pypto.tensor`` and an
``inplace=True`` reshape take the symbol.

Only what :mod:`symbolic` proves a symbol counts: ``x.shape[i]`` of a dynamic dim of a tensor
parameter the kernel never rebinds, the index of ``pypto.loop``, names bound once from those
(``n, d = x.shape``), and arithmetic, comparisons and ``.min()``/``.max()`` of those.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mypy.nodes import (
    ARG_POS,
    CallExpr,
    ConditionalExpr,
    Decorator,
    Expression,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    TupleExpr,
    UnaryExpr,
)
from mypy.plugin import CheckerPluginInterface

from ..bridge.diagnostics import report
from ..knowledge.codes import op_codes as codes
from ..knowledge.findings import Finding
from .body_walk import expressions, statements
from .symbolic import Symbol, SymbolicValues, int_of
from .tile_calls import SET_CUBE, SET_VEC

_NOT_CONCRETE: Final = "ValueError: Not concrete value"
# builtin -> what 0.2.0 raises when it gets a SymbolicScalar (each probed).
BUILTINS: Final[Mapping[str, str]] = {
    "builtins.min": _NOT_CONCRETE,
    "builtins.max": _NOT_CONCRETE,
    "builtins.bool": _NOT_CONCRETE,
    "builtins.int": _NOT_CONCRETE,
    "builtins.sorted": _NOT_CONCRETE,
    "builtins.range": "TypeError: 'SymbolicScalar' object cannot be interpreted as an integer",
    "builtins.abs": "TypeError: bad operand type for abs(): 'SymbolicScalar'",
    "builtins.divmod": "TypeError: unsupported operand type(s) for divmod()",
    "builtins.round": "TypeError: type SymbolicScalar doesn't define __round__ method",
}
# How to say the same with the symbol (``{arg}``: the argument as written).
_FIX: Final[Mapping[str, str]] = {
    "builtins.min": "use the symbolic method: {arg}.min({other})",
    "builtins.max": "use the symbolic method: {arg}.max({other})",
    "builtins.range": "loop with pypto.loop({bare}): the frontend builds the loop on the symbol",
    "builtins.int": "keep it symbolic (arithmetic, pypto.loop and op arguments take a SymbolicScalar), or annotate the dim with an int",
    "builtins.abs": "a SymbolicScalar has no abs(): a dim is never negative, so drop it, or annotate the dim with an int",
    "builtins.divmod": "use {arg} // n and {arg} % n, which stay symbolic",
    "builtins.round": "drop round(): a dim is an int",
}
# op -> (position of its shape argument, that parameter's name, the native function that raises
# ``TypeError: <Native>(): incompatible function arguments`` when the list holds a SymbolicScalar;
# each probed). ``zeros``/``ones`` take the dims as their positional arguments or one list.
SHAPE_ARGUMENTS: Final[Mapping[str, tuple[int, str, str]]] = {
    "pypto.view": (1, "shape", "View"),
    "pypto.reshape": (1, "shape", "Reshape"),
    "pypto.expand_clone": (1, "shape", "Expand"),
    "pypto.full": (0, "size", "Full"),
    "pypto.zeros": (0, "size", "Full"),
    "pypto.ones": (0, "size", "Full"),
}
# Tensor methods (their receiver a tensor parameter of the kernel): position after self.
SHAPE_METHODS: Final[Mapping[str, tuple[int, str, str]]] = {
    "view": (0, "shape", "View"),
    "reshape": (0, "shape", "Reshape"),
}
_TAKES_VALID_SHAPE: Final = frozenset({"View", "Reshape", "Expand"})
_TRUTH_FIX: Final = "branch with an if statement on a comparison (the frontend builds it on the symbol), or annotate the dim with an int"


def check_dims(api: CheckerPluginInterface, deco: Decorator) -> None:
    dims = SymbolicValues(deco)
    if not dims:
        return
    for s in statements(deco.func.body.body):
        for e in expressions(s):
            found = _misuse(e, dims)
            if found is not None:
                what, arg, raised, fix = found
                report(api, Finding(
                    codes.NOT_CONCRETE,
                    f"{what} needs the value of {arg.text}, {arg.kind} that is a SymbolicScalar while the frontend "
                    f"traces the kernel; 0.2.0 fails here at trace time ({raised})",
                    fix,
                ), e)


def _misuse(e: Expression, dims: SymbolicValues) -> tuple[str, Symbol, str, str] | None:
    """(what, the dynamic argument, what 0.2.0 raises, the fix) for a use that needs a concrete value."""
    if isinstance(e, CallExpr) and isinstance(e.callee, NameExpr) and e.callee.fullname in BUILTINS:
        for a in e.args:
            arg = dims.of(a)
            if arg is not None:
                name = e.callee.fullname
                others = [_text(o) for o in e.args if o is not a]
                other = others[0] if len(others) == 1 and others[0] != "(...)" else "..."
                text = _text(a)
                bare = text[1:-1] if isinstance(a, OpExpr) else text
                fix = _FIX.get(name, _TRUTH_FIX).format(arg=text, other=other, bare=bare)
                return f"{e.callee.name}()", arg, BUILTINS[name], fix
        return None
    if isinstance(e, CallExpr):
        return _tile_misuse(e, dims) or _shape_misuse(e, dims)
    if isinstance(e, UnaryExpr) and e.op == "not":
        arg = dims.of(e.expr)
        return ('"not"', arg, _NOT_CONCRETE, _TRUTH_FIX) if arg is not None else None
    if isinstance(e, OpExpr) and e.op in ("and", "or"):
        arg = dims.of(e.left)
        return (f'"{e.op}"', arg, _NOT_CONCRETE, _TRUTH_FIX) if arg is not None else None
    if isinstance(e, ConditionalExpr):
        arg = dims.of(e.cond)
        return ("a conditional expression", arg, _NOT_CONCRETE, _TRUTH_FIX) if arg is not None else None
    return None


def _shape_misuse(e: CallExpr, dims: SymbolicValues) -> tuple[str, Symbol, str, str] | None:
    """A dynamic dim inside the shape list of an op whose shape must be ints (rule:
    dynamic-dim-in-shape-list)."""
    callee = e.callee
    entry: tuple[int, str, str] | None = None
    if isinstance(callee, (NameExpr, MemberExpr)) and callee.fullname in SHAPE_ARGUMENTS:
        entry, op = SHAPE_ARGUMENTS[callee.fullname], callee.fullname
    elif isinstance(callee, MemberExpr) and callee.name in SHAPE_METHODS and dims.param_dims(callee.expr) is not None:
        entry, op = SHAPE_METHODS[callee.name], f"{_text(callee.expr)}.{callee.name}"
    if entry is None:
        return None
    position, keyword, native = entry
    if native == "Reshape" and not _inplace_off(e):
        return None  # reshape(..., inplace=True) takes the symbol (probed); an unknown flag: silence
    positional = [a for a, kind in zip(e.args, e.arg_kinds) if kind == ARG_POS]
    shape = _keyword(e, keyword)
    if shape is None and len(positional) > position:
        shape = positional[position]
    if isinstance(shape, (ListExpr, TupleExpr)):
        items = shape.items
    elif native == "Full" and op != "pypto.full" and shape is not None:
        items = positional  # zeros(n, 64)
    else:
        return None
    for item in items:
        arg = dims.of(item)
        if arg is not None:
            fix = (f"give {op}() a static shape (a tile of the dynamic dim) and the dynamic extent as "
                   f"valid_shape=[..., {_text(item)}, ...], or loop over the dim with pypto.loop"
                   if native in _TAKES_VALID_SHAPE else
                   "build the tensor with a static shape (a tile of the dynamic dim, inside pypto.loop over it), "
                   "or annotate the dim with an int")
            return (f"the shape of {op}()", arg,
                    f"TypeError: {native}(): incompatible function arguments", fix)
    return None


def _tile_misuse(e: CallExpr, dims: SymbolicValues) -> tuple[str, Symbol, str, str] | None:
    """A dynamic dim as a tile entry: a tile is a block of fixed size (each probed on 0.2.0)."""
    name = e.callee.fullname if isinstance(e.callee, (NameExpr, MemberExpr)) else None
    if name not in (SET_VEC, SET_CUBE):
        return None
    items = [i for a in e.args for i in (a.items if isinstance(a, (ListExpr, TupleExpr)) else [a])]
    arg = next((d for d in map(dims.of, items) if d is not None), None)
    if arg is None:
        return None
    raised = _NOT_CONCRETE if name == SET_VEC else "TypeError: __init__(): incompatible constructor arguments (CubeTile)"
    fix = ("give the tile an int (a block of the dynamic dim, e.g. 8) and loop over the dim with "
           "pypto.loop, viewing one block at a time")
    return f"{name}()", arg, raised, fix


def _inplace_off(e: CallExpr) -> bool:
    """No ``inplace=`` keyword, or ``inplace=False`` as written."""
    flag = _keyword(e, "inplace")
    return flag is None or isinstance(flag, NameExpr) and flag.fullname == "builtins.False"


def _keyword(e: CallExpr, name: str) -> Expression | None:
    return next((a for a, n in zip(e.args, e.arg_names) if n == name), None)


def _text(e: Expression) -> str:
    """The argument as written, for the forms :meth:`SymbolicValues.of` accepts."""
    if isinstance(e, NameExpr):
        return e.name
    if isinstance(e, IndexExpr) and isinstance(e.base, MemberExpr):
        index = int_of(e.index)
        return f"{_text(e.base.expr)}.shape[{index}]"
    if isinstance(e, OpExpr):
        return f"({_text(e.left)} {e.op} {_text(e.right)})"
    if isinstance(e, IntExpr):
        return str(e.value)
    if isinstance(e, UnaryExpr):
        return f"{e.op}{_text(e.expr)}"
    if isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr):
        return f"{_text(e.callee.expr)}.{e.callee.name}(...)"
    return "(...)"
