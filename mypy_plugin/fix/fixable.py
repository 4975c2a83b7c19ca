"""The codes ``--fix`` has an edit for (the keys of :data:`.edits.EDITS`), named without importing
the edits: they are built on libcst, which a plain check (and its option parsing) never needs."""

from __future__ import annotations

from typing import Final

from ..knowledge.codes import call_codes as call
from ..knowledge.codes import kernel_codes as kernel
from ..knowledge.codes import op_codes as op

FIXABLE: Final = tuple(sorted((
    op.TRANSPOSE.name, op.NO_METHOD.name, op.REDUCE_ALIGN.name, op.MATMUL_K.name, kernel.KERNEL_SIGNATURE.name,
    kernel.USE_AFTER_MOVE.name, call.CALL_LAYOUT.name, call.CALL_ARGS.name, op.NOT_CONCRETE.name,
)))
