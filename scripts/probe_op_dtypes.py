"""Probe which dtypes each elementwise, comparison, unary and reduction op of the op table
compiles on with the real PyPTO 0.2.0 compiler (SIM mode), and regenerate
``mypy_plugin/knowledge/op_dtypes_data.py``, the table the ``pypto-op-dtype`` check reads
(docs/rules.md, rule: op-dtype-support).

Each (op, dtype) is one kernel: its tensor inputs of that dtype, shape [8, 64], under the vec tile
(8, 64), the op's result written into an output (writes are not checked by 0.2.0, rule:
write-unchecked, so the output's dtype does not decide the verdict). A dtype is recorded as
unsupported only when the compiler rejects the kernel with a dtype message (FC0001 "The datatype
is not supported" and friends); SIM mode's F92001 "No pipe type corresponding to opcode" comes
after the dtype check (the op was built), so that pair is recorded as passing the dtype check
(NO_PIPE); any other failure leaves the pair unknown, and the checker says nothing about unknown
pairs. The whole table takes 20 to 40 minutes on one core (--merge re-probes a few ops).

    python scripts/probe_op_dtypes.py [--ops add,exp [--merge]] [--dtypes DT_FP32,DT_INT8] [--print-only]

``--merge`` probes only the listed ops and keeps every other row of the current table.

Needs pypto 0.2.0 and torch (the oracle's runner compiles each kernel in a forked compile server).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from mypy_plugin.knowledge.ops import OPS  # noqa: E402
from tests.oracle.runner import compile_file  # noqa: E402

OUT = os.path.join(ROOT, "mypy_plugin", "knowledge", "op_dtypes_data.py")

# pypto dtype -> torch dtype of the input tensors
DTYPES: dict[str, str] = {
    "DT_FP32": "torch.float32", "DT_FP16": "torch.float16", "DT_BF16": "torch.bfloat16",
    "DT_INT8": "torch.int8", "DT_INT16": "torch.int16", "DT_INT32": "torch.int32", "DT_INT64": "torch.int64",
    "DT_UINT8": "torch.uint8", "DT_BOOL": "torch.bool",
}
# the compiler's texts for "this op does not take this dtype" (anything else: unknown)
DTYPE_REJECTION = re.compile(r"FC0001|datatype is not|[Dd]ata ?type .*not|not in supported types|unsupported dtype",
                             re.I)
NO_PIPE = re.compile(r"F92001.*No pipe type")

# Operators probed by their expression (reflected and augmented forms share the row).
OPERATORS: dict[str, str] = {
    "__add__": "a + b", "__sub__": "a - b", "__mul__": "a * b", "__truediv__": "a / b",
    "__floordiv__": "a // b", "__mod__": "a % b", "__pow__": "a ** b", "__neg__": "-a",
    "__eq__": "a == b", "__ne__": "a != b", "__lt__": "a < b", "__le__": "a <= b", "__gt__": "a > b",
    "__ge__": "a >= b",
}
SAME_AS: dict[str, str] = {
    "__radd__": "__add__", "__iadd__": "__add__", "__rsub__": "__sub__", "__isub__": "__sub__",
    "__rmul__": "__mul__", "__imul__": "__mul__", "__rtruediv__": "__truediv__", "__itruediv__": "__truediv__",
}
# calls that need more than the tensor(s)
SPECIAL: dict[str, str] = {
    "cumsum": "pypto.cumsum(a, 0)", "triu": "pypto.triu(a, 0)", "tril": "pypto.tril(a, 0)",
    "sum": "pypto.sum(a, -1, keepdim=True)", "amax": "pypto.amax(a, -1, keepdim=True)",
    "amin": "pypto.amin(a, -1, keepdim=True)", "prod": "pypto.prod(a, -1, keepdim=True)",
    "var": "pypto.var(a, -1, keepdim=True)", "softmax": "pypto.softmax(a, -1)",
    "rms_norm": "pypto.rms_norm(a)", "round": "pypto.round(a)", "clip": "pypto.clip(a, b, b)",
}
SKIP = {"clone", "fill_", "triu_", "tril_", "__pos__", "prelu", "lrelu"}  # no dtype rule to learn here
KINDS = ("elementwise", "compare", "unary", "reduction")
REDUCED = {"sum", "amax", "amin", "prod", "var"}


def expression(op: str, kind: str) -> str:
    if op in OPERATORS:
        return OPERATORS[op]
    if op in SPECIAL:
        return SPECIAL[op]
    if kind in ("elementwise", "compare"):
        return f"pypto.{op}(a, b)"
    return f"pypto.{op}(a)"


def kernel(op: str, kind: str, dt: str) -> str:
    out_shape = "[8, 1]" if op in REDUCED else "[8, 64]"
    tdt = DTYPES[dt]
    return f"""import pypto
import torch


@pypto.frontend.jit(runtime_options={{"run_mode": pypto.RunMode.SIM}})
def k(a: pypto.Tensor([8, 64], pypto.{dt}), b: pypto.Tensor([8, 64], pypto.{dt}),
      out: pypto.Tensor({out_shape}, pypto.{dt})):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = {expression(op, kind)}


def run() -> None:
    a = torch.ones(8, 64, dtype={tdt})
    k(a, a.clone(), torch.zeros({out_shape[1:-1]}, dtype={tdt}))
"""


def probe(ops: list[str], dtypes: list[str], workdir: str) -> dict[str, dict[str, tuple[str, str]]]:
    """op -> dtype -> (verdict "ok" | "dtype" | "nopipe" | "other", first line of the compiler's text)."""
    table: dict[str, dict[str, tuple[str, str]]] = {}
    for op in ops:
        row = table.setdefault(op, {})
        for dt in dtypes:
            path = os.path.join(workdir, f"{op.strip('_')}_{dt}.py")
            with open(path, "w") as f:
                f.write(kernel(op, OPS[op].kind, dt))
            v = compile_file(path, os.path.join(workdir, "run"))
            verdict = "ok" if v.accepted else (
                "nopipe" if NO_PIPE.search(v.text) else "dtype" if DTYPE_REJECTION.search(v.text) else "other")
            row[dt] = (verdict, v.text.splitlines()[0][:160] if v.text else "")
            print(f"{op:22} {dt:9} {verdict:5} {row[dt][1]}", flush=True)
    return table


def render(table: dict[str, dict[str, tuple[str, str]]], dtypes: list[str]) -> str:
    lines = [
        '"""Generated by scripts/probe_op_dtypes.py from PyPTO 0.2.0 (SIM mode): do not edit by hand.',
        "",
        "Regenerate with ``python scripts/probe_op_dtypes.py`` (needs pypto 0.2.0 and torch; about 20 to 40",
        "minutes on one core, one compile per op and dtype). Read by the ``pypto-op-dtype`` check (docs/rules.md, rule: op-dtype-support).",
        "",
        "Per op: the call compiled (CALLS: ``a``, ``b`` are [8, 64] tensors of the dtype, under the vec",
        "tile (8, 64)), the dtypes the compiler was asked about (PROBED), those it compiled (SUPPORTED),",
        "those it rejected with a dtype message (REJECTED, with the message) and those that passed the",
        "dtype check and then failed in SIM mode with F92001 No pipe type (NO_PIPE). A pair in none of",
        "them is unknown.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"PROBED: Final[tuple[str, ...]] = {tuple(dtypes)!r}",
        "",
        "CALLS: Final[dict[str, str]] = {",
        *(f"    {op!r}: {expression(op, OPS[op].kind)!r}," for op in table),
        "}",
        "",
        "SUPPORTED: Final[dict[str, frozenset[str]]] = {",
    ]
    for op, row in table.items():
        ok = sorted(dt for dt, (v, _) in row.items() if v == "ok")
        lines.append(f"    {op!r}: frozenset({ok!r}),")
    lines += ["}", "", "REJECTED: Final[dict[str, dict[str, str]]] = {"]
    for op, row in table.items():
        by_text: dict[str, list[str]] = {}
        for dt, (v, text) in sorted(row.items()):
            if v == "dtype":
                by_text.setdefault(text, []).append(dt)
        if by_text:  # one line per message: dict.fromkeys(dtypes, message)
            parts = [f"dict.fromkeys({dts!r}, {text!r})" for text, dts in by_text.items()]
            joined = parts[0] if len(parts) == 1 else "{" + ", ".join("**" + p for p in parts) + "}"
            lines.append(f"    {op!r}: {joined},")
    lines += ["}", "", "NO_PIPE: Final[dict[str, frozenset[str]]] = {"]
    for op, row in table.items():
        nopipe = sorted(dt for dt, (v, _) in row.items() if v == "nopipe")
        if nopipe:
            lines.append(f"    {op!r}: frozenset({nopipe!r}),")
    lines += ["}", ""]
    for dunder, base in SAME_AS.items():
        lines.append(f"SUPPORTED[{dunder!r}] = SUPPORTED[{base!r}]") if base in table else None
        lines.append(f"if {base!r} in REJECTED:\n    REJECTED[{dunder!r}] = REJECTED[{base!r}]") if base in table else None
        lines.append(f"CALLS[{dunder!r}] = CALLS[{base!r}]") if base in table else None
    return "\n".join(lines) + "\n"


def recorded(ops: list[str]) -> dict[str, dict[str, tuple[str, str]]]:
    """The rows of the current table (for ``--merge``), as :func:`probe` gives them."""
    from mypy_plugin.knowledge import op_dtypes_data as old

    table: dict[str, dict[str, tuple[str, str]]] = {}
    for op in ops:
        if op not in old.SUPPORTED:
            continue
        rejected, nopipe = old.REJECTED.get(op, {}), getattr(old, "NO_PIPE", {}).get(op, frozenset())
        table[op] = {dt: ("ok", "") if dt in old.SUPPORTED[op] else ("dtype", rejected[dt]) if dt in rejected
                     else ("nopipe", "") if dt in nopipe else ("other", "") for dt in old.PROBED}
    return table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", help="comma-separated op names (default: every elementwise/compare/unary/reduction row)")
    ap.add_argument("--dtypes", help="comma-separated pypto dtypes (default: " + ",".join(DTYPES) + ")")
    ap.add_argument("--merge", action="store_true", help="keep the current rows of the ops not in --ops")
    ap.add_argument("--print-only", action="store_true", help="do not rewrite " + os.path.relpath(OUT, ROOT))
    ns = ap.parse_args()
    every = [name for name, op in OPS.items() if op.kind in KINDS and name not in SKIP and name not in SAME_AS]
    ops = ns.ops.split(",") if ns.ops else every
    dtypes = ns.dtypes.split(",") if ns.dtypes else list(DTYPES)
    with tempfile.TemporaryDirectory(prefix="probe_op_dtypes_") as work:
        table = probe(ops, dtypes, work)
    if ns.merge:
        kept = recorded([op for op in every if op not in table])
        table = {op: table[op] if op in table else kept[op] for op in every if op in table or op in kept}
    if not ns.print_only:
        with open(OUT, "w") as f:
            f.write(render(table, dtypes))
        print("wrote", OUT)


if __name__ == "__main__":
    main()
