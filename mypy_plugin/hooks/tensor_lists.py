"""The tensors a ``concat`` joins, read from its list argument (rule: concat-dtypes).

0.2.0 joins only tensors of one rank and dtype whose dims agree off the axis (FC0000 otherwise),
so an item mypy cannot type still leaves the others' rank and dtype as the result's.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Expression, ListExpr, NameExpr, OpExpr, TupleExpr
from mypy.types import Type

from ..bridge.folding import int_of_expr, int_of_type
from ..bridge.tensor_types import tensor_val
from ..knowledge.values import TensorVal, repeated


def tensor_list_of(
    e: Expression | None, expr_type: Callable[[Expression], Type], local_int: Callable[[NameExpr], int | None]
) -> list[TensorVal] | None:
    """A list or tuple display of tensors, or one repeated (``[x] * n``); an item of unknown type
    is a tensor of unknown shape and dtype (a non-tensor there fails the call anyway). None: not
    a display."""
    display, count = _repeated(e)
    if display is None:
        return None
    items = [tensor_val(expr_type(item)) or TensorVal(None, None) for item in display.items]
    if count is None:
        return items
    n = int_of_expr(count, local=local_int)
    if n is None:
        n = int_of_type(expr_type(count))
    return repeated(items, n)


def _repeated(e: Expression | None) -> tuple[ListExpr | TupleExpr | None, Expression | None]:
    """``[a, b]`` -> (the display, None); ``[a] * n`` or ``n * [a]`` -> (the display, n)."""
    if isinstance(e, (ListExpr, TupleExpr)):
        return e, None
    if isinstance(e, OpExpr) and e.op == "*":
        if isinstance(e.left, (ListExpr, TupleExpr)):
            return e.left, e.right
        if isinstance(e.right, (ListExpr, TupleExpr)):
            return e.right, e.left
    return None, None
