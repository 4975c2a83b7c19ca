"""The facts an op's shape rule decides on (broadcast, matmul K, reshape element count, an axis
in range), and which of them one call leaves unknown; with the helpers :mod:`.reads` shares.
A dim is known when it is an int or a dynamic dim (0.2.0 traces that as -1 whatever the tensor
is)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .. import rules
from ..op_call import Call
from ..ops import Op
from ..shapes import Dim, Shape, is_dynamic, k_dims, same_dim
from ..values import TensorVal

Needs = Callable[[Call], list[str]]  # the facts a check decides on that this call leaves unknown


def known(d: Dim) -> bool:
    return isinstance(d, int) or is_dynamic(d)


def decided(x: Dim, y: Dim) -> bool:
    """Whether two aligned dims broadcast (or match) is known: equal, a 1 on one side, or both known."""
    return same_dim(x, y) or x == 1 or y == 1 or known(x) and known(y)


def rank(t: TensorVal | None, name: str) -> list[str]:
    return [f"rank of {name}"] if t is not None and t.shape is None else []


def dtype(t: TensorVal | None, name: str) -> list[str]:
    return [f"dtype of {name}"] if t is not None and t.dtype is None else []


def pairs(shapes: Sequence[tuple[str, Shape]]) -> list[str]:
    """Every aligned pair of dims of tensors that broadcast together decided (right-aligned)."""
    out: list[str] = []
    for i, (a_name, a) in enumerate(shapes):
        for b_name, b in shapes[i + 1:]:
            if a is None or b is None:
                continue
            for back in range(1, min(len(a), len(b)) + 1):
                x, y = a[-back], b[-back]
                if not decided(x, y):
                    out += [f"dim {len(s) - back} of {n}" for n, s, d in ((a_name, a, x), (b_name, b, y)) if not known(d)]
    return list(dict.fromkeys(out))


def flags(c: Call) -> list[str]:
    if not c.row.explicit_matmul:
        return []
    return ["a_trans/b_trans"] if None in (c.args.bool_value("a_trans", 99, False),
                                          c.args.bool_value("b_trans", 99, False)) else []


def nothing(c: Call) -> list[str]:
    return []


def _rule_binary(c: Call) -> list[str]:
    keys = (("condition", 0), ("input", 1), ("other", 2)) if c.op == "where" else (("input", 0), ("other", 1))
    ts = [(k, c.args.tensor(k, i)) for k, i in keys]
    present = [(k, t) for k, t in ts if t is not None]
    if len(present) < 2:
        return []  # a scalar takes the tensor's shape
    missing = [m for k, t in present for m in rank(t, k)]
    return missing + pairs([(k, t.shape) for k, t in present])


def _rule_axis(*axis_keys: tuple[str, int]) -> Needs:
    """A rule that raises only for an axis out of range: the input's rank and the axes."""

    def needs(c: Call) -> list[str]:
        x = c.args.tensor("input", 0)
        if x is None:
            return []
        unknown = [k for k, i in axis_keys if c.args.given(k, i) and c.args.int_value(k, i) is None
                   and c.args.dims(k, i) is None]
        return rank(x, "input") + (["axis"] if unknown else [])

    return needs


def _rule_matmul(c: Call) -> list[str]:
    x, y = c.args.tensor("input", 0), c.args.tensor(c.row.rhs, 1)
    if x is None or y is None:
        return []
    missing = rank(x, "input") + rank(y, c.row.rhs) + flags(c)
    if missing:
        return missing
    a_trans = c.args.bool_value("a_trans", 99, False) if c.row.explicit_matmul else False
    b_trans = c.args.bool_value("b_trans", 99, False) if c.row.explicit_matmul else False
    ka, kb = k_dims(x.shape, y.shape, bool(a_trans), bool(b_trans))
    if same_dim(ka, kb) or known(ka) and known(kb):
        return []
    return [f"K dim of {n}" for n, d in (("input", ka), (c.row.rhs, kb)) if not known(d)]


def _rule_reshape(c: Call) -> list[str]:
    """The element counts of the tensor and of the target (one -1 in the target is solved)."""
    x = c.args.tensor("input", 0)
    if x is None:
        return []
    target = c.args.dims("shape", 1)
    missing = ["rank of input"] if x.shape is None else ["dims of input"] if not all(isinstance(d, int) for d in x.shape) \
        else []
    if target is None or any(not isinstance(d, int) for d in target):
        missing.append("target shape")
    return missing


def _rule_view(c: Call) -> list[str]:
    """view keeps the rank: the tensor's rank and the target's."""
    x = c.args.tensor("input", 0)
    if x is None or not c.args.given("shape", 1):
        return []
    return rank(x, "input") + (["target shape"] if c.args.dims("shape", 1) is None else [])


def _rule_concat(c: Call) -> list[str]:
    ts = c.args.tensor_list("tensors", 0)
    if ts is None:
        return ["tensors"]
    missing = ["rank of tensors"] if ts and all(t.shape is None for t in ts) else []
    return missing + (["axis"] if c.args.given("dim", 1) and c.args.int_value("dim", 1) is None else [])


_RULES: Final[dict[str, Needs]] = {
    "elementwise": _rule_binary, "compare": _rule_binary, "matmul": _rule_matmul, "concat": _rule_concat,
    "transpose": _rule_axis(("dim0", 1), ("dim1", 2)),
}
_BY_RULE: Final[dict[object, Needs]] = {
    rules.reduction: _rule_axis(("dim", 1)), rules.var: _rule_axis(("dim", 1)),
    rules.softmax: _rule_axis(("dim", 1)), rules.unsqueeze: _rule_axis(("dim", 1)),
    rules.reshape: _rule_reshape, rules.view: _rule_view,
}


def rule_needs(op: Op, c: Call) -> list[str]:
    """What the op's shape rule decides on that this call leaves unknown (unary ops, casts, reads,
    creations: nothing; their rules reject no call)."""
    needs = _BY_RULE.get(op.rule) or _RULES.get(op.kind) or nothing
    return needs(c)
