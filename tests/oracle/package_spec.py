"""Host packages. Spec packages: the runtime-shaped kernels of ``host_generator.spec_case`` (the op families of
``generator.py``: broadcasting, reductions, reshape, transpose, matmul, members PyPTO lacks ...,
with ``pypto.Tensor([], DT)`` / ``pypto.Tensor()`` parameters) laid out as packages: each op
statement of the kernel (one at least) moved into a helper of ``ops.py`` or ``blocks.py`` (``t =
op0(a, b)``, the helper returning the op's expression), sometimes through a second helper
(``blocks.run0`` calling ``ops.op0``), the first one sometimes a method of ``LAYOUT``; the kernel
in ``kernel.py``, ``run()`` with the host case's torch tensors in ``host.py``. The compiler
traces the kernel with the call's tensors, so its op errors (matmul-k, broadcast, axis, reshape
...) show only with them: the checker reports them at the host call. Boundary packages: the static
kernels of ``host_generator.boundary_case`` laid out the same way, called from host.py with good
or wrong tensors (shape, rank, dtype, layout, keyword, count, non-tensor: the ``pypto-call-*``
checks at the call of a kernel of another module; 0.2.0's silent runs confirmed by its check
mode, ``host_oracle.py``). No prediction: the compiler decides.
"""

from __future__ import annotations

import ast
import random
from typing import Any

from hypothesis import strategies as st

from .helper_tiles import Helper
from .host_generator import HostCase, _construct, boundary_case, spec_case
from .package_case import STYLES, PackageCase

PAIRS = ("kernel>ops", "kernel>blocks", "kernel>layout", "blocks>ops", "layout>ops", "layout>blocks", "host>kernel")


def _reads(expr: ast.expr, known: list[str]) -> list[str]:
    """The kernel names ``expr`` reads, in order of first use."""
    out: list[str] = []
    for n in ast.walk(expr):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in known and n.id not in out:
            out.append(n.id)
    return out


def _movable(src: str) -> tuple[str, ast.expr] | None:
    """(target source, the expression) of ``t = EXPR`` / ``out[:] = EXPR`` with an op in EXPR."""
    tree = ast.parse(src).body[0]
    if not isinstance(tree, ast.Assign) or len(tree.targets) != 1:
        return None
    if isinstance(tree.value, ast.Name) or any(isinstance(n, (ast.Lambda, ast.ListComp, ast.GeneratorExp))
                                               for n in ast.walk(tree.value)):
        return None
    return ast.unparse(tree.targets[0]), tree.value


@st.composite
def spec_package(draw: Any) -> PackageCase:
    return _laid_out(draw, draw(spec_case()), "package-spec", "spec")


@st.composite
def boundary_package(draw: Any, kind: str) -> PackageCase:
    """A static kernel of ``host_generator.boundary_case`` (its ``x + y`` op in a helper), called from
    host.py with good tensors or the boundary kind's wrong ones, the call wrapped in one of the host
    constructs (``host_generator.CONSTRUCTS``, given in turn by ``with_host_construct``)."""
    return _laid_out(draw, draw(boundary_case(kind)), "package-boundary", kind)


def with_host_construct(case: PackageCase, way: str, rng: random.Random) -> None:
    """Wrap the host call of a spec or boundary package in a host construct, and render it again."""
    lines, args, kw = case.parts
    case.host, case.call_index = _construct(rng, way, list(lines), case.name, args, kw)
    case.features["construct"] = way if case.call_index != -1 else "plain"
    case.render()


def _laid_out(draw: Any, base: HostCase, family: str, plan: str) -> PackageCase:
    names = [p for p, _, _ in base.params]
    tensors = {p for p, s, _ in base.params if s is not None}
    body: list[tuple[str, str]] = []
    helpers: list[Helper] = []
    home: dict[str, str] = {}
    calls: list[int] = []  # body indexes of the kernel's helper calls
    i = 0
    for role, src in base.body:
        found = _movable(src) if role in ("op", "write") else None
        if found is None or (helpers and draw(st.booleans())):
            body.append((role, src))
            if role == "op" and src.split(" =")[0].isidentifier():
                names.append(src.split(" =")[0])
                tensors.add(src.split(" =")[0])
            continue
        target, expr = found
        args = _reads(expr, names)
        params = [f"{a}: pypto.Tensor" if a in tensors and draw(st.booleans()) else a for a in args]
        inner = Helper(f"op{i}", params, [("op", f"return {ast.unparse(expr)}")])
        helpers.append(inner)
        home[inner.name] = draw(st.sampled_from(["ops", "blocks"]))
        callee = inner.name
        if draw(st.integers(0, 2)) == 0:  # a second level: blocks.run0 calls ops.op0
            home[inner.name] = "ops"
            outer = Helper(f"run{i}", list(args), [("call", f"return {inner.name}({', '.join(args)})")])
            helpers.append(outer)
            home[outer.name] = "blocks"
            callee = outer.name
        calls.append(len(body))
        body.append((role, f"{target} = {callee}({', '.join(args)})"))
        if role == "op" and target.isidentifier():
            names.append(target)
            tensors.add(target)
        i += 1
    method = ""
    first = body[calls[0]][1]
    root = first.split(" = ", 1)[1].split("(")[0]
    if draw(st.integers(0, 3)) == 0 and sum(root + "(" in s for _, s in body) == 1:
        method, home[root] = root, "layout"
        body[calls[0]] = (body[calls[0]][0], first.replace(f"{root}(", f"LAYOUT.{root}(", 1))
    styles = {pair: draw(st.sampled_from(STYLES)) for pair in PAIRS}
    if not draw(st.booleans()):  # reexports in traced code need a package __init__ it reads
        styles = {p: ("rel" if s == "reexport" and not p.startswith("host") else s) for p, s in styles.items()}
        init_pypto = False
    else:
        init_pypto = True
    helpers = [h for h in helpers if home[h.name] == "ops"] + [h for h in helpers if home[h.name] != "ops"]
    from .package_generator import _pair_used

    used = sorted({styles[p] for p in PAIRS if _pair_used(p, home, method)})
    feats = dict(base.features, modules=len(set(home.values()) - {"layout"}), method=bool(method), moved=0,
                 obj_form=draw(st.sampled_from(["init", "dataclass"])) if method else "",
                 runtime=any(f != "static" for f in base.forms),
                 styles=used, init_pypto=init_pypto, gaps=[], op=base.family, dt="", levels=1 + any(
                     h.name.startswith("run") for h in helpers))
    case = PackageCase(family, base.params, body, ann=base.ann, pre=list(base.pre),
                       out_mismatch=base.out_mismatch, features=feats, helpers=helpers, home=home, method=method,
                       obj_form=feats["obj_form"] or "init", styles=styles, init_pypto=init_pypto,
                       forms=list(base.forms), host=list(base.host), call_index=base.call_index, plan=plan,
                       base_family=base.family, kind=base.kind, parts=base.parts)
    case.render()
    return case
