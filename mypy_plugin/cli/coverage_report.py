"""``--coverage``: every kernel with how it was checked, and a summary line (text and JSON)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any

from ..calls.coverage import Collector, Kernel
from .op_reach import Ops, ops_of


@dataclass(frozen=True)
class Entry:
    kernel: str  # "path:line:name"
    checked: str  # "declared" | "call-sites" | "unknown"
    call_sites: int
    reason: str
    ops: Ops = field(default_factory=Ops)
    # module constants a dim or tile of the kernel needed and mypy keeps no value of ("consts.TILE_C")
    unread: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = {"kernel": self.kernel, "checked": self.checked, "call_sites": self.call_sites, "reason": self.reason,
               "ops": self.ops.to_json()}
        if self.unread:
            out["unread_constants"] = list(self.unread)
        return out

    def text(self) -> list[str]:
        path, line, name = self.kernel.rsplit(":", 2)
        if self.checked == "declared":
            how = "declared shapes"
        elif self.checked == "call-sites":
            how = f"the tensors of {self.call_sites} call site{'s' if self.call_sites != 1 else ''}"
        else:
            return [f"{path}:{line}: kernel {name}: shapes unknown ({self.reason})", *self.ops.text(),
                    *map(_unread_line, self.unread)]
        return [f"{path}:{line}: kernel {name}: checked with {how}", *self.ops.text(), *map(_unread_line, self.unread)]


def _unread_line(fullname: str) -> str:
    module, _, name = fullname.rpartition(".")
    return (f"  {fullname}: a module constant whose value mypy does not keep (a plain int of a module that does "
            f"not mention pypto, or one bound more than once): its value is not read; declare it "
            f"`{name}: Final = ...` in {module}")


def _why_no_sites(k: Kernel) -> str:
    parts = []
    if k.unproven_calls:
        why = f" ({'; '.join(k.unproven_why)})" if k.unproven_why else ""
        parts.append(f"{k.unproven_calls} call(s) in its module whose tensors the host code does not prove{why}")
    if k.rejected_calls:
        parts.append(f"{k.rejected_calls} call(s) in its module with a pypto-call-* finding that stops the "
                     "trace (the call fails at run time, or its tensors do not fit the kernel's ranks or symbols)")
    if k.calls_elsewhere:
        parts.append(f"{k.calls_elsewhere} call(s) in other modules whose tensors the host code does not prove "
                     "(a call it proves traces the kernel with them)")
    return "; ".join(parts) if parts else "no call in the checked files"


def shown_path(path: str) -> str:
    """A path as mypy's messages write it: normalized (``./k.py`` is ``k.py``), relative to the
    working directory when it is inside it (mypy's ``Errors.simplify_path``)."""
    path = os.path.normpath(path)
    prefix = os.path.join(os.getcwd(), "")
    return path[len(prefix):] if path.startswith(prefix) else path


def entries(collector: Collector) -> list[Entry]:
    out = []
    for k in sorted(collector.kernels.values(), key=lambda k: (shown_path(k.path), k.line, k.name)):
        if k.unknown is None:
            continue  # defined outside the checked files
        ops = ops_of(collector, k.key, shown_path)
        k = replace(k, path=shown_path(k.path))
        unread = tuple(sorted(collector.unread.get(k.fullname, ())))
        if not k.unknown:  # every call whose tensors are known was checked against the annotations
            out.append(Entry(k.key, "declared", len(k.call_sites) + k.known_elsewhere, "", ops, unread))
        elif k.call_sites:
            out.append(Entry(k.key, "call-sites", len(k.call_sites), "; ".join(k.unknown), ops, unread))
        else:
            out.append(Entry(k.key, "unknown", 0, f"{'; '.join(k.unknown)}; {_why_no_sites(k)}", ops, unread))
    return out


def summary(found: list[Entry]) -> str:
    n = len(found)
    declared = sum(e.checked == "declared" for e in found)
    sites = sum(e.checked == "call-sites" for e in found)
    concrete = declared + sites
    share = f"{100 * concrete / n:.0f}%" if n else "-"
    total = sum(e.ops.total for e in found)
    reached = sum(e.ops.reached for e in found)
    known = sum(e.ops.known for e in found)
    return (f"coverage: {n} kernel{'s' if n != 1 else ''}: {declared} with declared shapes, {sites} with "
            f"call-site shapes, {n - concrete} unknown ({concrete} of {n} = {share} checked with concrete shapes); "
            f"ops: {reached} of {total} = {_share(reached, total)} reached (every check that applies ran), "
            f"{known} = {_share(known, total)} with every shape and tile known")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def text(found: list[Entry]) -> list[str]:
    return [line for e in found for line in e.text()] + [summary(found)]
