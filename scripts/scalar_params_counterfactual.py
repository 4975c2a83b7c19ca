#!/usr/bin/env python3
"""How much of a snapshot's reach waits on non-tensor kernel parameters whose values come from
calls outside it: annotate ``: float`` every unannotated parameter of a jit kernel that the kernel
only uses as an operand or an argument, in a copy of the directory, then run the coverage there.

    python scripts/scalar_params_counterfactual.py corpus /tmp/cf
    pypto-check --coverage -o json /tmp/cf/corpus > cf.json
    python scripts/coverage_classes.py cf.json

A measurement, not a rule the checker may use: 0.2.0 accepts a host-made ``pypto.tensor`` for
such a parameter and broadcasts it (docs/validation.md, "Coverage of the public PyPTO code").
"""

from __future__ import annotations

import argparse
import ast
import shutil
from pathlib import Path


def _operand_only(func: ast.FunctionDef, name: str) -> bool:
    """Is every read of ``name`` in ``func`` an arithmetic operand or a call argument?"""
    parents = {id(c): n for n in ast.walk(func) for c in ast.iter_child_nodes(n)}
    reads = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]

    def plain(n: ast.Name) -> bool:
        parent = parents.get(id(n))
        if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.keyword)):
            return True
        return isinstance(parent, ast.Call) and n in parent.args

    return bool(reads) and all(plain(n) for n in reads)


def annotate(path: Path) -> int:
    """Annotate ``path`` in place; the number of parameters annotated."""
    source = path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0
    edits: list[tuple[int, int]] = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef) or not any("jit" in ast.unparse(d) for d in func.decorator_list):
            continue
        for arg in func.args.args:
            if arg.annotation is None and arg.end_col_offset is not None and _operand_only(func, arg.arg):
                edits.append((arg.lineno, arg.end_col_offset))
    lines = source.split("\n")
    for line, col in sorted(edits, reverse=True):
        lines[line - 1] = lines[line - 1][:col] + ": float" + lines[line - 1][col:]
    if edits:
        path.write_text("\n".join(lines), encoding="utf-8")
    return len(edits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the directory of code (left unchanged)")
    parser.add_argument("workdir", type=Path, help="where the annotated copy goes (replaced)")
    args = parser.parse_args()
    target = args.workdir / args.source.name
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(args.source, target)
    count = sum(annotate(p) for p in sorted(target.rglob("*.py")))
    print(f"annotated {count} parameters in {target}")


if __name__ == "__main__":
    main()
