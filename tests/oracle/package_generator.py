"""Hypothesis strategies for package cases: the helper kernels of ``helper_generator.py`` (the same
plans, ops, tiles and bugs) laid out as a package (``package_case.py``):

- the helpers in one or two other modules (``ops.py``; ``blocks.py`` holds the outer part of a
  chain, calling into ``ops.py``), each reference written one of ``package_case.STYLES`` ways:
  ``from .ops import core``, ``from pkg.ops import core``, ``import pkg.ops as ops``, ``from . import
  ops``, ``import pkg.ops``, or re-exported through ``pkg/__init__.py`` (which imports pypto, or not);
- sometimes the helper the kernel calls is a method of a module-level object (``LAYOUT =
  Layout(...)`` in ``layout.py``, an ``__init__`` or a dataclass), which holds some of the
  literal arguments the kernel passed (``scale = self.scale`` in the method);
- the jit kernel in ``kernel.py``, its tensor parameters sometimes runtime-shaped
  (``pypto.Tensor([], DT)`` / ``pypto.Tensor()``: 0.2.0 traces it with the call's tensors, and the
  checker reports what those change at the host call);
- ``run()`` in ``host.py``: torch tensors built as ``host_generator.py`` builds them, one call.

The generator keeps the helper case's prediction (``expect``, the kernel line the compiler's
marker names, the op meant to fail): the compiler decides, the prediction pins the structure.
"""

from __future__ import annotations

import ast
import copy
import random
import re
from typing import Any

from hypothesis import strategies as st

from .helper_generator import HelperCase, helper_cases
from .helper_tiles import Helper
from .host_generator import _host_args
from .package_case import STYLES, PackageCase

TENSORS = ("x", "y", "gamma")
# Forms the checker does not follow yet, generated only with ``gaps=True`` (each has a package
# regression under ``packages/`` with a ``# checker: known gap`` header):
GAPS: dict[str, tuple[str, ...]] = {
    # traced code (a helper's module; a runtime-shaped kernel, traced from the host call) imports a
    # name re-exported by a package __init__ that imports no pypto: that module is not read (a
    # documented limit: no digest to invalidate on), so the name is unknown
    "reexport_unread_init": ("helper_reexported_by_an_init_without_pypto",),
    # host code calls another module's kernel where no call hook runs: in an unannotated function of
    # a module that imports no pypto (mypy skips its body)
    "imported_kernel_untyped_host": ("imported_kernel_called_in_untyped_function",),
}
GAP_PLANS: dict[str, str] = {}  # (none left: a tile another module's helper sets reaches the kernel)
# host constructs (host_generator.CONSTRUCTS) that call the kernel that way
GAP_CONSTRUCTS = {"caller_args": "imported_kernel_untyped_host"}
PAIRS = ("kernel>ops", "kernel>blocks", "kernel>layout", "blocks>ops", "layout>ops", "layout>blocks", "host>kernel")


def _calls(h: Helper, names: list[str]) -> list[str]:
    return [n for n in names if any(re.search(rf"(?<![\w.]){n}\(", s) for _, s in h.body)]


def chains(base: HelperCase) -> list[list[str]]:
    """The helper chains the kernel calls, outermost first (the main one and a sibling's setup)."""
    names = [h.name for h in base.helpers]
    by_name = {h.name: h for h in base.helpers}
    roots = [n for n in names if any(re.search(rf"(?<![\w.]){n}\(", s) for _, s in base.body)]
    out = []
    for root in roots:
        chain = [root]
        while True:
            nxt = _calls(by_name[chain[-1]], names)
            if not nxt or nxt[0] in chain:
                break
            chain.append(nxt[0])
        out.append(chain)
    return out


def _param_name(p: str) -> str:
    return p.split(":")[0].strip()


def _movable(base: HelperCase, root: Helper) -> list[tuple[str, str]]:
    """(parameter, literal) of the root helper that every kernel call passes as the same literal."""
    names = [_param_name(p) for p in root.params]
    seen: dict[str, set[str]] = {}
    for _, src in base.body:
        for call in _root_calls(src, root.name):
            given = {names[i]: a for i, a in enumerate(call.args) if i < len(names)}
            given.update({k.arg: k.value for k in call.keywords if k.arg})
            for p in names:
                v = given.get(p)
                text = ast.unparse(v) if v is not None else ""
                try:
                    ast.literal_eval(text)
                except (ValueError, SyntaxError):
                    text = ""
                seen.setdefault(p, set()).add(text)
    return [(p, next(iter(v))) for p, v in seen.items() if p not in TENSORS and len(v) == 1 and "" not in v]


def _root_calls(src: str, name: str) -> list[ast.Call]:
    tree = ast.parse(src)
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name]


def _as_method(src: str, root: Helper, moved: set[str]) -> str:
    """The kernel statement with its call of ``root`` made a call of ``LAYOUT.<root>``, without
    the arguments the object holds."""
    if not re.search(rf"(?<![\w.]){root.name}\(", src):
        return src
    names = [_param_name(p) for p in root.params]
    tree = ast.parse(src)
    for call in [n for n in ast.walk(tree) if isinstance(n, ast.Call)]:
        if isinstance(call.func, ast.Name) and call.func.id == root.name:
            call.args = [a for i, a in enumerate(call.args) if i >= len(names) or names[i] not in moved]
            call.keywords = [k for k in call.keywords if k.arg not in moved]
            call.func = ast.Attribute(ast.Name("LAYOUT", ast.Load()), root.name, ast.Load())
    return ast.unparse(tree)


@st.composite
def package_layout(draw: Any, base: HelperCase, gaps: bool = False) -> PackageCase:
    """``base`` laid out as a package (with ``gaps``, also in the forms of ``GAPS``)."""
    helpers = copy.deepcopy(base.helpers)
    home: dict[str, str] = {}
    two = draw(st.booleans())
    for chain in chains(base):
        # two modules: the outer part of a chain in blocks.py, calling into ops.py
        split = (draw(st.integers(1, len(chain) - 1)) if len(chain) > 1 else draw(st.integers(0, 1))) if two else 0
        for i, name in enumerate(chain):
            home[name] = "blocks" if i < split else "ops"
    for h in helpers:
        home.setdefault(h.name, "ops")
    body = list(base.body)
    method, moved, obj_form = "", [], "init"
    root = next(h for h in helpers if h.name == base.main[0])
    if draw(st.integers(0, 2)) == 0:
        method, home[root.name] = root.name, "layout"
        moved = [m for m in _movable(base, root) if draw(st.booleans())]
        obj_form = draw(st.sampled_from(["init", "dataclass"]))
        body = [(role, _as_method(src, root, {p for p, _ in moved})) for role, src in body]
    styles = {pair: draw(st.sampled_from(STYLES)) for pair in PAIRS}
    runtime = draw(st.booleans())
    init_pypto = draw(st.booleans())
    traced = [p for p in PAIRS if p.split(">")[0] in ("blocks", "layout") or runtime and p.startswith("kernel>")]
    unread = [p for p in traced if styles[p] == "reexport" and not init_pypto]
    if not gaps:
        for p in unread:
            styles[p] = draw(st.sampled_from([s for s in STYLES if s != "reexport"]))
    forms = ["static"] * len(base.params)
    if runtime:
        forms = [draw(st.sampled_from(["empty", "empty", "bare", "static"])) for _ in base.params]
        if all(f == "static" for f in forms):
            forms[draw(st.integers(0, len(forms) - 1))] = "empty"
    lines, args, _ = draw(_host_args(base.params))
    used = sorted({styles[p] for p in PAIRS if _pair_used(p, home, method)})
    gap_forms = ["reexport_unread_init"] if any(_pair_used(p, home, method) for p in unread) and gaps else []
    feats = dict(base.features, modules=len(set(home.values()) - {"layout"}), method=bool(method), moved=len(moved),
                 obj_form=obj_form if method else "", runtime=runtime, styles=used, init_pypto=init_pypto,
                 gaps=gap_forms)
    case = PackageCase("package-" + base.family.split("-", 1)[1], base.params, body, ann=base.ann, pre=list(base.pre),
                       features=feats, helpers=helpers, home=home, method=method, moved=moved, obj_form=obj_form,
                       styles=styles, init_pypto=init_pypto, forms=forms, host=lines + [f"k({', '.join(args)})"],
                       plan=base.plan, base_family=base.family, site=base.site, blame=base.blame, expect=base.expect)
    case.render()
    return case


def _pair_used(pair: str, home: dict[str, str], method: str) -> bool:
    me, other = pair.split(">")
    if me == "host":
        return True
    if other == "layout":
        return bool(method) and me == "kernel"
    return other in home.values() and (me == "kernel" or me in home.values())


@st.composite
def package_cases(draw: Any, gaps: bool = False) -> PackageCase:
    if draw(st.integers(0, 3)) == 0:  # the host generator's runtime-shaped kernels
        from .package_spec import spec_package

        spec: PackageCase = draw(spec_package())
        return spec
    base = draw(helper_cases())
    if not gaps:
        from hypothesis import assume

        assume(base.plan not in GAP_PLANS)
    case: PackageCase = draw(package_layout(base, gaps))
    case.features["gaps"] += [GAP_PLANS[base.plan]] if base.plan in GAP_PLANS else []
    return case


# Each kernel in turn: (family, plan) of the helper rotation, then the layout (runtime-shaped or
# static kernel, method or function, one or two helper modules), so every share has each.
ROTATION = [("package-vec", "kernel"), ("package-vec", "helper"), ("package-matmul", "kernel"),
            ("package-vec", "override"), ("package-vec", "kernel_after"), ("package-vec", "twice"),
            ("package-vec", "helper_after"), ("package-matmul", "helper"), ("package-vec", "sibling"),
            ("package-vec", "none"), ("package-matmul", "override"), ("package-vec", "helper"),
            ("package-matmul", "param"), ("package-vec", "kernel"), ("package-matmul", "none")]
ROTATION = [r for i, r in enumerate(ROTATION)
            for r in ([r, ("package-spec", "spec"), ("package-boundary", "")] if i % 3 == 2 else [r])]
LAYOUTS = [(False, False, 1), (True, False, 2), (False, True, 2), (True, True, 1), (True, False, 1),
           (False, False, 2)]  # (runtime, method, helper modules)


def _signature(c: PackageCase) -> tuple[Any, ...]:
    f = c.features
    return (c.family, c.plan, f["op"], f["dt"], f["levels"], c.expect, f["runtime"], f["method"], f["modules"],
            tuple(f["styles"]))


def generate_packages(n: int, seed: int = 0, gaps: bool = False) -> list[PackageCase]:
    """n distinct package cases, deterministic for a given seed (no database); the plans of
    ``GAP_PLANS`` only with ``gaps``."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    pool: dict[str, PackageCase] = {}

    @hseed(seed)
    @settings(max_examples=n * 5 + 40, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(package_cases(gaps))
    def collect(c: PackageCase) -> None:
        pool.setdefault(c.source, c)

    collect()
    left = list(pool.values())
    out: list[PackageCase] = []
    taken: set[tuple[Any, ...]] = set()
    from .host_generator import BOUNDARY, _collect
    from .package_spec import boundary_package

    rotation = [r for r in ROTATION if gaps or r[1] not in GAP_PLANS]
    # the boundary kinds in turn, each from its own pool (hypothesis would favour a few kinds)
    slots = [i for i in range(n) if rotation[i % len(rotation)][0] == "package-boundary"]
    kinds = [BOUNDARY[j % len(BOUNDARY)] for j in range(len(slots))]
    seen: set[str] = set(pool)
    boundary = {k: _collect(boundary_package(k), kinds.count(k), seed * 100 + j, seen)  # type: ignore[arg-type]
                for j, k in enumerate(dict.fromkeys(kinds))}
    for i in range(min(n, len(left))):
        family, plan = rotation[i % len(rotation)]
        if family == "package-boundary":
            found = boundary[kinds[slots.index(i)]]
            if found:
                out.append(found.pop(0))
                continue
            family, plan = "package-spec", "spec"
        runtime, method, mods = LAYOUTS[i % len(LAYOUTS)]

        def miss(c: PackageCase) -> tuple[Any, ...]:
            f = c.features
            return ((c.family, c.plan) != (family, plan), (f["runtime"], f["method"]) != (runtime, method),
                    f["modules"] != mods, _signature(c) in taken)

        best = min(range(len(left)), key=lambda j: (miss(left[j]), j))
        c = left.pop(best)
        taken.add(_signature(c))
        out.append(c)
    from .host_generator import CONSTRUCTS
    from .package_spec import with_host_construct

    constructs = [w for w in CONSTRUCTS if gaps or w not in GAP_CONSTRUCTS]
    host = 0
    for i, c in enumerate(out):
        c.features["index"] = i
        if c.kind != "helper":  # every share has each host construct (hypothesis favours the first)
            with_host_construct(c, constructs[host % len(constructs)], random.Random(seed * 100_003 + i))
            host += 1
            if c.features["construct"] in GAP_CONSTRUCTS:
                c.features["gaps"] = [*c.features["gaps"], GAP_CONSTRUCTS[c.features["construct"]]]
    return out


def mix(cases: list[PackageCase]) -> str:
    """What a share of package cases holds (layouts, styles, plans, meant verdicts)."""
    import collections

    count: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for c in cases:
        f = c.features
        count["plan"][c.plan] += 1
        count["meant"][c.expect or f"(no prediction: {c.kind})"] += 1
        count["helper modules"][str(f["modules"])] += 1
        count["levels"][str(f["levels"])] += 1
        if "construct" in f:
            count["host construct"][f["construct"]] += 1
        count["kernel"]["runtime-shaped" if f["runtime"] else "static"] += 1
        count["called helper"]["method of LAYOUT (" + f["obj_form"] + ")" if f["method"] else "function"] += 1
        count["__init__"]["imports pypto" if f["init_pypto"] else "no pypto"] += 1
        for s in f["styles"]:
            count["import styles"][s] += 1
    return "\n".join(f"{k}: " + ", ".join(f"{v} {n}" for v, n in sorted(c.items(), key=lambda kv: -kv[1]))
                     for k, c in count.items())
