"""Which op calls a kernel reaches (its own, and its helpers' at any depth) and which of them
were checked with known shapes and tiles, from what the op hooks recorded (``coverage.ops``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..calls.coverage import REACHED, Collector, OpId


@dataclass(frozen=True)
class Unreached:
    line: int
    op: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "op": self.op, "reason": self.reason}


@dataclass(frozen=True)
class Ops:
    total: int = 0
    reached: int = 0
    unreached: tuple[Unreached, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "reached": self.reached, "unreached": [u.to_json() for u in self.unreached]}

    def text(self, path: str) -> list[str]:
        if not self.total:
            return []
        lines = [f"  ops: {self.reached} of {self.total} checked with known shapes and tiles"]
        lines += [f"  {path}:{u.line}: {u.op}: {u.reason}" for u in self.unreached]
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


def ops_of(collector: Collector, kernel: str) -> Ops:
    status: dict[OpId, str] = {}
    for helper in _helpers(collector, kernel):
        name = helper.rsplit(":", 1)[1]
        for op in collector.ops.get(helper, {}):
            # Seen only in the helper's own pass: no call from this kernel gave it known tensors or tiles.
            status.setdefault(op, f"in {name}, not checked with this kernel's tensors or tiles")
    status.update(collector.ops.get(kernel, {}))
    unreached = tuple(Unreached(op[1], op[3], why) for op, why in sorted(status.items()) if why != REACHED)
    return Ops(len(status), len(status) - len(unreached), unreached)
