"""A helper kernel as a module: plain helper functions, the jit kernel that calls them, and a
``run()`` host function with torch tensors (for ``helper_generator.py``).

The helpers run inside the kernel's trace (rule: helper-runs-in-the-trace), so the compiler's
marker for an op in a helper names the kernel's line that calls the outermost helper, while the
checker names the helper's op: ``trace_lines`` maps a helper's line onto the kernel lines that
reach it, through any chain of calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .generator import JIT, Case, _param_src
from .helper_tiles import Helper


@dataclass
class HelperCase(Case):
    helpers: list[Helper] = field(default_factory=list)  # in definition order
    main: list[str] = field(default_factory=list)  # the chain that runs the op, outermost first
    after_kernel: bool = False  # the helpers are defined after the kernel (called at trace time)
    host: list[str] = field(default_factory=list)  # body of run(): one call of the kernel
    plan: str = ""
    site: tuple[str, int] | None = None  # (function, body index) of the op meant to fail; None: meant to compile
    blame: int | None = None  # the kernel statement the compiler's marker is meant to name
    expect: str = "OK"  # the generator's prediction (not a verdict)
    # filled by render()
    lines_of: dict[str, list[int]] = field(default_factory=dict)  # function -> line of each statement
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)  # helper -> (def line, last line)
    kernel_calls: dict[str, set[int]] = field(default_factory=dict)  # helper -> kernel lines that reach it

    def render(self) -> str:
        lines = ["import pypto", "import torch"] + ([""] + self.pre if self.pre else [])
        self.lines_of, self.spans = {}, {}
        if not self.after_kernel:
            self._helpers(lines)
        lines += ["", "", JIT]
        lines.append(f"def {self.name}({', '.join(_param_src(n, s, d, self.ann) for n, s, d in self.params)}):")
        self.def_line = len(lines)
        self.stmt_lines, self.lines_of[self.name] = [], []
        for role, src in self.body:
            lines.append("    " + src)
            self.stmt_lines.append((len(lines), role, src))
            self.lines_of[self.name].append(len(lines))
        if self.after_kernel:
            self._helpers(lines)
        lines += ["", "", "def run() -> None:"] + ["    " + h for h in self.host] + [""]
        self.source = "\n".join(lines)
        self._reach()
        return self.source

    def _helpers(self, lines: list[str]) -> None:
        for h in self.helpers:
            lines += ["", "", f"def {h.name}({', '.join(h.params)}){h.ret}:"]
            start = len(lines)
            self.lines_of[h.name] = []
            for _, src in h.body:
                lines.append("    " + src)
                self.lines_of[h.name].append(len(lines))
            self.spans[h.name] = (start, len(lines))

    def _reach(self) -> None:
        """kernel_calls: the kernel lines calling each helper, then through the helpers' calls."""
        calls = {h.name: re.compile(rf"\b{h.name}\(") for h in self.helpers}
        reach = {n: {ln for ln, _, src in self.stmt_lines if pat.search(src)} for n, pat in calls.items()}
        for _ in self.helpers:  # a chain is at most as long as the helper list
            for h in self.helpers:
                for n, pat in calls.items():
                    if any(pat.search(src) for _, src in h.body):
                        reach[n] |= reach[h.name]
        self.kernel_calls = reach

    @property
    def call_lines(self) -> list[int]:
        """The kernel lines that call the outermost helper of the main chain."""
        return sorted(ln for ln, _, src in self.stmt_lines if re.search(rf"\b{self.main[0]}\(", src))

    def op_lines(self) -> list[int]:
        """Lines that may run an op (candidates for an error without a marker): the kernel's and
        every helper's statements except tile setters and list building."""
        out = [ln for ln, role, _ in self.stmt_lines if role not in ("tile", "cube", "list")]
        for h in self.helpers:
            out += [ln for ln, (role, _) in zip(self.lines_of[h.name], h.body) if role not in ("tile", "cube", "list")]
        return sorted(out)

    def trace_lines(self, line: int) -> set[int]:
        """A line inside a helper stands for the kernel lines that reach that helper (the
        compiler's marker names one of those); any other line for itself."""
        for name, (a, b) in self.spans.items():
            if a <= line <= b:
                return set(self.kernel_calls[name])
        return {line}

    @property
    def site_line(self) -> int | None:
        return None if self.site is None else self.lines_of[self.site[0]][self.site[1]]

    @property
    def blame_line(self) -> int | None:
        """The line the compiler's marker is meant to name for the site."""
        return None if self.blame is None else self.lines_of[self.name][self.blame]

    def host_call(self, module: str) -> str:
        return "\n".join(["import pypto", f"import {module} as m", "", "m.run()", 'print("ORACLE_OK", flush=True)', ""])
