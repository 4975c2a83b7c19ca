"""One edit per fixable code: the finding and its module in, the fixed module out (or None).

An edit only rewrites what it can prove from the text (a literal it replaces, a flag it adds);
anything else returns None and the finding stays for the user. Every edit keeps the line count,
so findings of other lines keep their positions. Whether the result is accepted is decided by
re-checking it (:mod:`.apply`).
"""

from __future__ import annotations

from typing import Final

from .cst_tools import Edit
from .dim_edits import not_concrete
from .host_edits import call_args, call_layout
from .kernel_edits import kernel_signature, matmul_k, no_method, reduce_align
from .move_edits import use_after_move
from .transpose_edits import transpose

EDITS: Final[dict[str, Edit]] = {
    "pypto-transpose": transpose,
    "pypto-no-method": no_method,
    "pypto-reduce-align": reduce_align,
    "pypto-matmul-k": matmul_k,
    "pypto-kernel-signature": kernel_signature,
    "pypto-use-after-move": use_after_move,
    "pypto-call-layout": call_layout,
    "pypto-call-args": call_args,
    "pypto-not-concrete": not_concrete,
}
# Host code, where a module may call a kernel without importing pypto itself.
HOST_CODES: Final = frozenset({"pypto-call-layout", "pypto-call-args"})
