"""The codes of findings about a kernel as a whole: its definition, its scopes, moved tensors."""

from __future__ import annotations

from typing import Final

from .table import Code

KERNEL_SCOPE: Final = Code(
    "pypto-kernel-scope",
    summary="A name a jit kernel reads where the frontend cannot see it",
    catches=(
        "A lambda, a generator expression or (before Python 3.12) a list/set/dict comprehension in a jit "
        "kernel that reads a kernel parameter, local or module name: the frontend evaluates kernel code "
        "with empty globals, so a nested scope sees only builtins and its own names. And a bare "
        "@pypto.frontend.jit kernel defined in a function whose annotations read a variable of that function "
        "the body does not use: the frontend evaluates the annotations again without it."
    ),
    compiler="NameError: name 'a' is not defined, at trace time.",
    bad=("parts = [a * float(i) for i in range(2)]\nout[:] = (lambda x: x * a)(b)\n"
         "@pypto.frontend.jit          # in make(rows); rows only in the annotations"),
    fixed=("parts = [x * 2.0 for x in (a, b)]\nout[:] = (lambda x, a=a: x * a)(b)\n"
           "@pypto.frontend.jit()"),
    rules=("kernel-nested-scope", "jit-annotation-names"),
)

JIT_KEYWORD: Final = Code(
    "pypto-jit-keyword",
    summary="A pypto.frontend.jit keyword or runtime option that PyPTO 0.2.0 does not have",
    catches=(
        "A pypto.frontend.jit(...) keyword that 0.2.0's jit does not take (new_ir=..., from a newer PyPTO), and a "
        "key of its runtime_options dict that 0.2.0 does not have (launch_sched_aicpu_num)."
    ),
    compiler=(
        "TypeError: jit() got an unexpected keyword argument 'new_ir', when the module is imported; IndexError: "
        "map::at for a runtime option, at the kernel's first call."
    ),
    bad='@pypto.frontend.jit(new_ir=True)\n@pypto.frontend.jit(runtime_options={"launch_sched_aicpu_num": 4})',
    fixed="@pypto.frontend.jit()\n@pypto.frontend.jit()",
    rules=("jit-keywords", "jit-runtime-options"),
)

USE_AFTER_MOVE: Final = Code(
    "pypto-use-after-move",
    summary="A tensor read after it was moved into an output",
    catches="Reading a tensor after out[:] = t / out.move(t) handed its storage to an output.",
    compiler="'ValueError: Empty tensor.' at trace time, or SIGSEGV in a reduction.",
    bad="o1[:] = t\no2[:] = t + 1.0",
    fixed="o1[:] = t\no2[:] = o1 + 1.0     # or o1[:] = pypto.clone(t)",
    rules=("move-empties-source",),
)

KERNEL_SIGNATURE: Final = Code(
    "pypto-kernel-signature",
    summary="A jit kernel definition the frontend rejects",
    catches=(
        "A jit kernel definition the frontend rejects: a return, a return annotation (even -> None), a "
        "tensor parameter after a non-tensor one, from __future__ import annotations, a def inside the "
        "kernel, a shape written as a tuple holding DYNAMIC, DYN, STATIC or ... (a list works)."
    ),
    compiler="'ValueError: Return statements are not allowed' and friends; ValueError: Invalid value type on import.",
    bad="@pypto.frontend.jit\ndef k(cfg, a: pypto.Tensor([8, 16], pypto.DT_FP32)) -> None:\n    ...",
    fixed="@pypto.frontend.jit\ndef k(a: pypto.Tensor([8, 16], pypto.DT_FP32), cfg=None):\n    ...",
    rules=("kernel-no-return", "kernel-tensor-params-first", "kernel-no-future-annotations", "kernel-no-nested-def",
           "annotation-tuple-status"),
)

KERNEL_WHILE: Final = Code(
    "pypto-kernel-while",
    summary="A while loop in a jit kernel (the parser has none)",
    catches="A while loop in a jit kernel's body.",
    compiler="'ParserError: While is not supported by the PTO parser yet.' at the while line.",
    bad="while i < n:\n    ...",
    fixed="for i in pypto.loop(n):\n    ...",
    rules=("kernel-no-while",),
)

PARAM_REBIND: Final = Code(
    "pypto-param-rebind",
    summary="A tensor parameter rebound (= or +=) in a kernel: the tensor passed in is not written",
    catches="A tensor parameter rebound in a kernel (out = x, out += x) whose new value is never read.",
    compiler=(
        "Nothing: it compiles, the assignment only rebinds the name, and the tensor passed in is not written "
        "(out += x drops the add)."
    ),
    bad="out = a + 1.0",
    fixed="out[:] = a + 1.0     # or out.move(a + 1.0)",
    rules=("kernel-parameter-rebind",),
)

HOST_CREATION: Final = Code(
    "pypto-host-creation",
    summary="pypto.zeros / ones / full outside a jit kernel",
    catches="pypto.zeros / pypto.ones / pypto.full in host code: module level, or a function that calls a jit kernel.",
    compiler="'RuntimeError: Errcode: F21003!' (func Operation) where the host code runs (on import at module level).",
    bad="ONES = pypto.ones([8, 16], dtype=pypto.DT_FP32)",
    fixed="ONES = torch.ones(8, 16)     # or pypto.ones(...) inside the kernel",
    rules=("host-tensor-creation",),
)
