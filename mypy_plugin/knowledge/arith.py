"""Integer arithmetic on dims and tile values, as Python evaluates it (for constant folding)."""

from __future__ import annotations


def fold(op: str, a: int, b: int) -> int | None:
    """``a <op> b`` for + - * // %; None for anything else or a division by zero."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "//":
        return a // b if b else None
    if op == "%":
        return a % b if b else None
    return None
