"""Agreement of the body tracer (mypy_plugin/trace/) with mypy's own re-check of helper copies.

For every call of a same-module helper from a kernel (or from a helper checked for a call), the
plugin checks a copy of the helper with the call's tensors and tiles (calls/specialize.py). This
script traces the same helper with the same call (calls/cross_module.helper_trace, as for a helper
of another module) and compares the two sets of findings, line by line (the codes the tracer leaves
to the helper's own module, pypto-no-method and pypto-transpose, aside).

    python scripts/trace_agreement.py examples/ /path/to/corpus      # directories or files
    python scripts/trace_agreement.py --helpers 300 --seed 1         # generated helper kernels

Prints each disagreement and the totals; exit status 1 if any.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_ASIDE = {"pypto-no-method", "pypto-transpose"}


def _generated(n: int, seed: int, out: Path) -> list[Path]:
    sys.path.insert(0, str(ROOT))
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.oracle.helper_generator import helper_cases

    cases: list[object] = []

    @settings(max_examples=n, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(data: st.DataObject) -> None:
        cases.append(data.draw(helper_cases()))

    import random
    random.seed(seed)
    collect()
    paths = []
    for i, case in enumerate(cases[:n]):
        p = out / f"helper_case_{i:04d}.py"
        p.write_text(getattr(case, "render")())
        paths.append(p)
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--helpers", type=int, default=0, help="also this many generated helper kernels")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", help="write the generated kernels into this directory")
    parser.add_argument("--verbose", action="store_true", help="print mypy's output too")
    args = parser.parse_args()

    os.environ.setdefault("PYPTO_STUBS_DEBUG", "1")
    from mypy import api
    from mypy.nodes import CallExpr, MypyFile, RefExpr

    import mypy_plugin.calls.cross_module as X
    import mypy_plugin.calls.helpers as H
    import mypy_plugin.calls.specialize as S

    captured: list[list[object]] = []
    orig_report = S._report

    def report(api_: object, infos: list[object], note: object) -> None:
        captured.append(list(infos))
        orig_report(api_, infos, note)  # type: ignore[arg-type]

    S._report = report  # type: ignore[assignment]
    results = {"compared": 0, "agree": 0, "untraced": 0}
    disagreements: list[str] = []
    orig_check = H.HelperCalls._check

    def check(self: H.HelperCalls, ctx: object) -> object:
        before = len(captured)
        result = orig_check(self, ctx)  # type: ignore[arg-type]
        call = getattr(ctx, "context", None)
        tree = getattr(getattr(ctx, "api", None), "tree", None)
        if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr) or not isinstance(tree, MypyFile):
            return result
        func = H.helper_function(call.callee.node)
        if func is None or not func.fullname.startswith(tree.fullname + ".") or len(captured) == before:
            return result
        infos = captured[-1]
        entry = self.session.helper_entry(ctx)  # type: ignore[attr-defined]
        traced = X.helper_trace(ctx.api, call, tree.fullname, func.name, lambda: entry, lambda: True)  # type: ignore[attr-defined]
        results["compared"] += 1
        copy = {(i.line, i.code.code, i.message) for i in infos  # type: ignore[attr-defined]
                if i.severity == "error" and i.code is not None and i.code.code.startswith("pypto-")
                and i.code.code not in _ASIDE}
        if traced is None:
            results["untraced"] += 1
            if copy:
                disagreements.append(f"{tree.path}:{call.line}: not traced; the copy found {sorted(copy)}")
            else:
                results["agree"] += 1
            return result
        mine = {(f.line, f.finding.code.name, f.message) for f in traced.found.findings if f.module == tree.fullname}
        if mine == copy:
            results["agree"] += 1
        else:
            disagreements.append(f"{tree.path}:{call.line}: copy only {sorted(copy - mine)}; trace only {sorted(mine - copy)}")
        return result

    H.HelperCalls._check = check  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        targets = list(args.paths)
        if args.helpers:
            gen = Path(args.keep) if args.keep else Path(tmp) / "gen"
            gen.mkdir(parents=True, exist_ok=True)
            targets += [str(p) for p in _generated(args.helpers, args.seed, gen)]
        ini = Path(tmp) / "mypy.ini"
        ini.write_text("[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\nignore_missing_imports = True\n"
                       "follow_imports = silent\n[mypy-torch.*]\nfollow_imports = skip\n[mypy-numpy.*]\n"
                       "follow_imports = skip\n")
        files = [str(p) for t in targets for p in (sorted(Path(t).rglob("*.py")) if Path(t).is_dir() else [Path(t)])]
        out = api.run(["--config-file", str(ini), "--no-incremental", "--cache-dir", os.devnull, *files])
        if args.verbose:
            print(out[0], out[1])
    for d in disagreements:
        print(d)
    print(f"helper calls compared: {results['compared']}, agree: {results['agree']} "
          f"(not traced: {results['untraced']}), disagree: {len(disagreements)}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
