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
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from probe_grid import Grid, data_file_head, run_grid  # noqa: E402

OUT = os.path.join(ROOT, "mypy_plugin", "knowledge", "op_dtypes_data.py")
OUT_SCALARS = os.path.join(ROOT, "mypy_plugin", "knowledge", "op_dtypes_scalar_data.py")

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

# The scalar forms (``{s}`` is the scalar): a Python number becomes Element(input.dtype, v) (pow: an
# INT32 Element for an int, an FP32 one for a float), so the op is built on other operands than the
# two-tensor call. A reflected operator is its own form (``2 - a`` is neg(a - 2), ``2 / a`` is
# reciprocal(a) * 2); ``a += 2`` is ``a + 2``.
SCALAR_FORMS: dict[str, str] = {
    **{op: f"pypto.{op}(a, {{s}})" for op in (
        "add", "sub", "mul", "div", "fmod", "remainder", "pow", "maximum", "minimum", "bitwise_and", "bitwise_or",
        "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "gcd", "ceil_div",
        "eq", "ne", "lt", "le", "gt", "ge", "greater")},
    "clip": "pypto.clip(a, {s}, {s})",
    **{op: expr.replace("b", "{s}") for op, expr in OPERATORS.items() if "b" in expr},
    "__radd__": "{s} + a", "__rsub__": "{s} - a", "__rmul__": "{s} * a", "__rtruediv__": "{s} / a",
}
SCALAR_SAME_AS: dict[str, str] = {
    "__iadd__": "__add__", "__isub__": "__sub__", "__imul__": "__mul__", "__itruediv__": "__truediv__",
}
# The scalar of each kind. "int" and "float" are probed apart only where they can differ: pow (an
# INT32 or an FP32 Element); a comparison binds a float only (an int is a TypeError, rule:
# compare-float-scalar); the bitwise ops, gcd and ceil_div take an int. Elsewhere the kind is
# "number": an int is compiled, and a float gives the same Element(input.dtype, v) (a sample of both
# kinds, ``--sample``, gave the same verdict on every pair).
SCALARS: dict[str, str] = {"int": "2", "float": "1.5", "number": "2"}
FLOAT_ONLY = {op for op, row in OPS.items() if row.kind == "compare"}
INT_ONLY = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "gcd", "ceil_div"}
BOTH_KINDS = {"pow", "__pow__"}


def scalar_kinds(op: str) -> tuple[str, ...]:
    return (("float",) if op in FLOAT_ONLY else ("int",) if op in INT_ONLY else ("int", "float")
            if op in BOTH_KINDS else ("number",))


def scalar_call(op: str, kind: str) -> str:
    return SCALAR_FORMS[op].format(s=SCALARS[kind])


def expression(op: str, kind: str) -> str:
    if op in OPERATORS:
        return OPERATORS[op]
    if op in SPECIAL:
        return SPECIAL[op]
    if kind in ("elementwise", "compare"):
        return f"pypto.{op}(a, b)"
    return f"pypto.{op}(a)"


def kernel(op: str, kind: str, dt: str) -> str:
    return kernel_of(expression(op, kind), "[8, 1]" if op in REDUCED else "[8, 64]", dt)


def kernel_of(expr: str, out_shape: str, dt: str) -> str:
    tdt = DTYPES[dt]
    return f"""import pypto
import torch


@pypto.frontend.jit(runtime_options={{"run_mode": pypto.RunMode.SIM}})
def k(a: pypto.Tensor([8, 64], pypto.{dt}), b: pypto.Tensor([8, 64], pypto.{dt}),
      out: pypto.Tensor({out_shape}, pypto.{dt})):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = {expr}


def run() -> None:
    a = torch.ones(8, 64, dtype={tdt})
    k(a, a.clone(), torch.zeros({out_shape[1:-1]}, dtype={tdt}))
"""


def verdict(v: object) -> tuple[str, str]:
    """("ok" | "dtype" | "nopipe" | "other", the first line of the compiler's text)."""
    text: str = getattr(v, "text")
    kind = "ok" if getattr(v, "accepted") else (
        "nopipe" if NO_PIPE.search(text) else "dtype" if DTYPE_REJECTION.search(text) else "other")
    return kind, text.splitlines()[0][:160] if text else ""


def probe(ops: list[str], dtypes: list[str], workdir: str) -> Grid:
    """op -> dtype -> (verdict "ok" | "dtype" | "nopipe" | "other", first line of the compiler's text)."""
    return run_grid(ops, dtypes, lambda op, dt: kernel(op, OPS[op].kind, dt), verdict, workdir)


def render(table: Grid, dtypes: list[str]) -> str:
    """The data file of the tensor forms (``table``, by op)."""
    lines = [
        *data_file_head([
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
        ], dtypes),
        "CALLS: Final[dict[str, str]] = {",
        *(f"    {op!r}: {expression(op, OPS[op].kind)!r}," for op in table),
        "}",
        "",
        "SUPPORTED: Final[dict[str, frozenset[str]]] = {",
    ]
    for op, row in table.items():
        lines.append(f"    {op!r}: frozenset({_with(row, 'ok')!r}),")
    lines += ["}", "", "REJECTED: Final[dict[str, dict[str, str]]] = {"]
    for op, row in table.items():
        joined = _by_message(row)
        if joined:
            lines.append(f"    {op!r}: {joined},")
    lines += ["}", "", "NO_PIPE: Final[dict[str, frozenset[str]]] = {"]
    for op, row in table.items():
        nopipe = _with(row, "nopipe")
        if nopipe:
            lines.append(f"    {op!r}: frozenset({nopipe!r}),")
    lines += ["}", ""]
    for dunder, base in SAME_AS.items():
        lines.append(f"SUPPORTED[{dunder!r}] = SUPPORTED[{base!r}]") if base in table else None
        lines.append(f"if {base!r} in REJECTED:\n    REJECTED[{dunder!r}] = REJECTED[{base!r}]") if base in table else None
        lines.append(f"CALLS[{dunder!r}] = CALLS[{base!r}]") if base in table else None
    return "\n".join(lines) + "\n"


def _with(row: dict[str, tuple[str, str]], verdict: str) -> list[str]:
    return sorted(dt for dt, (v, _) in row.items() if v == verdict)


def _by_message(row: dict[str, tuple[str, str]]) -> str:
    """The rejected dtypes as one ``dict.fromkeys(dtypes, message)`` per message ("" if none)."""
    by_text: dict[str, list[str]] = {}
    for dt, (v, text) in sorted(row.items()):
        if v == "dtype":
            by_text.setdefault(text, []).append(dt)
    parts = [f"dict.fromkeys({dts!r}, {text!r})" for text, dts in by_text.items()]
    return "" if not parts else parts[0] if len(parts) == 1 else "{" + ", ".join("**" + p for p in parts) + "}"


def render_scalars(scalars: Grid, dtypes: list[str]) -> str:
    """The data file of the scalar forms (``scalars``, by ``op/kind``)."""
    by_op: dict[str, dict[str, dict[str, tuple[str, str]]]] = {}
    for key, row in scalars.items():
        op, kind = key.split("/")
        by_op.setdefault(op, {})[kind] = row
    lines = [
        *data_file_head([
            '"""Generated by scripts/probe_op_dtypes.py from PyPTO 0.2.0 (SIM mode): do not edit by hand.',
            "",
            "The scalar forms of ``op_dtypes_data.py`` (``pypto.minimum(a, 2)``, ``a + 2``, ``2 - a``): per op and",
            "scalar kind, the call compiled (SCALAR_CALLS; ``a`` is an [8, 64] tensor of the dtype, under the vec",
            "tile (8, 64)) and, as there, the dtypes it compiled on, those it rejected with a dtype message and",
            "those that passed the dtype check and then failed with F92001. Kinds: ``int`` (2 compiled),",
            "``float`` (1.5 compiled) or ``number`` (2 compiled; an int or a float gives the same",
            "Element(input.dtype, v), and a sample of both kinds, ``--sample``, agreed on every pair). Every dtype",
            "of PROBED was asked for each op and kind. Regenerate with ``python scripts/probe_op_dtypes.py",
            "--forms scalar``. Read by the ``pypto-op-dtype`` check (docs/rules.md, rule: op-dtype-support).",
        ], dtypes),
        "SCALAR_CALLS: Final[dict[str, dict[str, str]]] = {",
    ]
    lines += [f"    {op!r}: {{{', '.join(f'{k!r}: {scalar_call(op, k)!r}' for k in kinds)}}}," for op, kinds in by_op.items()]
    lines += ["}", "", "SCALAR_SUPPORTED: Final[dict[str, dict[str, frozenset[str]]]] = {"]
    for op, kinds in by_op.items():
        cells = [f"{k!r}: frozenset({_with(row, 'ok')!r})" for k, row in kinds.items()]
        lines.append(f"    {op!r}: {{{', '.join(cells)}}},")
    for name, verdicts in (("SCALAR_REJECTED", "dtype"), ("SCALAR_NO_PIPE", "nopipe")):
        typ = "dict[str, str]" if verdicts == "dtype" else "frozenset[str]"
        lines += ["}", "", f"{name}: Final[dict[str, dict[str, {typ}]]] = {{"]
        for op, kinds in by_op.items():
            cells = {k: (_by_message(row) if verdicts == "dtype" else
                         f"frozenset({_with(row, verdicts)!r})" if _with(row, verdicts) else "") for k, row in kinds.items()}
            if any(cells.values()):
                lines.append(f"    {op!r}: {{{', '.join(f'{k!r}: {c}' for k, c in cells.items() if c)}}},")
    lines += ["}", ""]
    for alias, base in SCALAR_SAME_AS.items():
        if base in by_op:
            lines += [f"SCALAR_CALLS[{alias!r}] = SCALAR_CALLS[{base!r}]", f"SCALAR_SUPPORTED[{alias!r}] = SCALAR_SUPPORTED[{base!r}]"]
            lines += [f"if {base!r} in {t}:\n    {t}[{alias!r}] = {t}[{base!r}]" for t in ("SCALAR_REJECTED", "SCALAR_NO_PIPE")]
    return "\n".join(lines) + "\n"


def recorded(ops: list[str]) -> Grid:
    """The rows of the current table (for ``--merge``), as :func:`probe` gives them."""
    from mypy_plugin.knowledge import op_dtypes_data as old

    table: Grid = {}
    for op in ops:
        if op not in old.SUPPORTED:
            continue
        rejected, nopipe = old.REJECTED.get(op, {}), getattr(old, "NO_PIPE", {}).get(op, frozenset())
        table[op] = {dt: ("ok", "") if dt in old.SUPPORTED[op] else ("dtype", rejected[dt]) if dt in rejected
                     else ("nopipe", "") if dt in nopipe else ("other", "") for dt in old.PROBED}
    return table


def recorded_scalars(keys: list[str]) -> Grid:
    """The scalar rows (``op/kind``) of the current table, as :func:`probe_scalars` gives them."""
    from mypy_plugin.knowledge import op_dtypes_scalar_data as old

    grid: Grid = {}
    for key in keys:
        op, kind = key.split("/")
        if kind not in getattr(old, "SCALAR_SUPPORTED", {}).get(op, {}):
            continue
        ok, rejected = old.SCALAR_SUPPORTED[op][kind], old.SCALAR_REJECTED.get(op, {}).get(kind, {})
        nopipe = old.SCALAR_NO_PIPE.get(op, {}).get(kind, frozenset())
        grid[key] = {dt: ("ok", "") if dt in ok else ("dtype", rejected[dt]) if dt in rejected
                     else ("nopipe", "") if dt in nopipe else ("other", "") for dt in old.PROBED}
    return grid


def probe_scalars(keys: list[str], dtypes: list[str], workdir: str) -> Grid:
    """``op/kind`` -> dtype -> verdict, for the scalar forms."""
    def scalar_kernel(key: str, dt: str) -> str:
        op, kind = key.split("/")
        return kernel_of(scalar_call(op, kind), "[8, 64]", dt)

    return run_grid(keys, dtypes, scalar_kernel, verdict, workdir)


def sample(ops: list[str], dtypes: list[str], workdir: str) -> None:
    """Compiles each op's scalar form with an int and with a float and prints the pairs that differ."""
    grid = probe_scalars([f"{op}/{kind}" for op in ops for kind in ("int", "float")], dtypes, workdir)
    differ = [(op, dt) for op in ops for dt in dtypes if grid[f"{op}/int"][dt][0] != grid[f"{op}/float"][dt][0]]
    print(f"sample: {len(ops) * len(dtypes)} pairs, int and float differ on {len(differ)}: {differ}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", help="comma-separated op names (default: every elementwise/compare/unary/reduction row)")
    ap.add_argument("--dtypes", help="comma-separated pypto dtypes (default: " + ",".join(DTYPES) + ")")
    ap.add_argument("--forms", default="tensor,scalar",
                    help="tensor, scalar or both (default); the forms not probed keep their current rows")
    ap.add_argument("--merge", action="store_true", help="keep the current rows of the ops not in --ops")
    ap.add_argument("--sample", action="store_true", help="compile the scalar forms of --ops with an int and a "
                    "float and print where they differ (writes nothing)")
    ap.add_argument("--print-only", action="store_true", help="do not rewrite " + os.path.relpath(OUT, ROOT))
    ns = ap.parse_args()
    every = [name for name, op in OPS.items() if op.kind in KINDS and name not in SKIP and name not in SAME_AS]
    every_scalar = [f"{op}/{kind}" for op in SCALAR_FORMS for kind in scalar_kinds(op)]
    ops = ns.ops.split(",") if ns.ops else every
    dtypes = ns.dtypes.split(",") if ns.dtypes else list(DTYPES)
    forms = ns.forms.split(",")
    with tempfile.TemporaryDirectory(prefix="probe_op_dtypes_") as work:
        if ns.sample:
            sample([op for op in ops if op in SCALAR_FORMS], dtypes, work)
            return
        table = probe(ops, dtypes, work) if "tensor" in forms else {}
        keys = [key for key in every_scalar if not ns.ops or key.split("/")[0] in ops]
        scalars = probe_scalars(keys, dtypes, work) if "scalar" in forms else {}
    if ns.merge or "tensor" not in forms:
        kept = recorded([op for op in every if op not in table])
        table = {op: table[op] if op in table else kept[op] for op in every if op in table or op in kept}
    if ns.merge or "scalar" not in forms:
        kept = recorded_scalars([key for key in every_scalar if key not in scalars])
        scalars = {k: scalars[k] if k in scalars else kept[k] for k in every_scalar if k in scalars or k in kept}
    if not ns.print_only:
        for path, text in ((OUT, render(table, dtypes)), (OUT_SCALARS, render_scalars(scalars, dtypes))):
            with open(path, "w") as f:
                f.write(text)
            print("wrote", path)


if __name__ == "__main__":
    main()
