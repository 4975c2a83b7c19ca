"""A generated kernel laid out as a package (for ``package_generator.py``): its helpers in one or
two other modules (``ops.py``, ``blocks.py``), the helper the kernel calls sometimes a method of a
module-level object (``LAYOUT`` in ``layout.py``), the jit kernel in ``kernel.py`` and the host
call (``run()`` with torch tensors) in ``host.py``; ``__init__.py`` re-exports what the modules
import through it. Each reference to another module is written in one of ``STYLES``.

Lines live in several files, so a location is one int: ``loc(file, line)``, the kernel module's
lines being plain line numbers (what ``compare.compare_one`` compares). The compiler's marker names
a kernel line (rule: helper-runs-in-the-trace: the kernel statement that reaches the helper); the
checker reports in the kernel module (a static kernel), at the host call with a note naming the
kernel line (a kernel traced with the call's tensors), or in a helper's module (what the helper
gives whatever the call): :meth:`PackageCase.trace_lines` maps each onto the kernel lines.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from .generator import JIT, Case, _param_src
from .helper_tiles import Helper

FILES = ("kernel.py", "host.py", "ops.py", "blocks.py", "layout.py", "__init__.py")
ORDER = ("ops", "blocks", "layout", "kernel", "host")  # a module imports only modules before it
SPAN = 100_000
# how a module reaches a name of another module: (import statement, prefix of the name at its use)
STYLES = ("rel", "abs", "alias", "pkg_mod", "full", "reexport")


def loc(file: str, line: int) -> int:
    """One int for a line of a file of the package (the kernel module's lines are themselves)."""
    base = os.path.basename(file)
    return (FILES.index(base) if base in FILES else len(FILES)) * SPAN + line


def where(location: int) -> str:
    i, line = divmod(location, SPAN)
    return f"{FILES[i] if i < len(FILES) else '?'}:{line}"


def import_lines(pkg: str, mod: str, names: list[str], style: str) -> tuple[list[str], str]:
    """The import statement of ``names`` of module ``mod`` in ``style``, and the prefix of each use."""
    joined = ", ".join(names)
    if style == "rel":
        return [f"from .{mod} import {joined}"], ""
    if style == "abs":
        return [f"from {pkg}.{mod} import {joined}"], ""
    if style == "alias":
        return [f"import {pkg}.{mod} as {mod}"], f"{mod}."
    if style == "pkg_mod":
        return [f"from . import {mod}"], f"{mod}."
    if style == "full":
        return [f"import {pkg}.{mod}"], f"{pkg}.{mod}."
    return [f"from {pkg} import {joined}"], ""  # reexport: __init__ imports them from their module


@dataclass
class PackageCase(Case):
    helpers: list[Helper] = field(default_factory=list)
    home: dict[str, str] = field(default_factory=dict)  # helper -> module ("ops" | "blocks" | "layout")
    method: str = ""  # the helper made a method of LAYOUT (in layout.py)
    moved: list[tuple[str, str]] = field(default_factory=list)  # (parameter, literal) the object holds
    obj_form: str = "init"  # "init" | "dataclass"
    styles: dict[str, str] = field(default_factory=dict)  # "importer>imported" -> style
    init_pypto: bool = False  # __init__.py imports pypto
    forms: list[str] = field(default_factory=list)  # per parameter: "static" | "empty" | "bare"
    host: list[str] = field(default_factory=list)  # body of run(), calling k(...)
    call_index: int = -1
    plan: str = ""
    base_family: str = ""
    site: tuple[str, int] | None = None
    blame: int | None = None
    expect: str = ""  # the generator's prediction ("" when it makes none)
    pkg: str = "pkg"  # the package's name (the folder it is written as)
    kind: str = "helper"  # "helper" | "spec" | "boundary" (host_oracle checks a boundary call's silent run)
    parts: tuple[list[str], list[str], list[str]] = ([], [], [])  # host: tensor bindings, positional, keywords
    # filled by render()
    files: dict[str, str] = field(default_factory=dict)
    spans: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # function -> (file, def, last line)
    lines_of: dict[str, list[int]] = field(default_factory=dict)  # function -> locations of its statements
    kernel_calls: dict[str, set[int]] = field(default_factory=dict)  # helper -> kernel lines reaching it
    call_line: int = 0  # location of the host call

    # --- rendering ---------------------------------------------------------------------------

    def render(self, pkg: str = "") -> str:
        self.pkg = pkg or self.pkg
        exports: dict[str, list[str]] = {}
        self.files, self.spans, self.lines_of = {}, {}, {}
        for mod in ("ops", "blocks"):
            if any(self.home[h.name] == mod for h in self.helpers):
                self.files[f"{mod}.py"] = self._helper_module(mod, exports)
        if self.method:
            self.files["layout.py"] = self._layout_module(exports)
        self.files["kernel.py"] = self._kernel_module(exports)
        self.files["host.py"] = self._host_module(exports)
        init = ["import pypto", ""] if self.init_pypto else []
        for mod in ORDER:
            if exports.get(mod):
                init.append(f"from .{mod} import {', '.join(sorted(set(exports[mod])))}")
        self.files["__init__.py"] = "\n".join(init) + ("\n" if init else "")
        self._reach()
        self.source = "\n".join(f"# ---- {name}\n{text}" for name, text in self.files.items())
        return self.source

    def _refs(self, me: str, code: list[str]) -> dict[str, list[str]]:
        """module -> the names of it that ``code`` (of module ``me``) uses."""
        out: dict[str, list[str]] = {}
        for h in self.helpers:
            mod = self.home[h.name]
            if mod != me and h.name != self.method and any(re.search(rf"(?<![\w.]){h.name}\(", c) for c in code):
                out.setdefault(mod, []).append(h.name)
        if me != "layout" and self.method and any(re.search(r"(?<![\w.])LAYOUT\.", c) for c in code):
            out.setdefault("layout", []).append("LAYOUT")
        if me == "host":
            out["kernel"] = [self.name]
        return out

    def _header(self, me: str, code: list[str], exports: dict[str, list[str]]) -> tuple[list[str], list[str]]:
        """The module's imports and constants, and ``code`` with each use of another module's name
        written as its style says."""
        lines = ["import torch"] if me == "host" else ["import pypto"]
        refs = self._refs(me, code)
        for mod in sorted(refs, key=ORDER.index):
            style = self.styles.get(f"{me}>{mod}", "rel")
            imp, prefix = import_lines(self.pkg, mod, refs[mod], style)
            lines += imp
            if style == "reexport":
                exports.setdefault(mod, []).extend(refs[mod])
            for name in refs[mod]:
                pat = rf"(?<![\w.]){name}\(" if name not in ("LAYOUT",) else r"(?<![\w.])LAYOUT\."
                code = [re.sub(pat, lambda m: prefix + m.group(0), c) for c in code]
        consts = [c for c in self.pre if any(re.search(rf"\b{c.split(' =')[0]}\b", s) for s in code)]
        return lines + ([""] + consts if consts else []), code

    def _helper_module(self, mod: str, exports: dict[str, list[str]]) -> str:
        mine = [h for h in self.helpers if self.home[h.name] == mod]
        head, code = self._header(mod, [s for h in mine for _, s in h.body], exports)
        lines = list(head)
        i = 0
        for h in mine:
            lines += ["", "", f"def {h.name}({', '.join(h.params)}){h.ret}:"]
            start = len(lines)
            self.lines_of[h.name] = []
            for _ in h.body:
                lines.append("    " + code[i])
                i += 1
                self.lines_of[h.name].append(loc(f"{mod}.py", len(lines)))
            self.spans[h.name] = (f"{mod}.py", start, len(lines))
        return "\n".join(lines) + "\n"

    def _layout_module(self, exports: dict[str, list[str]]) -> str:
        h = next(x for x in self.helpers if x.name == self.method)
        own = [f"{p} = self.{p}" for p, _ in self.moved]
        head, code = self._header("layout", own + [s for _, s in h.body], exports)
        attrs = self.moved or [("heads", "8")]
        lines = list(head)
        if self.obj_form == "dataclass":
            lines[1:1] = ["from dataclasses import dataclass"]
            lines += ["", "", "@dataclass", "class Layout:"]
            lines += [f"    {p}: {_kind(v)}" + (" = 8" if not self.moved else "") for p, v in attrs]
        else:
            lines += ["", "", "class Layout:", f"    def __init__(self, {', '.join(p for p, _ in attrs)}):"]
            lines += [f"        self.{p} = {p}" for p, _ in attrs]
        params = ", ".join(["self"] + [p for p in h.params if p.split(":")[0] not in {m for m, _ in self.moved}])
        lines += ["", f"    def {h.name}({params}){h.ret}:"]
        start = len(lines)
        lines += ["        " + c for c in code]
        self.lines_of[h.name] = [loc("layout.py", n) for n in range(start + 1 + len(own), len(lines) + 1)]
        self.spans[h.name] = ("layout.py", start, len(lines))
        args = "" if self.obj_form == "dataclass" and not self.moved else ", ".join(v for _, v in attrs)
        lines += ["", "", f"LAYOUT = Layout({args})"]
        return "\n".join(lines) + "\n"

    def _kernel_module(self, exports: dict[str, list[str]]) -> str:
        head, code = self._header("kernel", [s for _, s in self.body], exports)
        lines = head + ["", "", JIT]
        sig = ", ".join(_kernel_param(p, f, self.ann) for p, f in zip(self.params, self.forms))
        lines.append(f"def {self.name}({sig}):")
        self.def_line = len(lines)
        self.stmt_lines, self.lines_of[self.name] = [], []
        for (role, _), src in zip(self.body, code):
            lines.append("    " + src)
            self.stmt_lines.append((len(lines), role, src))
            self.lines_of[self.name].append(len(lines))
        return "\n".join(lines) + "\n"

    def _host_module(self, exports: dict[str, list[str]]) -> str:
        style = self.styles.get("host>kernel", "rel")
        imp, prefix = import_lines(self.pkg, "kernel", [self.name], style)
        if style == "reexport":
            exports.setdefault("kernel", []).append(self.name)
        # every reference to the kernel, a call or a value (dict_kernel: {'j': k, 'k': k}), not a key
        body = [re.sub(rf"(?<![\w.'\"]){self.name}(?![\w'\"])", prefix + self.name, h) for h in self.host]
        lines = ["import torch", *imp, "", "", "def run() -> None:"]
        self.call_line = loc("host.py", len(lines) + 1 + (self.call_index % len(body)))
        lines += ["    " + b for b in body]
        return "\n".join(lines) + "\n"

    def _reach(self) -> None:
        """kernel_calls: the kernel lines calling each helper, then through the helpers' calls."""
        calls = {h.name: re.compile(rf"\b{h.name}\(") for h in self.helpers}
        reach = {n: {ln for ln, _, src in self.stmt_lines if pat.search(src)} for n, pat in calls.items()}
        for _ in self.helpers:
            for h in self.helpers:
                for n, pat in calls.items():
                    if any(pat.search(src) for _, src in h.body):
                        reach[n] |= reach[h.name]
        self.kernel_calls = reach

    # --- what the runner and the comparison ask ----------------------------------------------

    def write(self, workdir: str, mod: str) -> str:
        """Writes the package as the folder ``mod`` of ``workdir``; returns the folder."""
        self.render(mod)
        root = os.path.join(workdir, mod)
        os.makedirs(root, exist_ok=True)
        for name, text in self.files.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        return root

    def host_call(self, module: str, debug3: bool = False) -> str:
        """Driver: runs host.py's run() (debug3: with 0.2.0's own argument check, runtime_debug_mode=3)."""
        mode = ["import pypto", "pypto.set_debug_options(runtime_debug_mode=3)"] if debug3 else []
        return "\n".join([*mode, f"import {module}.host as h", "", "h.run()", 'print("ORACLE_OK", flush=True)', ""])

    def op_lines(self) -> list[int]:
        """The kernel's statements that may run an op (a marker-less rejection sits on one)."""
        return [ln for ln, role, _ in self.stmt_lines if role not in ("tile", "cube", "list")]

    def trace_lines(self, line: int) -> set[int]:
        """The kernel lines a location stands for: a line of a helper (or of the method) the
        kernel lines that reach it, any other location itself."""
        name, at = divmod(line, SPAN)
        file = FILES[name] if name < len(FILES) else ""
        for helper, (f, a, b) in self.spans.items():
            if f == file and a <= at <= b and helper in self.kernel_calls:
                return set(self.kernel_calls[helper])
        return {line}

    @property
    def site_line(self) -> int | None:
        return None if self.site is None else self.lines_of[self.site[0]][self.site[1]]

    @property
    def blame_line(self) -> int | None:
        return None if self.blame is None else self.lines_of[self.name][self.blame]


def _kind(value: str) -> str:
    """The field annotation of a literal the object holds."""
    return "list[int]" if value.startswith("[") else "float" if "." in value or "e" in value else "int"


def _kernel_param(p: tuple[str, object, str], form: str, ann: str) -> str:
    name, shape, dt = p
    if shape is None or form == "static":
        return _param_src(name, shape, dt, ann)
    return f"{name}: pypto.Tensor([], pypto.DT_{dt})" if form == "empty" else f"{name}: pypto.Tensor()"
