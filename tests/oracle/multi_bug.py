"""Kernels with two or three independent bugs: is every one reported in one run?

A case is a valid kernel, a chain of realistic steps on one ``[M, N]`` tensor (members PyPTO
lacks and their functional forms, a cast-add of a second input, transpose, reductions under their
own vec tile), plus two or three *bug sites*. A site is one statement with a buggy form whose
recovered type is the good form's, so later steps see the same tensor either way (the checker's
error recovery, not the generator, decides whether later bugs stay visible).

Line numbers never move: a variant replaces statements one for one. The compiler judges the base
(must compile) and each *single* variant, the base with one site buggy (must be rejected: the bug
is confirmed alone). The checker judges the base, the singles and the *merged* kernel with every
site buggy. Agreement (:func:`compare_multi`):
- base and singles agree with the compiler by the one-bug rules (:func:`compare.compare_one`);
- the merged kernel gets every finding the singles got for their bug (code and line), and no
  finding that no single got (no cascade, no root cause reported twice).
"""

from __future__ import annotations

import concurrent.futures as cf
import re
import tempfile
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import strategies as st

from . import compare
from .generator import Case
from .runner import CheckerError, CompilerVerdict, run_checker, run_compiler, write_cases

# (M, N) with M * N small enough for the UB; N == M allows a transpose step.
SHAPES = [(8, 32), (8, 64), (16, 32), (16, 64), (32, 64), (8, 128), (16, 16), (32, 32)]
BYTES = {"FP32": 4, "FP16": 2}
OTHER = {"FP32": "FP16", "FP16": "FP32"}
HALF_MEMBER = {"FP32": "float", "FP16": "half"}


@dataclass
class Site:
    index: int  # position in the base body
    bad: str  # the statement's buggy source
    kind: str  # what the bug is, for the report


@dataclass
class MultiCase:
    base: Case
    sites: list[Site]

    def variant(self, sites: list[Site], suffix: str) -> Case:
        body = list(self.base.body)
        for s in sites:
            body[s.index] = (body[s.index][0], s.bad)
        return replace(self.base, body=body, features={**self.base.features, "variant": suffix},
                       stmt_lines=[], source="")

    def singles(self) -> list[Case]:
        return [self.variant([s], f"only {s.kind}") for s in self.sites]

    def merged(self) -> Case:
        return self.variant(self.sites, "merged")

    def summary(self) -> str:
        return ", ".join(s.kind for s in self.sites)


# --- steps: (body statements, bug sites as (offset in the step, [(bad source, kind), ...])) ------

Step = tuple[list[tuple[str, str]], list[tuple[int, list[tuple[str, str]]]]]

MEMBER_STEPS = {  # name: (good, bad), {v} the input, {t} the result
    "abs": ("{t} = pypto.abs({v})", "{t} = {v}.abs()"),
    "neg": ("{t} = pypto.neg({v})", "{t} = {v}.neg()"),
    "pow": ("{t} = pypto.pow({v}, 2.0)", "{t} = {v}.pow(2.0)"),
    "square": ("{t} = {v} * {v}", "{t} = {v}.square()"),
    "clip": ("{t} = pypto.clip({v}, -1.0, 1.0)", "{t} = {v}.clamp(-1.0, 1.0)"),
}


@st.composite
def step(draw: Any, i: int, v: str, dt: str, m: int, n: int, tile: tuple[int, int]) -> Step:
    t = f"t{i}"
    kinds = ["member", "member", "cast_add", "reduce", "reduce", "scale", "exp", "where"] + (["transpose"] if m == n else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "member":
        name = draw(st.sampled_from(sorted(MEMBER_STEPS)))
        good, bad = (s.format(t=t, v=v) for s in MEMBER_STEPS[name])
        return [("op", good)], [(0, [(bad, f"{name} member")])]
    if kind == "cast_add":
        bads = [(f"{t} = {v} + h", "add without cast"),
                (f"{t} = {v} + h.{HALF_MEMBER[dt]}()", f"{HALF_MEMBER[dt]} member")]
        return [("op", f"{t} = {v} + pypto.cast(h, pypto.DT_{dt})")], [(0, bads)]
    if kind == "transpose":
        return [("op", f"{t} = pypto.transpose({v}, 0, 1)")], [(0, [(f"{t} = {v}.T", ".T")])]
    if kind == "scale":
        return [("op", f"{t} = {v} * 0.5")], [(0, [(f"{t} = (lambda: {v} * 0.5)()", "lambda reads a kernel name")])]
    if kind == "exp":
        return [("op", f"{t} = pypto.exp({v})")], []
    if kind == "where":
        bad = f"c{i} = {v} > 0"
        return ([("op", f"c{i} = {v} > 0.0"), ("op", f"{t} = pypto.where(c{i}, {v}, 0.0)")],
                [(0, [(bad, "compare with an int")])])
    red = draw(st.sampled_from(["sum", "amax"]))
    align = 32 // BYTES[dt]
    short = [w for w in (align // 2, align + align // 2, align // 4) if 0 < w < n and w % align]
    tile_bads = [(f"pypto.set_vec_tile_shapes({tile[0]}, {w})", f"{red} tile {w * BYTES[dt]} bytes") for w in short]
    sites: list[tuple[int, list[tuple[str, str]]]] = [(0, tile_bads)]
    if red == "sum":
        sites.append((1, [(f"r{i} = {v}.mean(-1, keepdim=True)", "mean member")]))
    body = [("tile", f"pypto.set_vec_tile_shapes({tile[0]}, {tile[1]})"),
            ("op", f"r{i} = {v}.{red}(-1, keepdim=True)"),
            ("op", f"{t} = {v} - r{i}")]
    return body, sites


@st.composite
def multi_cases(draw: Any) -> MultiCase:
    dt = draw(st.sampled_from(["FP32", "FP32", "FP16"]))
    m, n = draw(st.sampled_from(SHAPES))
    align = 32 // BYTES[dt]
    tn = draw(st.sampled_from([w for w in (align, 2 * align, 4 * align) if w <= n] or [n]))
    tile = (min(m, draw(st.sampled_from([4, 8, 16]))), tn)
    body: list[tuple[str, str]] = [("tile", f"pypto.set_vec_tile_shapes({tile[0]}, {tile[1]})")]
    # per step, its sites: alternatives (a sum turned mean has no sum tile left to misalign)
    candidates: list[list[tuple[int, list[tuple[str, str]]]]] = []
    v = "x"
    n_steps = draw(st.integers(3, 6))
    for i in range(1, n_steps + 1):
        stmts, sites = draw(step(i, v, dt, m, n, tile))
        if sites:
            candidates.append([(len(body) + off, bads) for off, bads in sites])
        body += stmts
        v = f"t{i}"
    body.append(("write", f"out[:] = {v}"))
    k = min(len(candidates), draw(st.sampled_from([2, 2, 3])))
    chosen = draw(st.permutations(range(len(candidates))))[:k] if k >= 2 else []
    sites = []
    for c in sorted(chosen):
        index, bads = draw(st.sampled_from(candidates[c]))
        bad, kind = draw(st.sampled_from(bads))
        sites.append(Site(index, bad, kind))
    params: list[tuple[str, Any, str]] = [("x", [m, n], dt)]
    if any(re.search(r"\bh\b", src) for _, src in body):
        params.append(("h", [m, n], OTHER[dt]))
    params.append(("out", [m, n], dt))
    return MultiCase(Case("multi", params, body), sites)


def generate(n: int, seed: int = 0) -> list[MultiCase]:
    """n distinct cases with at least two sites, deterministic for a seed."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    out: list[MultiCase] = []
    seen: set[str] = set()

    @hseed(seed)
    @settings(max_examples=n * 4, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(multi_cases())
    def collect(c: MultiCase) -> None:
        key = c.merged().render()
        if len(out) < n and len(c.sites) >= 2 and key not in seen:
            seen.add(key)
            out.append(c)

    collect()
    return out


# --- running and comparing ----------------------------------------------------------------------

@dataclass
class MultiOutcome:
    case: MultiCase
    base: compare.Outcome
    singles: list[compare.Outcome]
    merged: list[CheckerError]
    confirmed: bool  # base compiles, every single is rejected with a covered code
    agree: bool | None  # None: not confirmed (not counted)
    reason: str = ""
    missing: list[tuple[int, str]] = field(default_factory=list)
    extra: list[tuple[int, str]] = field(default_factory=list)


def _found(o: compare.Outcome) -> set[tuple[int, str]]:
    """The single's findings for its bug: the compiler's code on the compiler's line(s)."""
    lines = [o.compiler.line] if o.compiler.line else o.compiler.candidates
    return {(e.line, e.code) for e in o.checker if e.code == o.compiler.code and e.line in lines}


def compare_multi(case: MultiCase, base: compare.Outcome, singles: list[compare.Outcome],
                  merged: list[CheckerError]) -> MultiOutcome:
    confirmed = base.compiler.accepted and all(not s.compiler.accepted and s.compiler.code for s in singles)
    if not confirmed:
        return MultiOutcome(case, base, singles, merged, False, None, "not confirmed by the compiler")
    bad_single = [o for o in (base, *singles) if o.agree is False]
    if bad_single:
        return MultiOutcome(case, base, singles, merged, True, False,
                            f"one-bug disagreement: {bad_single[0].reason}")
    got = {(e.line, e.code) for e in merged}
    missing = sorted(set().union(*(_found(s) for s in singles)) - got)
    allowed = set().union(*({(e.line, e.code) for e in s.checker} for s in singles))
    extra = sorted(got - allowed)
    if missing or extra:
        why = "missed in the merged kernel" if missing else "a finding no single bug gives"
        return MultiOutcome(case, base, singles, merged, True, False, why, missing, extra)
    return MultiOutcome(case, base, singles, merged, True, True)


def run(cases: list[MultiCase], workdir: str | None = None, jobs: int = 2, timeout: int = 180,
        progress: Any = None) -> list[MultiOutcome]:
    """Compile every base and single (in parallel), check all kernels with ONE mypy run, compare."""
    tmp = tempfile.TemporaryDirectory(prefix="pypto-multi-") if workdir is None else None
    wd = tmp.name if tmp else str(workdir)
    try:
        compiled: list[Case] = []
        for c in cases:
            compiled += [c.base, *c.singles()]
        merged = [c.merged() for c in cases]
        everything = compiled + merged
        paths = write_cases(everything, wd)
        with cf.ThreadPoolExecutor(max_workers=1) as ex:
            fut = ex.submit(run_checker, paths, wd)
            verdicts: list[CompilerVerdict] = run_compiler(compiled, wd, jobs=jobs, timeout=timeout,
                                                           progress=progress)
            found, _raw = fut.result()
        out: list[MultiOutcome] = []
        pos = 0
        for j, c in enumerate(cases):
            k = 1 + len(c.sites)
            outcomes = [compare.compare_one(pos + i, compiled[pos + i], verdicts[pos + i], found[pos + i])
                        for i in range(k)]
            out.append(compare_multi(c, outcomes[0], outcomes[1:], found[len(compiled) + j]))
            pos += k
        return out
    finally:
        if tmp:
            tmp.cleanup()


def stats(outcomes: list[MultiOutcome]) -> str:
    conf = [o for o in outcomes if o.confirmed]
    ok = sum(1 for o in conf if o.agree)
    bugs = sum(len(o.case.sites) for o in conf)
    three = sum(1 for o in conf if len(o.case.sites) == 3)
    kinds: dict[str, int] = {}
    for o in conf:
        for s in o.singles:
            kinds[s.compiler.code or "?"] = kinds.get(s.compiler.code or "?", 0) + 1
    per = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    return (f"kernels: {len(outcomes)}, confirmed by the compiler: {len(conf)} ({three} with three bugs, "
            f"{bugs} bugs: {per}); every bug reported in one run: {ok}/{len(conf)} "
            f"({100.0 * ok / max(len(conf), 1):.1f}%)")


def table(outcomes: list[MultiOutcome], only_disagreements: bool = True) -> str:
    rows = []
    for o in outcomes:
        if only_disagreements and o.agree is not False:
            continue
        singles = "\n".join(f"  single ({s.case.features.get('variant')}): compiler {s.compiler.short()}; "
                            f"checker {s.checker_short()}" for s in o.singles)
        merged = "; ".join(f"{e.code} @ {e.line}" for e in o.merged) or "OK"
        rows.append(f"--- {o.case.summary()}: {o.reason} (missing {o.missing}, extra {o.extra})\n"
                    f"{o.case.merged().render().rstrip()}\n{singles}\n  merged checker: {merged}")
    return "\n".join(rows)
