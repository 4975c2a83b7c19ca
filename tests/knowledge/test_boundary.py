"""The host-boundary rules (knowledge/boundary.py) on described tensors: exact messages."""

from __future__ import annotations

from mypy_plugin.knowledge.boundary.specs import KernelSpec, ParamSpec, TensorDesc
from mypy_plugin.knowledge.boundary.args import check_args
from mypy_plugin.knowledge.boundary.symbols import Binding, SymbolConflict, symbol_conflicts
from mypy_plugin.knowledge.boundary.tensors import check_tensor

X = ParamSpec("x", (16, 64), dtype="DT_FP32")
OUT = ParamSpec("out", (16, 64), dtype="DT_FP32")
STATIC = KernelSpec("k", (X, OUT), ("scale",))


def fp32(*shape: int | None, contiguous: bool | None = True) -> TensorDesc:
    return TensorDesc(shape, "torch.float32", 4, contiguous)


def test_good_tensor_has_no_finding() -> None:
    assert check_tensor(STATIC, X, fp32(16, 64)) == []


def test_unknowns_are_silent() -> None:
    assert check_tensor(STATIC, X, TensorDesc(None, None, None, None)) == []
    assert check_tensor(STATIC, X, fp32(16, None)) == []
    assert check_tensor(STATIC, ParamSpec("x", None, dtype=None), fp32(3, 5, 7)) == []


def test_static_dim_names_dim_and_overrun() -> None:
    [f] = check_tensor(STATIC, X, fp32(16, 32))
    assert f.code.name == "pypto-call-shape"
    assert f.message == (
        'Kernel "k", parameter "x": dim 1 is 32, not 64 (annotation [16, 64] DT_FP32, tensor [16, 32]); '
        "0.2.0 does not check this: it compiles the kernel for [16, 64] DT_FP32 over the tensor's buffer "
        "(silent wrong data; it is built to access 4096 bytes of a 2048-byte buffer: out of bounds, heap corruption "
        "on a write)"
    )


def test_larger_tensor_is_wrong_data_only() -> None:
    [f] = check_tensor(STATIC, X, fp32(16, 128))
    assert "heap corruption" not in f.message and "silent wrong data" in f.message


def test_rank() -> None:
    [f] = check_tensor(STATIC, X, fp32(16, 64, 1))
    assert f.code.name == "pypto-call-rank"
    assert f.message.startswith('Kernel "k", parameter "x": expected 2 dims ([16, 64] DT_FP32), got a 3-D tensor [16, 64, 1]')


def test_open_tail_allows_more_dims_only() -> None:
    p = ParamSpec("x", (8,), open_tail=True, dtype="DT_FP32")
    k = KernelSpec("k", (p,))
    assert check_tensor(k, p, fp32(8, 3, 3)) == []
    assert [f.code.name for f in check_tensor(k, p, fp32(4, 3))] == ["pypto-call-shape"]


def test_status_dims_make_the_runtime_regime() -> None:
    p = ParamSpec("x", (None, 64), dtype="DT_FP32", status=True)
    k = KernelSpec("k", (p,))
    assert k.runtime_shapes
    [f] = check_tensor(k, p, fp32(16, 32))
    assert "the annotation's size is ignored and the kernel is traced with [16, 32]" in f.message
    [r] = check_tensor(k, p, fp32(2, 16, 64))
    assert r.code.name == "pypto-call-rank" and "traces the kernel with the tensor's 3-D shape" in r.message


def test_dtype_smaller_element_is_heap_corruption() -> None:
    [f] = check_tensor(STATIC, X, TensorDesc((16, 64), "torch.bfloat16", 2, True))
    assert f.code.name == "pypto-call-dtype"
    assert f.message == (
        'Kernel "k", parameter "x": DT_FP32 annotated, got a torch.bfloat16 tensor; 0.2.0 does not check this: '
        "the 2-byte elements are read as 4-byte DT_FP32: out-of-bounds access, heap corruption "
        "(the process can die with SIGABRT at exit)"
    )
    assert f.note == "pass x.to(torch.float32), or annotate the dtype the tensor has"


def test_dtype_default_fp32_only_for_static_shapes() -> None:
    p = ParamSpec("x", (16, 64))
    bf16 = TensorDesc((16, 64), "torch.bfloat16", 2, True)
    [f] = check_tensor(KernelSpec("k", (p,)), p, bf16)
    assert "parameter \"x\": DT_FP32 by default (no dtype written, static shape), got a torch.bfloat16" in f.message
    q = ParamSpec("y", None)  # `[]`: every parameter takes its dtype from the tensor
    assert check_tensor(KernelSpec("k", (p, q)), p, bf16) == []


def test_dtypes_torch_has_no_type_for_come_in_byte_tensors() -> None:
    for dt in ("DT_HF8", "DT_INT4", "DT_FP8"):
        p = ParamSpec("x", (4,), dtype=dt)
        for carrier in ("torch.uint8", "torch.int8"):
            assert check_tensor(KernelSpec("k", (p,)), p, TensorDesc((4,), carrier, 1, True)) == []
    p = ParamSpec("x", (4,), dtype="DT_FP8E4M3")  # torch has float8_e4m3fn: a byte tensor is a mismatch
    assert [f.code.name for f in check_tensor(KernelSpec("k", (p,)), p, TensorDesc((4,), "torch.uint8", 1, True))] == [
        "pypto-call-dtype"]


def test_float64_is_double() -> None:
    p = ParamSpec("x", (4,), dtype="DT_DOUBLE")
    assert check_tensor(KernelSpec("k", (p,)), p, TensorDesc((4,), "torch.float64", 8, True)) == []


def test_layout() -> None:
    [f] = check_tensor(STATIC, X, fp32(16, 64, contiguous=False))
    assert f.code.name == "pypto-call-layout" and 'RuntimeError "not all tensors are contiguous"' in f.message
    assert f.note == "pass x.contiguous()"  # the runtime guard: the parameter's name
    [f] = check_tensor(STATIC, X, fp32(16, 64, contiguous=False), "w.t()")
    assert f.note == "pass w.t().contiguous()"  # mypy: the argument as the call writes it


def test_args() -> None:
    assert check_args(STATIC, [True, True], {}) == []
    assert check_args(STATIC, [True, True, False], {}) == []
    assert [f.code.name for f in check_args(STATIC, [True], {"out": True})] == ["pypto-call-args"]
    [few] = check_args(STATIC, [True], {})
    assert "missing out" in few.message and "Expected at least 2 tensor argument(s), got 1." in few.message
    [many] = check_args(STATIC, [True, True, False, False], {})
    assert "Too many positional arguments" in many.message
    [non] = check_args(STATIC, [True, False], {})
    assert 'parameter "out": expected a torch tensor' in non.message
    [kw] = check_args(STATIC, [True, True], {"scale": True})
    assert "Non-tensor parameter 'scale' must not be a torch.Tensor" in kw.message
    [unk] = check_args(STATIC, [True, True], {"bias": False})
    assert 'unknown keyword argument "bias"' in unk.message
    req = KernelSpec("k", (X,), ("eps",), frozenset({"eps"}))
    [miss] = check_args(req, [True], {})
    assert "Missing required non-tensor argument 'eps'." in miss.message
    assert check_args(req, [True], {"eps": False}) == []


def test_symbols() -> None:
    a, b = ParamSpec("a", ("N", 64), dtype="DT_FP32"), ParamSpec("b", ("N", 64), dtype="DT_FP32")
    k = KernelSpec("k", (a, b))
    assert symbol_conflicts(k, [fp32(16, 64), fp32(16, 64)]) == []
    [c] = symbol_conflicts(k, [fp32(16, 64), fp32(32, 64)])
    assert c == SymbolConflict("N", Binding("a", 0, 16), Binding("b", 0, 32))
    # a tensor that breaks its own annotation binds nothing
    assert symbol_conflicts(k, [fp32(16, 32), fp32(32, 64)]) == []
    # a repeated symbol in one tensor
    sq = ParamSpec("s", ("N", "N"), dtype="DT_FP32")
    [c2] = symbol_conflicts(KernelSpec("k", (sq,)), [fp32(3, 4)])
    assert (c2.first.axis, c2.second.axis) == (0, 1)


def test_boundary_error_pickles() -> None:
    import pickle

    from mypy_plugin.guard.check import BoundaryError

    e = BoundaryError("k", check_tensor(STATIC, X, fp32(16, 32)))
    back = pickle.loads(pickle.dumps(e))
    assert (str(back), back.findings) == (str(e), e.findings)


def test_notes_name_the_argument_the_call_writes() -> None:
    # The note converts what the call passes (its cast dropped), else the parameter: never a fixed "x".
    w = ParamSpec("w", (16, 64), dtype="DT_FP32")
    k = KernelSpec("k", (w,))
    [dt] = check_tensor(k, w, TensorDesc((16, 64), "torch.float16", 2, True), "b.half()")
    assert dt.note == "pass b.to(torch.float32), or annotate the dtype the tensor has"
    [dt] = check_tensor(k, w, TensorDesc((16, 64), "torch.float16", 2, True), "b.to(torch.float16)")
    assert dt.note == "pass b.to(torch.float32), or annotate the dtype the tensor has"
    [dt] = check_tensor(k, w, TensorDesc((16, 64), "torch.float16", 2, True))
    assert dt.note == "pass w.to(torch.float32), or annotate the dtype the tensor has"
    [rank] = check_tensor(k, w, TensorDesc((1024,), "torch.float32", 4, True), "flat")
    assert rank.note == "pass a 2-D tensor (flat.reshape(...)), or change the annotation"


def test_a_bool_and_a_byte_integer_agree_on_0_and_1_only() -> None:
    """DT_BOOL and uint8/int8 share their 1-byte size: the message says the values agree while the
    bytes are 0 or 1 (a DT_BOOL output in a uint8 tensor), not that the data is wrong."""
    p = ParamSpec("mask", (16,), dtype="DT_BOOL")
    [f] = check_tensor(KernelSpec("k", (p,)), p, TensorDesc((16,), "torch.uint8", 1, True))
    assert f.code.name == "pypto-call-dtype"
    assert f.message == (
        'Kernel "k", parameter "mask": DT_BOOL annotated, got a torch.uint8 tensor; 0.2.0 does not check this: '
        "the bytes are read as DT_BOOL: both are 1 byte, so the values agree only while every byte is 0 or 1"
    )
    assert f.note == "pass mask.to(torch.bool), or annotate the dtype the tensor has"
    q = ParamSpec("x", (16,), dtype="DT_INT8")
    [g] = check_tensor(KernelSpec("k", (q,)), q, TensorDesc((16,), "torch.bool", 1, True))
    assert g.message.endswith("the bytes are read as DT_INT8: both are 1 byte, so the values agree only while every "
                              "byte is 0 or 1")
    r = ParamSpec("y", (16,), dtype="DT_FP16")  # the same size, another encoding: wrong data
    [h] = check_tensor(KernelSpec("k", (r,)), r, TensorDesc((16,), "torch.bfloat16", 2, True))
    assert h.message.endswith("the bytes are read as DT_FP16 (silent wrong data)")
