"""``pypto.concat([x] * n, ...)`` with ``n`` not known, in the tracer: read as the mypy side reads
it (hooks/tensor_lists.py), the items once more with unknown dims, so the rank, the dtype and the
dims off the axis stay known and the sum along the axis does not (rule: concat-dtypes)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from ..knowledge.values import repeated
from .arguments import Actual, as_tensor
from .values import Seq, Value


def repeated_list(a: Actual, evaluate: Callable[[ast.expr], Value]) -> Actual:
    """``a`` as given unless it is a display of names repeated a number of times not known (the
    names are read again: reading a name has no effect)."""
    node = a.node
    if isinstance(a.value, Seq) or a.starred or not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.Mult):
        return a
    display = next((side for side in (node.left, node.right) if isinstance(side, (ast.List, ast.Tuple))), None)
    if display is None or not all(isinstance(e, ast.Name) for e in display.elts):
        return a
    items = [as_tensor(evaluate(e)) for e in display.elts]
    return Actual(Seq(tuple(repeated(items, None)), True), node, a.keyword, a.starred)
