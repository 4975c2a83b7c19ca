"""One edit per fixable code: the finding and its module in, the fixed module out (or None).

An edit only rewrites what it can prove from the text (a literal it replaces, a flag it adds);
anything else returns None and the finding stays for the user. Every edit keeps the line count,
so findings of other lines keep their positions. Whether the result is accepted is decided by
re-checking it (:mod:`.apply`).
"""

from __future__ import annotations

from typing import Final

from ..knowledge.codes import call_codes as call
from ..knowledge.codes import kernel_codes as kernel
from ..knowledge.codes import op_codes as op
from .cst_tools import Edit
from .dim_edits import not_concrete
from .host_edits import call_args, call_layout
from .kernel_edits import kernel_signature, matmul_k, no_method, reduce_align
from .move_edits import use_after_move
from .transpose_edits import transpose

EDITS: Final[dict[str, Edit]] = {
    op.TRANSPOSE.name: transpose,
    op.NO_METHOD.name: no_method,
    op.REDUCE_ALIGN.name: reduce_align,
    op.MATMUL_K.name: matmul_k,
    kernel.KERNEL_SIGNATURE.name: kernel_signature,
    kernel.USE_AFTER_MOVE.name: use_after_move,
    call.CALL_LAYOUT.name: call_layout,
    call.CALL_ARGS.name: call_args,
    op.NOT_CONCRETE.name: not_concrete,
}
# Host code, where a module may call a kernel without importing pypto itself.
HOST_CODES: Final = frozenset({call.CALL_LAYOUT.name, call.CALL_ARGS.name})
