"""Python arithmetic on traced numbers: known ints and floats fold, numbers of unknown value keep
their kind (an int, a float, a SymbolicScalar)."""

from __future__ import annotations

import ast
import operator
from typing import Final

from ..knowledge.arith import fold
from .values import UNKNOWN, Num, SymDim, Value, is_int

BIN: Final[dict[type, tuple[str, str]]] = {  # operator -> (its dunder, how Python writes it)
    ast.Add: ("add", "+"), ast.Sub: ("sub", "-"), ast.Mult: ("mul", "*"), ast.Div: ("truediv", "/"),
    ast.FloorDiv: ("floordiv", "//"), ast.Mod: ("mod", "%"), ast.Pow: ("pow", "**"), ast.MatMult: ("matmul", "@"),
}
_FLOAT_OPS: Final = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def number_op(op: ast.operator, a: Value, b: Value) -> Value:
    sym = BIN.get(type(op), ("", ""))[1]
    if is_int(a) and is_int(b):
        folded = fold(sym, a, b)  # type: ignore[arg-type]
        if folded is not None:
            return folded
        return UNKNOWN if sym in ("//", "%") else Num("int") if sym in ("+", "-", "*") else Num("number")
    if {type(a), type(b)} <= {int, float} and sym in _FLOAT_OPS:
        try:
            return float(_FLOAT_OPS[sym](a, b))
        except ArithmeticError:
            return UNKNOWN
    kinds = {_kind(a), _kind(b)}
    if None in kinds:
        return UNKNOWN
    if "symbolic" in kinds:
        return Num("symbolic")
    if kinds == {"int"} and sym in ("+", "-", "*", "//", "%"):
        return Num("int")
    return Num("number")


def _kind(v: Value) -> str | None:
    if type(v) is int:
        return "int"
    if type(v) is float:
        return "float"
    if isinstance(v, Num):
        return v.kind
    if isinstance(v, SymDim):
        return "symbolic"
    return None


