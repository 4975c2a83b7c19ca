"""The op table: one row per PyPTO op, holding every fact the checker knows about it.

Free functions (``pypto.sum``), methods (``Tensor.sum``) and operators (``Tensor.__add__``)
share a row: the bridge puts the receiver first, so argument 0 is always the first tensor.
A row names its shape/dtype rule (:mod:`.rules`), what the call still gives when that rule
rejects it (``recover``: the result as written, from founded facts only), the tile it needs (which tile checks run,
:mod:`.checks`), the dtype and axes of a reduction, its operator symbol and its special cases.
Adding an op means a stub in ``pypto_stubs`` and a row here (``tests/knowledge/test_op_table.py``
checks the two agree). Compiler rules are cited by their name in ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, Union

from . import matmul_rules, reduce_axes, rules
from .dtypes import BOOL, FP32
from .findings import Finding
from .op_dtypes_data import REJECTED
from .op_dtypes_scalar_data import SCALAR_REJECTED
from .values import ANY as ANY
from .values import SCALAR as SCALAR
from .values import Args as Args
from .values import AxesRule
from .values import Key as Key
from .values import Result as Result
from .values import Rule as Rule
from .values import TensorVal as TensorVal

OpKind = Literal[
    "elementwise", "compare", "unary", "cast", "reduction", "matmul", "transpose", "concat", "reshape", "layout",
    "index", "creation", "other",
]
# The tile an op needs, which picks its tile checks: "vec" (F21004 without one), "reduce" (a vec
# tile, SIGSEGV without one, 32-byte rule), "copy" (a vec tile anywhere in the kernel),
# "transpose" (a vec tile of exactly the tensor's rank), "cube" (a cube tile), None (no tile).
TileRegime = Literal["vec", "reduce", "copy", "transpose", "cube"]
# What a vec tile with fewer entries than the op's tensors does (rule: vec-tile-rank):
# "fails" always, "scalar-ok" compiles when one operand is a Python scalar (comparisons),
# "unprovable" the compiler's answer varies from run to run (reciprocal), so we say nothing.
ShortTile = Literal["fails", "scalar-ok", "unprovable"]


@dataclass(frozen=True)
class Reduce:
    """How a reduction reduces: which axes, and in which dtype (rule: reduce-in-fp32)."""

    axes: AxesRule
    widens_to: str | None = None  # fp16/bf16 inputs are cast to this dtype before reducing


@dataclass(frozen=True)
class Op:
    name: str
    kind: OpKind
    rule: Rule
    tile: TileRegime | None = None
    reduce: Reduce | None = None
    short_tile: ShortTile = "fails"
    symbol: str | None = None  # "+" for __add__: how messages name an operator
    rhs: str = "other"  # the second tensor operand's parameter name
    explicit_matmul: bool = False  # takes a_trans / b_trans / out_dtype (pypto.matmul; `@` takes none)
    # False: the scalar operand must not be a Python int (comparisons bind Compare(tensor, tensor |
    # float) and fail with TypeError on an int: rule compare-float-scalar).
    int_scalar: bool = True
    # After ``rule`` raised: the result the call meant (the requested shape, [..., M, N] of a
    # matmul), so that later checks still run; None: nothing founded, the result stays unknown.
    recover: Rule | None = None

    def infer(self, args: Args) -> tuple[Result, Finding | None]:
        """The call's result, and the error its rule raised (then the result is the recovered one)."""
        try:
            return self.rule(args), None
        except Finding as err:
            # The traceback would keep this frame (and the mypy context in ``args``) in a
            # reference cycle with ``err``: cyclic garbage that only the collector frees.
            err = err.with_traceback(None)
            if self.recover is None:
                return None, err
            try:
                return self.recover(args), err
            except Finding:  # a recovery never reports: the root cause is already out
                return None, err

    @property
    def on_dynamic(self) -> str | None:
        """What 0.2.0 raises at trace time when an operand has a dynamic dim (None: it compiles,
        or nobody has asked the compiler)."""
        return ON_DYNAMIC.get(self.name)

    @property
    def rejects_dtypes(self) -> bool:
        """0.2.0 rejected some probed dtype of this op (or of its scalar form) when it built it
        (rule: op-dtype-support)."""
        return self.name in REJECTED or self.name in SCALAR_REJECTED

    @property
    def is_operator(self) -> bool:
        return self.name.startswith("__")

    @property
    def method_label(self) -> str:
        """How messages name the method form: ``Tensor.sum``, ``operator +``."""
        return f"operator {self.symbol or self.name}" if self.is_operator else f"Tensor.{self.name}"

    @property
    def function_label(self) -> str:
        return f"pypto.{self.name}"


Name = Union[str, tuple[str, str]]  # an op name, or (dunder name, operator symbol)


def _group(
    kind: OpKind, rule: Rule, names: Sequence[Name], tile: TileRegime | None = None, *,
    reduce: Reduce | None = None, short_tile: ShortTile = "fails", recover: Rule | None = None,
    int_scalar: bool = True,
) -> list[Op]:
    """One row per name, all sharing the same facts."""
    rows: list[Op] = []
    for entry in names:
        name, symbol = (entry, None) if isinstance(entry, str) else entry
        rows.append(Op(name, kind, rule, tile, reduce, short_tile, symbol, recover=recover, int_scalar=int_scalar))
    return rows


# --- the table -------------------------------------------------------------------------

_BY_DIM: Final = Reduce(reduce_axes.axes_of_dim)
# prod: reduction.cpp casts first; var, softmax: probes; rms_norm: operator.py casts.
_BY_DIM_IN_FP32: Final = Reduce(reduce_axes.axes_of_dim, FP32)

_ROWS: Final[list[Op]] = [
    *_group("elementwise", rules.binary(None), [
        "add", "sub", "mul", "div", "fmod", "remainder", "pow", "maximum", "minimum", "hypot",
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
        "copysign", "gcd", "ceil_div", "prelu",
        ("__add__", "+"), ("__radd__", "+"), ("__iadd__", "+="), ("__sub__", "-"), ("__rsub__", "-"),
        ("__isub__", "-="), ("__mul__", "*"), ("__rmul__", "*"), ("__imul__", "*="), ("__truediv__", "/"),
        ("__rtruediv__", "/"), ("__itruediv__", "/="), ("__floordiv__", "//"), ("__mod__", "%"),
        ("__pow__", "**"),
    ], "vec", recover=rules.binary_founded(None)),
    # Comparisons of different dtypes compile in 0.2.0 (oracle regressions cmp_mixed_dtype_*),
    # so they are kind "compare" (no dtype check), not "elementwise".
    *_group("compare", rules.binary(BOOL), [
        "eq", "ne", "lt", "le", "gt", "ge", "greater",
        ("__eq__", "=="), ("__ne__", "!="), ("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">="),
    ], "vec", short_tile="scalar-ok", recover=rules.binary_founded(BOOL), int_scalar=False),
    *_group("compare", rules.binary(BOOL), ["logical_and"], "vec", short_tile="scalar-ok",
            recover=rules.binary_founded(BOOL)),
    *_group("unary", rules.same, [
        "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "abs", "neg",
        "sign", "relu", "round", "ceil", "floor", "trunc", "sin", "cos", "sigmoid",
        "cumsum", "triu", "tril", "triu_", "tril_", "clip", "bitwise_not", "cbrt",
        "lrelu", "clone", "fill_", ("__neg__", "unary -"), ("__pos__", "unary +"),
    ], "vec"),
    # 0.2.0 is nondeterministic on reciprocal under a short tile (rule: reciprocal-short-tile).
    Op("reciprocal", "unary", rules.same, "vec", short_tile="unprovable"),
    *_group("unary", rules.to_dtype(BOOL), ["signbit", "isfinite", "logical_not"], "vec"),
    # An axis out of range keeps what is founded: the rank (which dim went is unknown).
    *_group("reduction", rules.reduction, ["sum", "amax", "amin"], "reduce", reduce=_BY_DIM,
            recover=rules.reduced_rank(2)),
    Op("prod", "reduction", rules.reduction, "reduce", _BY_DIM_IN_FP32, recover=rules.reduced_rank(2)),
    Op("var", "reduction", rules.var, "reduce", Reduce(reduce_axes.var_axes, FP32), recover=rules.reduced_rank(3)),
    Op("softmax", "reduction", rules.softmax, "reduce", _BY_DIM_IN_FP32, recover=rules.same),
    Op("rms_norm", "reduction", rules.same, "reduce", Reduce(reduce_axes.last_axis, FP32)),
    Op("cast", "cast", rules.cast, "vec"),
    # reshape/view copy (REGISTER_COPY) with the kernel's vec tile (rule: reshape-copy-needs-tile).
    Op("reshape", "reshape", rules.reshape, "copy", recover=rules.reshape_as_written),
    Op("view", "reshape", rules.view, "copy", recover=rules.view_as_written),
    Op("transpose", "transpose", rules.transpose, "transpose", recover=rules.same_rank(0)),
    Op("unsqueeze", "layout", rules.unsqueeze, recover=rules.same_rank(1)),
    Op("concat", "concat", rules.concat, recover=rules.concat_rank),
    Op("expand_clone", "layout", rules.expand_clone),
    Op("where", "elementwise", rules.where, "vec", recover=rules.where_founded),
    Op("full", "creation", rules.full),
    *_group("creation", rules.zeros_ones, ["zeros", "ones"]),
    Op("topk", "other", rules.topk),
    # A K mismatch still gives [..., M, N] from the operands.
    Op("matmul", "matmul", matmul_rules.matmul, "cube", rhs="mat2", explicit_matmul=True, recover=matmul_rules.matmul_unchecked),
    Op("__matmul__", "matmul", matmul_rules.matmul_operator, "cube", symbol="@", recover=matmul_rules.matmul_operator_unchecked),
    Op("__getitem__", "index", rules.getitem, symbol="[]"),
]

OPS: Final[dict[str, Op]] = {op.name: op for op in _ROWS}

# An operand with a DYNAMIC or dynamic("N") dim: the frontend traces that dim as -1, and these
# ops check their shapes at trace time (rule: dynamic-dim-whole-tensor-op; each name probed on 0.2.0
# with a [DYNAMIC, 64] FP32 operand). Compiles: cast, comparisons, where, logical_and/not,
# exp2, expm1, hypot, round, sign, signbit, view, assemble. Fails only in a later pass when the
# result is used (F3FFFF, no line): sum, amax, amin, prod, cumsum, triu, tril, clone, transpose,
# concat; not modelled, like the unprobed rows.
_INT32_MAX: Final = "FFFFFF (The shape size of tensor must less than or equal to INT32_MAX)"
ON_DYNAMIC: Final[dict[str, str]] = {
    **dict.fromkeys([
        "add", "sub", "mul", "div", "fmod", "remainder", "pow", "maximum", "minimum", "copysign", "gcd",
        "ceil_div", "bitwise_and",
        "__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__", "__imul__",
        "__truediv__", "__rtruediv__", "__itruediv__", "__floordiv__", "__mod__", "__pow__", "__neg__",
        "exp", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "abs", "neg", "relu", "ceil", "floor", "trunc",
        "sin", "cos", "sigmoid", "clip", "cbrt", "reciprocal", "lrelu", "bitwise_not", "isfinite",
        "softmax", "rms_norm",
    ], _INT32_MAX),
    "var": "FC0000 (The input shape should > 0)",
    "matmul": "FC3000 (operand dim = -1, must be > 0)",
    "__matmul__": "FC3000 (operand dim = -1, must be > 0)",
}


# --- stub functions and methods with no row, on purpose ----------------------------------
# The stubs' declared return type stands for these; tests/knowledge/test_op_table.py keeps this list, the
# rows and pypto_stubs/__init__.pyi in step. Missing members are in :mod:`.members`.

_NOT_TENSOR_MATH: Final = "configuration, control flow or scalar helper: no tensor shape or dtype to infer"
_TILE_SETTER: Final = "tile state, followed through the kernel by the tile flow pass, not a tensor op"
_NOT_YET: Final = "tensor op not modelled yet: its result is the stub's declared Tensor (shape and dtype unknown)"
_BRIDGE: Final = "handled by its own hook in the mypy bridge"

UNMODELLED: Final[dict[str, str]] = {
    **dict.fromkeys([
        "bytes_of", "ceildiv", "cond", "function", "from_torch", "is_loop_begin", "is_loop_end", "loop",
        "loop_unroll", "options", "reset_options", "set_options", "verify", "pass_verify_print",
        "pass_verify_save", "set_matrix_size", "set_semantic_label", "set_print_options",
        "set_verify_golden_data", "get_codegen_options", "set_codegen_options", "get_debug_options",
        "set_debug_options", "get_global_config", "set_global_config", "get_host_options",
        "set_host_options", "get_pass_config", "set_pass_config", "get_pass_configs",
        "get_pass_default_config", "set_pass_default_config", "get_pass_options", "set_pass_options",
        "get_verify_options", "set_verify_options",
        # pypto.max / pypto.min take two SymbolicScalars; as tensor methods they are missing members.
        "max", "min",
        # Tensor plumbing, no math.
        "base", "from_base", "to_tensor", "get_cache_policy", "set_cache_policy",
    ], _NOT_TENSOR_MATH),
    **dict.fromkeys([
        "set_vec_tile_shapes", "get_vec_tile_shapes", "set_cube_tile_shapes", "get_cube_tile_shapes",
        "set_conv_tile_shapes", "get_conv_tile_shapes",
    ], _TILE_SETTER),
    **dict.fromkeys([
        "arange", "argsort", "assemble", "conv", "expand_exp_dif", "fillpad", "gather", "gathermask",
        "index_add", "index_add_", "index_put_", "index_select", "mrgsort", "one_hot", "pad", "scaled_mm",
        "scatter", "scatter_", "scatter_update", "sort32",
    ], _NOT_YET),
    # __init__: the constructor hook; __setitem__ and move: output writes (write hook).
    **dict.fromkeys(["__init__", "__setitem__", "move"], _BRIDGE),
}
