"""The ``pypto-op-dtype`` check called directly, on fake arguments (no mypy): it reports a dtype
only when the probed table records that very op rejecting it (rule: op-dtype-support)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy_plugin.knowledge import op_dtypes_data as data
from mypy_plugin.knowledge import op_dtypes_scalar_data as scalar_data
from mypy_plugin.knowledge.checks.op_dtypes import compiler_words, op_dtype, scalar_op_dtype, scalar_positions, tensor_positions
from mypy_plugin.knowledge.checks.registry import op_checks
from mypy_plugin.knowledge.codes.op_codes import OP_DTYPE
from mypy_plugin.knowledge.op_call import Call, Env
from mypy_plugin.knowledge.ops import OPS
from mypy_plugin.knowledge.shapes import Dim
from mypy_plugin.knowledge.tiles import UNKNOWN
from mypy_plugin.knowledge.values import Key, TensorVal

ENV = Env(vec=UNKNOWN, cube=UNKNOWN, reduce_align_rule=True, reduce_align_fallback="tile")


@dataclass
class FakeArgs:
    """Positional arguments: a TensorVal, or a number (a scalar), with how the code wrote them."""

    values: list[object]
    texts: list[str] = field(default_factory=list)

    def _at(self, pos: int) -> object:
        return self.values[pos] if pos < len(self.values) else None

    def given(self, key: Key, pos: int) -> bool:
        return pos < len(self.values)

    def tensor(self, key: Key, pos: int) -> TensorVal | None:
        v = self._at(pos)
        return v if isinstance(v, TensorVal) else None

    def scalar(self, key: Key, pos: int) -> bool:
        return isinstance(self._at(pos), (int, float))

    def python_int(self, key: Key, pos: int) -> bool:
        return type(self._at(pos)) is int

    def number_kind(self, key: Key, pos: int) -> str | None:
        v = self._at(pos)
        return "int" if type(v) is int else "float" if type(v) is float else None

    def int_value(self, key: Key, pos: int) -> int | None:
        v = self._at(pos)
        return v if type(v) is int else None

    def bool_value(self, key: Key, pos: int, default: bool) -> bool | None:
        return default

    def dtype(self, key: Key, pos: int) -> str | None:
        return None

    def dims(self, key: Key, pos: int) -> list[Dim] | None:
        return None

    def varargs_dims(self, pos: int) -> list[Dim] | None:
        return None

    def tensor_list(self, key: Key, pos: int) -> list[TensorVal] | None:
        return None

    def index_keys(self) -> list[object]:
        return []

    def source(self, key: Key, pos: int) -> str | None:
        return self.texts[pos] if pos < len(self.texts) else None

    def text(self, key: Key, pos: int) -> str | None:
        return self.source(key, pos)


def t(dtype: str | None) -> TensorVal:
    return TensorVal((8, 64), dtype)


def call(op: str, label: str, *values: object, texts: tuple[str, ...] = ()) -> Call:
    return Call(op, OPS[op].kind, label, FakeArgs(list(values), list(texts)), ENV, t(None))


def test_log_on_int32_is_reported_with_the_compilers_words_and_a_cast() -> None:
    found = op_dtype(call("log", "pypto.log", t("DT_INT32"), texts=("a",)))
    assert found is not None and found.code is OP_DTYPE
    assert found.message == ("pypto.log does not take DT_INT32: 0.2.0 raises FC0001 (The datatype is not "
                             "supported) when it builds the op")
    assert found.note == ("pypto.log compiles on DT_BF16, DT_FP16, DT_FP32; cast first: "
                          "pypto.log(pypto.cast(a, pypto.DT_FP32))")


def test_method_form_and_two_operands() -> None:
    found = op_dtype(call("ceil_div", "pypto.ceil_div", t("DT_FP32"), t("DT_FP32"), texts=("a", "b")))
    assert found is not None
    assert found.note == ("pypto.ceil_div compiles on DT_INT32; cast first: "
                          "pypto.ceil_div(pypto.cast(a, pypto.DT_INT32), pypto.cast(b, pypto.DT_INT32))")
    found = op_dtype(call("log", "Tensor.log", t("DT_INT16"), texts=("x",)))
    assert found is not None and found.note is not None
    assert found.note.endswith("cast first: pypto.cast(x, pypto.DT_FP32).log()")


def test_an_op_that_only_passes_the_dtype_check_in_sim_mode_says_so() -> None:
    found = op_dtype(call("gcd", "pypto.gcd", t("DT_FP32"), t("DT_FP32"), texts=("a", "b")))
    assert found is not None and found.note is not None
    assert "passes the dtype check on" in found.note and "F92001" in found.note
    assert found.note.endswith("pypto.gcd(pypto.cast(a, pypto.DT_INT32), pypto.cast(b, pypto.DT_INT32))")


def test_silent_on_anything_not_recorded() -> None:
    assert op_dtype(call("log", "pypto.log", t("DT_FP16"))) is None  # compiles
    assert op_dtype(call("log", "pypto.log", t(None))) is None  # dtype unknown
    assert op_dtype(call("log", "pypto.log", t("DT_UINT16"))) is None  # never probed
    assert op_dtype(call("log", "pypto.log", 2.0)) is None  # not a tensor
    assert op_dtype(call("exp", "pypto.exp", t("DT_INT32"))) is None  # no rejection recorded
    # the probe called ceil_div with two tensors: a scalar or another dtype on the right is another call
    assert op_dtype(call("ceil_div", "pypto.ceil_div", t("DT_FP32"), 2)) is None
    assert op_dtype(call("ceil_div", "pypto.ceil_div", t("DT_FP32"), t("DT_INT32"))) is None
    for op in ("fmod", "remainder", "hypot", "bitwise_and"):  # F92001 on every dtype: not a dtype rule
        assert op not in data.REJECTED, op
        assert op_dtype(call(op, f"pypto.{op}", t("DT_FP32"), t("DT_FP32"))) is None


def test_the_check_runs_only_for_ops_with_a_recorded_rejection() -> None:
    assert op_dtype in op_checks(OPS["log"])
    assert op_dtype not in op_checks(OPS["exp"])
    assert op_dtype not in op_checks(OPS["__eq__"])


def test_table_helpers() -> None:
    assert tensor_positions("clip") == (0, 1, 2)
    assert tensor_positions("log") == (0,)
    assert tensor_positions("cumsum") == (0,)
    assert tensor_positions("__eq__") == (0, 1)
    assert compiler_words("RuntimeError: Errcode: FC0001! Unsurpported Dtype DT_INT16, func LogicalNot, "
                          "file math.cpp, line 87") == "FC0001 (Unsurpported Dtype DT_INT16)"


def test_every_rejection_is_a_dtype_message_and_every_probed_op_has_its_call() -> None:
    for op, row in data.REJECTED.items():
        assert op in data.CALLS, op
        for dt, text in row.items():
            assert dt in data.PROBED and dt not in data.SUPPORTED[op], (op, dt)
            assert compiler_words(text) != text, text


def test_a_scalar_form_is_reported_for_the_kind_of_scalar_it_was_probed_with() -> None:
    found = scalar_op_dtype(call("minimum", "pypto.minimum", t("DT_INT8"), 1, texts=("a", "1")))
    assert found is not None and found.code is OP_DTYPE
    assert found.message == ("pypto.minimum does not take DT_INT8 with a scalar operand (the Python int 1): 0.2.0 "
                             "raises FC0001 (The datatype is not supported) when it builds the op")
    assert found.note is not None and found.note.endswith(
        "cast the tensor first (the result is then DT_INT32): pypto.minimum(pypto.cast(a, pypto.DT_INT32), 1); "
        "or keep DT_INT8 with a tensor operand: pypto.minimum of two DT_INT8 tensors compiles")
    # "number": an int or a float gives the same Element(input.dtype, v): a float is reported too
    assert scalar_data.SCALAR_CALLS["minimum"] == {"number": "pypto.minimum(a, 2)"}
    assert scalar_op_dtype(call("minimum", "pypto.minimum", t("DT_INT8"), 0.5)) is not None
    # ceil_div was probed with an int only: a float scalar is another call
    assert scalar_op_dtype(call("ceil_div", "pypto.ceil_div", t("DT_FP32"), 2)) is not None
    assert scalar_op_dtype(call("ceil_div", "pypto.ceil_div", t("DT_FP32"), 2.5)) is None


def test_a_scalar_form_is_silent_on_anything_not_recorded() -> None:
    assert scalar_op_dtype(call("minimum", "pypto.minimum", t("DT_INT16"), 1)) is None  # compiles
    assert scalar_op_dtype(call("minimum", "pypto.minimum", t("DT_INT8"), t("DT_INT8"))) is None  # the tensor form
    assert scalar_op_dtype(call("minimum", "pypto.minimum", 1, t("DT_INT8"))) is None  # scalar first: not probed
    assert scalar_op_dtype(call("minimum", "pypto.minimum", t(None), 1)) is None
    assert scalar_op_dtype(call("minimum", "pypto.minimum", t("DT_UINT16"), 1)) is None  # never probed
    assert scalar_op_dtype(call("minimum", "pypto.minimum", t("DT_INT8"), True)) is None  # a bool: no kind
    assert scalar_op_dtype(call("clip", "pypto.clip", t("DT_INT8"), 0)) is None  # one bound: another call
    assert scalar_op_dtype(call("fmod", "pypto.fmod", t("DT_FP32"), 2)) is None  # F92001 on every dtype
    assert scalar_op_dtype(call("pow", "pypto.pow", t("DT_INT8"), 2)) is None  # compiles


def test_scalar_positions_follow_the_probed_call() -> None:
    assert scalar_positions("clip") == (0, (1, 2), False)
    assert scalar_positions("minimum") == (0, (1,), False)
    assert scalar_positions("__rsub__") == (0, (1,), True)  # 2 - a: the receiver is the tensor
    assert scalar_positions("__gt__") == (0, (1,), False)
    assert scalar_positions("log") is None
    for op, kinds in scalar_data.SCALAR_REJECTED.items():
        for kind, row in kinds.items():
            assert set(row) <= set(data.PROBED) and not set(row) & scalar_data.SCALAR_SUPPORTED[op][kind], (op, kind)
            assert all(compiler_words(text) != text for text in row.values()), op
