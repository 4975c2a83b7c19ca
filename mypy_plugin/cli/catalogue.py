"""The ``pypto-*`` codes explained: what each catches, what PyPTO 0.2.0 does, a bad and a fixed line."""

from __future__ import annotations

from dataclasses import dataclass

from .. import errorcodes


@dataclass(frozen=True)
class CodeDoc:
    code: str
    catches: str
    compiler: str  # what PyPTO 0.2.0 does with the bad code
    bad: str
    fixed: str

    @property
    def summary(self) -> str:
        return errorcodes.BY_NAME[self.code].description

    @property
    def enabled_by_default(self) -> bool:
        return errorcodes.BY_NAME[self.code].default_enabled

    def explain(self) -> str:
        default = "" if self.enabled_by_default else " (off by default: enable_error_code = " + self.code + ")"
        return (
            f"{self.code}{default}\n\n"
            f"Catches: {self.catches}\n"
            f"PyPTO 0.2.0: {self.compiler}\n\n"
            f"Bad:\n{_indent(self.bad)}\n\nFixed:\n{_indent(self.fixed)}\n\n"
            f"Silence one line with  # type: ignore[{self.code}]  or the code with  disable_error_code = {self.code}\n"
        )


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


CODES: tuple[CodeDoc, ...] = (
    CodeDoc(
        "pypto-transpose",
        "`.T` on a PyPTO tensor.",
        "AttributeError: 'Tensor' object has no attribute 'T' at trace time.",
        "scores = pypto.matmul(q, k.T, pypto.DT_FP32)",
        "scores = pypto.matmul(q, k, pypto.DT_FP32, b_trans=True)",
    ),
    CodeDoc(
        "pypto-no-method",
        "Tensor members PyPTO does not have (.abs() .neg() .pow() .float() .half() .mean() .max() .min() "
        ".cast() .to() .permute() .squeeze() .expand() .numel() .size() .prod() .clamp() .square() .ndim), "
        "and Tensor.where / Tensor.lrelu, which exist but pass too many arguments on.",
        "AttributeError at trace time (TypeError for .where / .lrelu).",
        "mag = x.abs()",
        "mag = pypto.abs(x)",
    ),
    CodeDoc(
        "pypto-reduce-align",
        "A last-axis reduction (sum, amax, amin, prod, var, softmax, rms_norm) whose vec tile entry at index "
        "rank - 1 times the element size is not a multiple of 32 bytes.",
        "FC1001 'Reduce op: the tileShape of last axis need to 32Byte align!'.",
        "pypto.set_vec_tile_shapes(16, 8)\nrow_max = x.amax(-1, keepdim=True)    # x: [16, 64] bf16",
        "pypto.set_vec_tile_shapes(16, 16)   # 16 x 2 bytes = 32 bytes\nrow_max = x.amax(-1, keepdim=True)",
    ),
    CodeDoc(
        "pypto-matmul-k",
        "matmul / Tensor.matmul / @ whose K dims differ after a_trans / b_trans, incl. ones-vector reductions.",
        "'K-dimension valid shape mismatch'.",
        "row_sum = pypto.matmul(x, ones_v, pypto.DT_FP32)   # x: [8, 64], ones_v: [32, 1]",
        "ones_v = pypto.full([64, 1], 1.0, pypto.DT_FP32)\nrow_sum = pypto.matmul(x, ones_v, pypto.DT_FP32)",
    ),
    CodeDoc(
        "pypto-broadcast",
        "Shapes that do not broadcast, or that need two expanded axes on one operand.",
        "FC0000 'shape not support binary operation' / 'Only allow to expand one axis!'.",
        "y = a * b          # a: [8, 16], b: [4, 16]",
        "y = a * b[0:1, :]  # [8, 16] * [1, 16]",
    ),
    CodeDoc(
        "pypto-reshape",
        "reshape that changes the element count; view that changes the rank.",
        "'Shape size not match' / F21004.",
        "y = x.reshape([8, 8])    # x: [8, 16]",
        "y = x.reshape([8, -1])",
    ),
    CodeDoc(
        "pypto-axis",
        "A reduction / transpose / unsqueeze axis out of range.",
        "FFFFFF 'Axis is not in the reasonable range!'.",
        "s = x.sum(2)     # x: [8, 64]",
        "s = x.sum(-1)",
    ),
    CodeDoc(
        "pypto-tile-missing",
        "A vector op with no vec tile set before it in the kernel, a reduction with none, a matmul with no cube tile.",
        "F21004 'tile shape not set', SIGSEGV for a reduction, FC4000 for a matmul.",
        "out[:] = a + a                     # first line of the kernel",
        "pypto.set_vec_tile_shapes(8, 16)\nout[:] = a + a",
    ),
    CodeDoc(
        "pypto-tile-rank",
        "A vec tile with fewer entries than an op's tensors; transpose whose tile rank differs from the tensor's.",
        "FFFFFF 'Run pass failed.' / FC0000 'TileShape dim num should same to input.'.",
        "pypto.set_vec_tile_shapes(16)\ny = a + a                          # a: [8, 16]",
        "pypto.set_vec_tile_shapes(8, 16)   # one entry per dim\ny = a + a",
    ),
    CodeDoc(
        "pypto-cube-tile",
        "Cube tile values that break the matmul's alignment and L0/L1 rules.",
        "FC4001 / FC4000 at compile time.",
        "pypto.set_cube_tile_shapes([16, 16], [8, 16], [16, 16])\nc = pypto.matmul(a, b, pypto.DT_FP32)",
        "pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])\nc = pypto.matmul(a, b, pypto.DT_FP32)",
    ),
    CodeDoc(
        "pypto-dtype-mismatch",
        "Tensor-tensor elementwise ops, comparisons, maximum, where, concat with different dtypes (scalars never conflict).",
        "FC0000 'The dtype of input tensors are not same.'.",
        "y = a * b                                  # a: bf16, b: fp32",
        "y = a * pypto.cast(b, pypto.DT_BF16)",
    ),
    CodeDoc(
        "pypto-matmul-dtype",
        "matmul inputs of different dtypes, an out dtype outside FP32/FP16/BF16/INT32, @ on a dtype with no out dtype.",
        "'Non-FP8 inputs require identical dtypes.', FC3002, 'unsupported dtype'.",
        "c = pypto.matmul(a, f, pypto.DT_FP32)                            # a: fp16, f: fp32",
        "c = pypto.matmul(a, pypto.cast(f, pypto.DT_FP16), pypto.DT_FP32)",
    ),
    CodeDoc(
        "pypto-matmul-dtype-doc",
        "matmul input/out dtype pairs outside the documented table (fp32 inputs with an fp16 result, int8 with fp32).",
        "Compiles them anyway.",
        "c = pypto.matmul(a, b, pypto.DT_FP16)      # a, b: fp32",
        "c = pypto.matmul(a, b, pypto.DT_FP32)",
    ),
    CodeDoc(
        "pypto-matmul-rank",
        "matmul operands of different ranks or outside 2-4; batch dims neither equal nor 1.",
        "'Tensor dimension mismatch', FC3000 'batchSize invalid'.",
        "c = pypto.matmul(x, y, pypto.DT_FP32)              # x: [2, 16, 32], y: [3, 32, 16]",
        "c = pypto.matmul(x, y[0:1, :, :], pypto.DT_FP32)   # batch 2 with batch 1",
    ),
    CodeDoc(
        "pypto-out-shape",
        "out[:] = x, out.move(x), out[a:b, ...] = x where x does not have the destination's shape.",
        "Compiles it and writes wrong data: nothing is reported.",
        "o3[:] = a.sum(-1)                  # o3: [8, 1]",
        "o3[:] = a.sum(-1, keepdim=True)",
    ),
    CodeDoc(
        "pypto-out-dtype",
        "out[:] = x, out.move(x), out[a:b, ...] = x where x does not have the destination's dtype.",
        "Compiles it and writes wrong data: nothing is reported.",
        "o2[:] = a * 2.0                            # o2: bf16, a: fp32",
        "o2[:] = pypto.cast(a * 2.0, pypto.DT_BF16)",
    ),
    CodeDoc(
        "pypto-kernel-scope",
        "A lambda, a generator expression or (before Python 3.12) a list/set/dict comprehension in a jit kernel "
        "that reads a kernel parameter, local or module name: the frontend evaluates kernel code with empty "
        "globals, so a nested scope sees only builtins and its own names.",
        "NameError: name 'a' is not defined, at trace time.",
        "parts = [a * float(i) for i in range(2)]\nout[:] = (lambda x: x * a)(b)",
        "parts = [x * 2.0 for x in (a, b)]\nout[:] = (lambda x, a=a: x * a)(b)",
    ),
    CodeDoc(
        "pypto-reshape-align",
        "A reshape/view that copies and is written whole into an output, under a vec tile with one entry per "
        "output dim whose last entry x dtype size is not a multiple of 32 bytes (the tile in force at the call).",
        "CHECK FAILED: FwkOp tile shape's last dim is not aligned.",
        "pypto.set_vec_tile_shapes(8, 4)\nout[:] = a.reshape([16, 8])      # a: [8, 16] DT_FP32",
        "pypto.set_vec_tile_shapes(8, 8)\nout[:] = a.reshape([16, 8])",
    ),
    CodeDoc(
        "pypto-compare-int",
        "A tensor compared with a Python int (a > 0, 0 < a, pypto.eq(a, n) with n: int).",
        "TypeError: Compare(): incompatible function arguments, at trace time.",
        "m = a > 0",
        "m = a > 0.0",
    ),
    CodeDoc(
        "pypto-dynamic-dim",
        "An elementwise op, unary math, softmax, rms_norm, var or matmul on a tensor with a pypto.DYNAMIC "
        "(or frontend.dynamic) dim: the frontend traces that dim as -1, whatever the call's tensors are.",
        "FFFFFF The shape size of tensor must less than or equal to INT32_MAX (matmul: FC3000 operand "
        "dim = -1, must be > 0), at trace time.",
        "out[:] = x * 2.0        # x: [DYNAMIC, 64]",
        "for i in pypto.loop(x.shape[0] // 8):\n"
        "    xs = pypto.view(x, [8, 64], [i * 8, 0])\n"
        "    pypto.assemble(xs * 2.0, [i * 8, 0], out)",
    ),
    CodeDoc(
        "pypto-not-concrete",
        "min(), max(), bool(), int(), sorted(), range(), abs(), divmod(), round(), not, and/or or a "
        "conditional expression on a dim of a pypto.DYNAMIC axis (a SymbolicScalar while tracing).",
        "ValueError: Not concrete value (range, abs, divmod, round: TypeError), at trace time.",
        "rows = min(x.shape[0], 8)",
        "rows = x.shape[0].min(8)",
    ),
    CodeDoc(
        "pypto-jit-keyword",
        "A pypto.frontend.jit(...) keyword that 0.2.0's jit does not take (new_ir=..., from a newer PyPTO).",
        "TypeError: jit() got an unexpected keyword argument 'new_ir', when the module is imported.",
        "@pypto.frontend.jit(new_ir=True)",
        "@pypto.frontend.jit()",
    ),
    CodeDoc(
        "pypto-use-after-move",
        "Reading a tensor after out[:] = t / out.move(t) handed its storage to an output.",
        "'ValueError: Empty tensor.' at trace time, or SIGSEGV in a reduction.",
        "o1[:] = t\no2[:] = t + 1.0",
        "o1[:] = t\no2[:] = o1 + 1.0     # or o1[:] = pypto.clone(t)",
    ),
    CodeDoc(
        "pypto-kernel-signature",
        "A jit kernel definition the frontend rejects: a return, a return annotation (even -> None), a tensor "
        "parameter after a non-tensor one, from __future__ import annotations, a def inside the kernel.",
        "'ValueError: Return statements are not allowed' and friends.",
        "@pypto.frontend.jit\ndef k(cfg, a: pypto.Tensor([8, 16], pypto.DT_FP32)) -> None:\n    ...",
        "@pypto.frontend.jit\ndef k(a: pypto.Tensor([8, 16], pypto.DT_FP32), cfg=None):\n    ...",
    ),
    CodeDoc(
        "pypto-kernel-while",
        "A while loop in a jit kernel's body.",
        "'ParserError: While is not supported by the PTO parser yet.' at the while line.",
        "while i < n:\n    ...",
        "for i in pypto.loop(n):\n    ...",
    ),
    CodeDoc(
        "pypto-param-rebind",
        "A tensor parameter rebound in a kernel (out = x, out += x) whose new value is never read.",
        "Nothing: it compiles, the assignment only rebinds the name, and the tensor passed in is not written "
        "(out += x drops the add).",
        "out = a + 1.0",
        "out[:] = a + 1.0     # or out.move(a + 1.0)",
    ),
    CodeDoc(
        "pypto-view-rank",
        "pypto.view / Tensor.view whose offsets or valid_shape list has another number of entries than the shape.",
        "F21004 when it compiles ('lhs.size():2, rhs.size():1, func Add' / 'Their size actually are 1 and 2'), "
        "on no line of the kernel.",
        "v = pypto.view(a, [8, 16], [0])",
        "v = pypto.view(a, [8, 16], [0, 0])",
    ),
    CodeDoc(
        "pypto-cube-tile-entries",
        "pypto.set_cube_tile_shapes whose m or n list does not have 2 entries, or whose k list has neither 2 nor 3.",
        "'ValueError: m must have exactly 2 elements, got 1' (k: '2 or 3 elements') at the call.",
        "pypto.set_cube_tile_shapes([16], [32], [16])",
        "pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])",
    ),
    CodeDoc(
        "pypto-host-creation",
        "pypto.zeros / pypto.ones / pypto.full in module-level code (outside any jit kernel).",
        "'RuntimeError: Errcode: F21003!' (func Operation) when the module is imported.",
        "ONES = pypto.ones([8, 16], dtype=pypto.DT_FP32)",
        "ONES = torch.ones(8, 16)     # or pypto.ones(...) inside the kernel",
    ),
    # Host calls of a kernel (static checks of host code, and the runtime guard).
    CodeDoc(
        "pypto-call-shape",
        "A kernel call whose torch tensor has a dim that differs from a static annotation dim.",
        "Nothing: it compiles the kernel for the annotation's shape over the tensor's buffer (wrong data), "
        "or ignores the annotation for a []/STATIC/DYNAMIC kernel.",
        "mm(torch.randn(16, 32), w, out)     # a: pypto.Tensor([16, 64], pypto.DT_FP32)",
        "mm(torch.randn(16, 64), w, out)",
    ),
    CodeDoc(
        "pypto-call-dtype",
        "A kernel call whose torch tensor's dtype differs from the annotated one (or from the FP32 default "
        "of a dtype-less static annotation).",
        "Nothing: it reads the bytes as the annotated dtype (out of bounds when the torch element is smaller).",
        "k(x.half())     # x: pypto.Tensor([8, 64])  (FP32 by default)",
        "k(x.float())",
    ),
    CodeDoc(
        "pypto-call-rank",
        "A kernel call whose torch tensor has another number of dims than the annotation.",
        "Nothing for a static kernel (wrong data); a []/DYNAMIC kernel is traced with the tensor's rank.",
        "k(x[0])     # x: torch [8, 64], annotation [8, 64]",
        "k(x)",
    ),
    CodeDoc(
        "pypto-call-symbol",
        "A kernel call binding one pypto.frontend.dynamic symbol to two sizes.",
        "Nothing: each tensor keeps its own size (wrong data).",
        "add(torch.ones(16, 64), torch.ones(32, 64))     # both [N, 64]",
        "add(torch.ones(16, 64), torch.ones(16, 64))",
    ),
    CodeDoc(
        "pypto-call-layout",
        "A kernel call with a non-contiguous view (.t(), .T, .transpose, .permute, .expand, step slices).",
        "RuntimeError 'not all tensors are contiguous' inside the call.",
        "mm(a, b.t(), out)",
        "mm(a, b.t().contiguous(), out)",
    ),
    CodeDoc(
        "pypto-call-args",
        "A kernel call passing tensors by keyword, too few or too many arguments, a tensor for a non-tensor "
        "parameter or the reverse.",
        "RuntimeError / AttributeError inside the call.",
        "k(x, out=y)",
        "k(x, y)",
    ),
)

BY_CODE: dict[str, CodeDoc] = {doc.code: doc for doc in CODES}


def lookup(name: str) -> CodeDoc | None:
    """``pypto-axis`` or ``axis``."""
    name = name.strip().strip("[]")
    return BY_CODE.get(name) or BY_CODE.get(f"pypto-{name}")


def list_codes() -> str:
    width = max(len(doc.code) for doc in CODES)
    rows = [
        f"{doc.code:<{width}}  {doc.summary}{'' if doc.enabled_by_default else ' (off by default)'}"
        for doc in CODES
    ]
    return "\n".join(rows) + "\n"
