"""Random valid modules for the source rewrite, and the properties every rewrite must keep.

Shared by ``tests/fuzz/test_rewrite_fuzz.py`` (a CI share, driven by hypothesis) and
``scripts/fuzz_rewrite.py`` (tens of thousands of cases, seeded). A module mixes every PyPTO
annotation form with odd Python: compound first statements, \\r\\n / \\r line ends,
continuation lines, comments and dims split over lines, strings and f-strings holding
"pypto.Tensor(", decorators, nested and async defs, dict/set displays, starred dims, walrus,
lambdas, type comments, non-ASCII names, tabs, form feeds, star imports and rebound constants.
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from dataclasses import dataclass, field

from mypy_plugin.rewrite.reparse_guard import ALIAS_PREFIX
from mypy_plugin.rewrite.transform import rewrite_for_parser, rewrite_source, rewrite_unchecked

TENSORS = ["pypto.Tensor", "pypto.tensor", "pt.Tensor", "PT", "Tensor", "(pypto.Tensor)", "( pypto . Tensor )"]
DIMS = [
    "8", "64", "1", "-1", "N", "n", "ROWS", "COLS", "BT", "pypto.DYNAMIC", "pypto.STATIC", "_BH", "...",
    "n * 2", "n *\n        2", "(n\n  + 1)", "cfg.get('rows', 8)", 'CFG["rows"]', "x.shape[0]", "*S",
    "f'{n}'", "(y := 3)", "(lambda: 4)()", "ROWS // 2", "0x10", "'M'", "1_000", "ROWS  # rows\n   ",
]
DTYPES = [
    "pypto.DT_FP32", "pypto.DT_FP16", "HALF", "dt", "'x'", "pypto.TileOpFormat.TILEOP_NZ", "DTYPES[0]",
    "f(dt)", "pt.DT_BF16", "None", "(\n  pypto.DT_INT8)",
]
SEPARATORS = [", ", ",", ",\n    ", ", # dims\n    ", ", \\\n    ", " ,\t"]
ODD_STATEMENTS = [
    "s = 'pypto.Tensor([1], x)'",
    's = f"{a!r:>{w}} pypto.Tensor(" if a else "ROWS = 3"',
    "d = {**base, 'k': {1, 2}, 'shape': [8]}",
    "g = lambda q=1, *r, **k: (q, r, k)",
    "if (m := 3) > 2:\n    pass",
    "v = []  # type: list[int]",
    "for i in range(2):\n    pass\nelse:\n    pass",
    "z = 1 + \\\n    2",
    "with open(p) as fh, open(q) as gh:\n    pass",
    "try:\n    pass\nfinally:\n    pass",
    "ñame = 'ü'",
    "a = 1; b = 2",
    "# pypto.Tensor([8], DT) in a comment",
    "t = '''multi\nline pypto.Tensor(\n'''",
    "\f",
    "assert x, 'msg'",
    "del unused",
    "print(*args, sep='')",
    "c = {k: v for k, v in {}.items()}",
    "s2 = ('implicit'\n      'concat')",
    # local int constants (local_constants.py): bound once, tuples, line breaks, rebound, shadowed
    "D = 64", "E = D * 2", "T = (8, ROWS)", "D2 = (\n    16)", "K = 3  # type: int", "F = 1; G = F + 1",
    "H = 2\nH = 3", "for L in range(2):\n    L = 4", "M = -(ROWS // 2)",
]
HEADERS = [
    "",
    '"""Docstring with pypto.Tensor(8) and a lone \r carriage return."""',
    "#!/usr/bin/env python\n# -*- coding: utf-8 -*-",
    "from __future__ import annotations",
    '"""doc"""\nfrom __future__ import annotations\nfrom __future__ import division',
    "# comment only",
]
IMPORTS = [
    "import pypto",
    "import pypto as pt\nimport pypto",
    "from pypto import Tensor as PT, Tensor, DT_FP32\nimport pypto\nimport pypto as pt",
    "try:\n    import pypto\nexcept ImportError:\n    pypto = None",
    "with ctx():\n    import pypto",
    "from dims import *\nimport pypto",
]
CONSTANTS = [
    "ROWS = 8", "COLS = 64", "BT = 2 * ROWS", "_BH = pypto.DYNAMIC", "HALF = pypto.DT_FP16",
    "_QKG = [pypto.DYNAMIC, ROWS, 128]", "S = (8, 4)", "CFG = {'rows': 8}", "SPEC = {'shape': [8]}",
    "ROWS += 1", "COLS = 32", "PAIR = (ROWS, 2)", "N = pypto.frontend.dynamic('N')", "ROWS = (\n    8)",
    "DEPTH = 4  # type: int", "dims.ROWS = 4", "if (COLS := 5):\n    pass",
]


def annotation(r: random.Random) -> str:
    t = r.choice(TENSORS)
    dims = r.choice(SEPARATORS).join(r.choice(DIMS) for _ in range(r.randint(0, 3)))
    dt = r.choice(DTYPES)
    sep = r.choice(SEPARATORS)
    forms = [
        f"{t}([{dims}]{sep}{dt})",
        f"{t}(({dims}{',' if dims and '*' not in dims else ''}){sep}{dt})",
        f"{t}[[{dims}]{sep}{dt}]",
        f"{t}[{{'shape': [{dims}]{sep}'dtype': {dt}, 'name': 'x'}}]",
        f"{t}()",
        f"{t}(\n    *S\n)",
        f"{t}(**kw)",
        f"{t}[{{**SPEC}}]",
        f"{t}[{{}}]",
        f"{t}(shape=[{dims}]{sep}dtype={dt}, format=F, name=\"n\")",
        f"{t}([{dims}], {dt}, name=(\n'x'))",
        f"{t}(_QKG, HALF)",
        f"{t}[...]",
        f"{t}(x.shape, get())",
        f"{t}(\\\n    [{dims}], {dt})",
        "dt",
        "int",
    ]
    return r.choice(forms)


def _indent(block: str, prefix: str) -> str:
    return "\n".join(prefix + line if line.strip() else line for line in block.split("\n"))


def function(r: random.Random, depth: int = 0) -> str:
    ind = r.choice(["    ", "\t", "  "])
    params = ", ".join(f"p{i}: {annotation(r)}" for i in range(r.randint(0, 3)))
    extra = r.choice(["", ", n: int = 2", ", *args", ", dt=None, **kw", ", /, q=lambda: 1"])
    params = (params + extra).lstrip(", ") if params or extra.startswith(", n") else params
    ret = r.choice(["", f" -> {annotation(r)}", " -> None"])
    deco = r.choice(["", "@pypto.frontend.jit\n", "@(lambda f: f)\n", "@a.b(c=1)\n@d\n"])
    asyn = r.choice(["", "", "async "])
    body = [r.choice(ODD_STATEMENTS) for _ in range(r.randint(0, 3))]
    if r.random() < 0.6:
        body.append(f"x: {annotation(r)} = p0 if 0 else None")
    if r.random() < 0.3:
        body.append(f"w: {annotation(r)}")
    if depth < 1 and r.random() < 0.3:
        body.append(function(r, depth + 1))
    body.append(r.choice(["pass", "return None", "...", "yield 1" if not asyn else "await z"]))
    return f"{deco}{asyn}def fn_{r.randint(0, 999)}({params}){ret}:\n" + _indent("\n".join(body), ind)


def module(r: random.Random) -> str:
    """A random module; most are valid Python (the properties skip the rest)."""
    parts = [r.choice(HEADERS)]
    first = r.choice(["imports", "function", "class", "try", "if"])
    pieces: list[str] = []
    if first == "function":
        pieces.append(function(r))
    elif first == "class":
        pieces.append(f"class K:\n    attr: {annotation(r)}\n    def m(self, a: {annotation(r)}): pass")
    elif first == "try":
        pieces.append("try:\n    import pypto\nexcept Exception:\n    raise")
    elif first == "if":
        pieces.append("if TYPE_CHECKING:\n    import pypto")
    pieces.append(r.choice(IMPORTS))
    pieces += [r.choice(CONSTANTS) for _ in range(r.randint(0, 4))]
    for _ in range(r.randint(1, 3)):
        pieces.append(r.choice([function(r), function(r), r.choice(ODD_STATEMENTS), f"G: {annotation(r)} = None"]))
    r.shuffle(pieces[1:]) if r.random() < 0.2 else None
    text = "\n".join(p for p in [*parts, *pieces] if p) + "\n"
    newline = r.choice(["\n", "\n", "\r\n", "\r"])
    return text.replace("\n", newline)


# --- properties ----------------------------------------------------------------------------

def _parse(text: str) -> ast.Module:
    return ast.parse(text, type_comments=True)


def _helper_import(node: ast.AST) -> bool:
    if isinstance(node, ast.AnnAssign):  # the declaration of mypy_plugin/module_marker.py
        return isinstance(node.target, ast.Name) and node.target.id.startswith(ALIAS_PREFIX) and node.value is None
    return isinstance(node, ast.ImportFrom) and node.module == "typing" and any(
        (a.asname or "").startswith(ALIAS_PREFIX) for a in node.names
    )


def positions(tree: ast.Module) -> list[tuple[str, int, int | None]]:
    """Every statement (kind, first and last line) and every name outside annotations (id, line)."""
    out: list[tuple[str, int, int | None]] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if _helper_import(node):
            continue
        if isinstance(node, ast.stmt):
            out.append((type(node).__name__.replace("AnnAssign", "Assign"), node.lineno, node.end_lineno))
        elif isinstance(node, ast.Name):
            out.append((node.id, node.lineno, node.end_lineno))
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns"):
                continue  # what the rewrite edits
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    return sorted(out)


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    last: set[str] = field(default_factory=set)  # what the case being checked added

    def add(self, key: str, source: str) -> None:
        self.counts[key] += 1
        self.examples.setdefault(key, source)
        self.last.add(key)


FAILURES = ("unparsable", "moved lines", "exceptions", "guarded unparsable", "guarded moved lines",
            "second pass unparsable", "second pass moved lines", "proven but rejected")


def check(source: str, tally: Tally) -> None:
    """Run one module through the rewrite and record what happened."""
    try:
        before = _parse(source)
    except (SyntaxError, ValueError):
        tally.add("invalid inputs (skipped)", source)
        return
    tally.last = set()
    tally.add("cases", source)
    try:
        raw, _ = rewrite_unchecked(source)
    except Exception:  # an edit the source did not confirm: declined, input kept
        tally.add("declined (input kept)", source)
        raw = source
    raw_tree = before
    try:
        raw_tree = _parse(raw)
    except SyntaxError:
        tally.add("unparsable", source)
    else:
        if positions(raw_tree) != positions(before):
            tally.add("moved lines", source)
    try:
        out = rewrite_source(source)
    except Exception:
        tally.add("exceptions", source)
        return
    if out != source:
        tally.add("rewritten", source)
    if out == raw and "unparsable" not in tally.last and "moved lines" not in tally.last:
        out_tree = raw_tree  # already checked above
    else:
        try:
            out_tree = _parse(out)
        except SyntaxError:
            tally.add("guarded unparsable", source)
            return
        if positions(out_tree) != positions(before):
            tally.add("guarded moved lines", source)
    try:
        again = rewrite_source(out)
        again_tree = _parse(again)
    except SyntaxError:
        tally.add("second pass unparsable", source)
        return
    except Exception:
        tally.add("exceptions", source)
        return
    if positions(again_tree) != positions(out_tree):
        tally.add("second pass moved lines", source)
    _check_proof(source, out, tally)


def _check_proof(source: str, guarded: str, tally: Tally) -> None:
    """A rewrite edit_proof proves in place (no second parse) is the guarded one, whenever it
    parses: the native route then gives what the guard would have."""
    try:
        fast, unparsed = rewrite_for_parser(source)
    except Exception:
        tally.add("exceptions", source)
        return
    if not unparsed:
        if fast != guarded:
            tally.add("proven but rejected", source)
        return
    tally.add("proven (no second parse)", source)
    try:
        _parse(fast)
    except SyntaxError:
        tally.add("proven, then unparsable (the file as written)", source)
        return
    if fast != guarded:
        tally.add("proven but rejected", source)
