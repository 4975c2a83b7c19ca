"""The frontend's names: its decorators, and how host code (read with ``ast``) names a jit kernel."""

from __future__ import annotations

import ast
from typing import Final

JIT: Final = "pypto.frontend.jit"
FUNCTION: Final = "pypto.frontend.function"  # a helper called from kernels, not a kernel itself
KERNEL_DECORATORS: Final = frozenset({JIT})
DECORATORS: Final = frozenset({JIT, FUNCTION})  # the frontend's decorators: a kernel or a helper
JIT_DECORATOR_CALL: Final = "pypto.frontend._JitDecorator.__call__"  # ``@pypto.frontend.jit(...)``
JIT_KERNEL_TYPE: Final = "pypto.frontend._JitKernel"  # a jit kernel's function type (see hooks/kernel_calls.py)
# The runtime options 0.2.0 has (its options tree, ``pypto.get_options_tree()``, the ``runtime.`` keys):
# another key in ``runtime_options`` raises ``IndexError: map::at`` at the kernel's first call
# (rule: jit-runtime-options; probed with launch_sched_aicpu_num).
RUNTIME_OPTIONS: Final = frozenset({
    "device_sched_mode", "ready_on_host_tensors", "run_mode", "stitch_cfgcache_size", "stitch_function_inner_memory",
    "stitch_function_max_num", "stitch_function_num_initial", "stitch_function_num_step",
    "stitch_function_outcast_memory", "stitch_function_size", "triple_stream_sched", "valid_shape_optimize",
})
# ... of one whose calls 0.2.0 checks: ``debug_options={"runtime_debug_mode": 3}`` on the decorator
JIT_KERNEL_CHECKED_TYPE: Final = "pypto.frontend._JitKernelChecked"
DEBUG_MODE_CHECKS_CALLS: Final = 3  # pypto.frontend DebugMode.CHECKATTR
# Host code is read with ``ast`` before any name is resolved: a jit decorator is known by its last name.
_JIT_NAME: Final = JIT.rsplit(".", 1)[1]


def names_jit(decorator: ast.expr) -> bool:
    """``@...jit`` or ``@...jit(...)`` in Python's ``ast``."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, (ast.Name, ast.Attribute)) and (
        target.id if isinstance(target, ast.Name) else target.attr) == _JIT_NAME

