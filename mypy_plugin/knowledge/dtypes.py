"""PyPTO data types and their byte sizes (as pypto.bytes_of reports them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

DTypeKind = Literal["int", "uint", "float", "bool", "sentinel"]


@dataclass(frozen=True)
class DType:
    name: str  # "DT_FP32"
    nbytes: int  # what pypto.bytes_of reports (4-bit types report 1)
    kind: DTypeKind

    @property
    def short(self) -> str:
        """'fp32' for messages."""
        return self.name[3:].lower()


_TABLE: Final = (
    DType("DT_INT4", 1, "int"),
    DType("DT_INT8", 1, "int"),
    DType("DT_INT16", 2, "int"),
    DType("DT_INT32", 4, "int"),
    DType("DT_INT64", 8, "int"),
    DType("DT_FP8", 1, "float"),
    DType("DT_FP16", 2, "float"),
    DType("DT_FP32", 4, "float"),
    DType("DT_BF16", 2, "float"),
    DType("DT_HF4", 1, "float"),
    DType("DT_HF8", 1, "float"),
    DType("DT_UINT8", 1, "uint"),
    DType("DT_UINT16", 2, "uint"),
    DType("DT_UINT32", 4, "uint"),
    DType("DT_UINT64", 8, "uint"),
    DType("DT_BOOL", 1, "bool"),
    DType("DT_DOUBLE", 8, "float"),
    DType("DT_FP8E5M2", 1, "float"),
    DType("DT_FP8E4M3", 1, "float"),
    DType("DT_FP8E8M0", 1, "float"),
    DType("DT_FP4_E2M1X2", 1, "float"),
    DType("DT_FP4_E1M2X2", 1, "float"),
    DType("DT_BOTTOM", 0, "sentinel"),
)

DTYPES: Final[dict[str, DType]] = {d.name: d for d in _TABLE}

FP32: Final = "DT_FP32"
FP16: Final = "DT_FP16"
INT32: Final = "DT_INT32"
BOOL: Final = "DT_BOOL"

# The hardware block every reduction tile must fill (C++ BLOCK_SIZE).
BLOCK_BYTES: Final = 32


def nbytes(name: str) -> int | None:
    d = DTYPES.get(name)
    return d.nbytes if d is not None and d.nbytes > 0 else None


def elements_per_block(name: str) -> int | None:
    """How many elements of this dtype fill a 32-byte block (8 for fp32, 16 for fp16)."""
    n = nbytes(name)
    return BLOCK_BYTES // n if n else None
