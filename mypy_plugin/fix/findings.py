"""The checker's findings as records the fixer can act on: one mypy run, parsed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import mypy_output

_FLAGS = ("--show-column-numbers", "--show-error-end", "--show-error-codes", "--no-pretty", "--no-error-summary")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int  # 1-based, as mypy prints it
    end_line: int
    end_column: int
    code: str
    message: str
    notes: tuple[str, ...] = field(default=())

    @property
    def key(self) -> tuple[str, int, str]:
        """What identifies a finding across two runs of the same file: not its message, which
        names inferred shapes that a fix elsewhere may make known."""
        return (self.resolved_path, self.line, self.code)

    @property
    def resolved_path(self) -> str:
        return str(Path(self.path).resolve())


def parse(text: str) -> list[Finding]:
    """The errors of mypy's output (with their notes) that point at a line and column."""
    return [
        Finding(r.path, r.line, r.column, r.end_line or r.line, r.end_column or r.column, r.code or "", r.message,
                tuple(r.notes))
        for r in mypy_output.parse(text).records
        if r.severity == "error" and r.line is not None and r.column is not None
    ]


def collect(targets: Sequence[str], mypy_args: Sequence[str], shadows: Mapping[str, str] | None = None) -> list[Finding]:
    """Run the checker once; ``shadows`` maps a source path to a file whose text replaces it."""
    shadow_args = [arg for src, dst in (shadows or {}).items() for arg in ("--shadow-file", src, dst)]
    # Never from mypy's cache: it is keyed by module name, so a check of a copy of these files at
    # another path (same module names, same bytes) would be taken for them, with the copy's paths
    # in its findings (nothing to fix here). And mypy 2.4 validates a cached module by hashing
    # the original file, not its shadow: a shadow of the same size would be taken for the original.
    stdout, _stderr, _status, _twice = mypy_output.run([*_FLAGS, *mypy_args, *shadow_args, "--no-incremental",
                                                        *targets])
    return parse(stdout)
