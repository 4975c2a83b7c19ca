"""A finding: what every check returns (and a rule that cannot give a result raises)."""

from __future__ import annotations

from .codes import Code


class Finding(Exception):
    """A row of the code table, the message (naming the shapes, dtypes and byte counts involved)
    and a note with the fix. An exception too: a shape rule raises it when the op has no result
    (``Op.infer``), and the hook reports it and recovers. ``cause``: the root cause it shares with
    other findings of one kernel's trace that one fix removes together (``"vec-tile"``: no vec
    tile before several ops); only the first of them is reported, naming the others."""

    def __init__(self, code: Code, message: str, note: str | None = None, cause: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.note = note
        self.cause = cause

    def __reduce__(self) -> tuple[type[Finding], tuple[Code, str, str | None, str | None]]:
        # picklable: the guard's errors cross processes
        return Finding, (self.code, self.message, self.note, self.cause)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Finding) and (self.code, self.message, self.note) == (
            other.code, other.message, other.note)

    def __hash__(self) -> int:
        return hash((self.code.name, self.message, self.note))

    def __repr__(self) -> str:
        return f"Finding({self.code.name!r}, {self.message!r}, {self.note!r})"
