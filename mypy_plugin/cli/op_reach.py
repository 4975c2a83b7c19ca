"""Which op calls a kernel reaches (its own, and its helpers' at any depth) and which of them
were checked, from what the op hooks recorded (``coverage.ops``): an op is *reached* when every
check that applies to it ran (each with the facts it decides on; :mod:`knowledge.checks.reads`);
``known`` counts the older, stricter measure (every input shape, dtype and tile known)."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from ..calls.coverage import REACHED, Collector, OpId, OpSeen


@dataclass(frozen=True)
class Unreached:
    path: str  # the op's module (a helper's may be another than the kernel's)
    line: int
    op: str
    reason: str  # why not every input shape and tile was known ("" when they were)
    skipped: tuple[tuple[str, str], ...] = ()  # (a check, the facts it missed)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "op": self.op, "reason": self.reason,
                "skipped": [{"check": check, "missing": missing} for check, missing in self.skipped]}

    def text(self) -> str:
        return "; ".join(f"{check} skipped, no {missing}" for check, missing in self.skipped)


@dataclass(frozen=True)
class Ops:
    total: int = 0
    reached: int = 0
    unreached: tuple[Unreached, ...] = ()
    known: int = 0  # with every input shape, dtype and tile known (the older measure)

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "reached": self.reached, "known": self.known,
                "unreached": [u.to_json() for u in self.unreached]}

    def text(self) -> list[str]:
        if not self.total:
            return []
        lines = [f"  ops: {self.reached} of {self.total} reached (every check ran), {self.known} with every "
                 "shape and tile known"]
        lines += [f"  {u.path}:{u.line}: {u.op}: {u.text()}" for u in self.unreached]
        return lines


def _helpers(collector: Collector, kernel: str) -> list[str]:
    """The helpers ``kernel`` calls, at any depth (breadth first, each once)."""
    seen: list[str] = []
    todo = sorted(collector.calls.get(kernel, ()))
    while todo:
        h = todo.pop(0)
        if h == kernel or h in seen:
            continue
        seen.append(h)
        todo.extend(sorted(collector.calls.get(h, ())))
    return seen


def ops_of(collector: Collector, kernel: str, shown: Callable[[str], str]) -> Ops:
    status: dict[OpId, OpSeen] = {}
    for helper in _helpers(collector, kernel):
        name = helper.rsplit(":", 1)[1]
        for op, seen in collector.ops.get(helper, {}).items():
            # Seen only in the helper's own pass: no call from this kernel gave it known tensors or
            # tiles (its checks may still have run with the helper's own annotations).
            status.setdefault(op, OpSeen(f"in {name}, not checked with this kernel's tensors or tiles",
                                         dict(seen.checks)))
    status.update(collector.ops.get(kernel, {}))
    unreached = tuple(
        Unreached(shown(op[0]), op[1], op[3], "" if seen.known == REACHED else seen.known,
                  tuple((check, ", ".join(missing)) for check, missing in seen.skipped))
        for op, seen in sorted(status.items()) if not seen.reached)
    known = sum(seen.known == REACHED for seen in status.values())
    return Ops(len(status), len(status) - len(unreached), unreached, known)
