"""Every check is wired: each public ``Call -> Finding | None`` function of the check modules runs for
some op row (``registry.op_checks``), each ``Write -> Finding | None`` one on the write path
(``out.WRITE_CHECKS``, which ``check_write`` runs). A new check left unregistered fails here."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from types import ModuleType

from mypy_plugin.knowledge import checks as checks_package
from mypy_plugin.knowledge.checks import out, registry
from mypy_plugin.knowledge.codes import op_codes
from mypy_plugin.knowledge.ops import OPS
from mypy_plugin.knowledge.tiles import NOT_SET

from knowledge.fakes import op_call, t, write

# Every module of knowledge/checks but the registry and the write checks: a new module is found too.
CALL_MODULES = tuple(
    importlib.import_module(f"{checks_package.__name__}.{info.name}")
    for info in pkgutil.iter_modules(checks_package.__path__) if info.name not in ("registry", "out")
)
# What the discovery below must at least find: it cannot pass by finding nothing.
KNOWN = {
    "reduce_align", "vec_tile_missing", "copy_tile_align", "reshape_tile_missing", "reduce_tile_missing",
    "cube_tile_missing", "vec_tile_rank", "transpose_tile_rank", "matmul_rank", "matmul_dtypes",
    "matmul_doc_dtypes", "cube_tile_values", "dtype_mismatch", "concat_dtypes", "int_scalar",
    "dynamic_operand", "dynamic_slice", "op_dtype",
}


def _checks(module: ModuleType, takes: str) -> dict[str, Callable[..., object]]:
    """The module's own public functions of one parameter ``takes`` that return ``Finding | None``."""
    found: dict[str, Callable[..., object]] = {}
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if name.startswith("_") or fn.__module__ != module.__name__:
            continue
        params = list(inspect.signature(fn).parameters.values())
        if len(params) == 1 and params[0].annotation == takes and fn.__annotations__["return"] == "Finding | None":
            found[name] = fn
    return found


def test_discovery_finds_every_known_check() -> None:
    found = {name for m in CALL_MODULES for name in _checks(m, "Call")}
    assert KNOWN <= found
    assert set(_checks(out, "Write")) >= {"write_rank", "write_shape", "write_dtype"}


def test_every_op_check_runs_for_some_op_row() -> None:
    reachable = {check for row in OPS.values() for check in registry.op_checks(row)}
    unregistered = [f"{m.__name__}.{name}" for m in CALL_MODULES for name, fn in _checks(m, "Call").items()
                    if fn not in reachable]
    assert unregistered == []


def test_every_write_check_runs_on_the_write_path() -> None:
    assert set(_checks(out, "Write").values()) == set(out.WRITE_CHECKS)


def test_every_registered_check_is_a_check_of_the_modules() -> None:
    checks = {fn for m in CALL_MODULES for fn in _checks(m, "Call").values()}
    registered = {check for row in OPS.values() for check in registry.op_checks(row)}
    assert registered <= checks


def test_run_checks_stops_after_a_trace_time_failure() -> None:
    # A comparison with an int fails at trace time: the missing tile it never reaches is not reported.
    found = registry.run_checks(OPS["gt"], op_call("gt", t((8, 16)), 0, vec=NOT_SET))
    assert [f.code for f in found] == [op_codes.COMPARE_INT]
    # Without it, the tile check runs.
    found = registry.run_checks(OPS["gt"], op_call("gt", t((8, 16)), 0.0, vec=NOT_SET))
    assert [f.code for f in found] == [op_codes.TILE_MISSING]
    # Tile and compile checks do not stop the others.
    found = registry.run_checks(OPS["add"], op_call("add", t((8, 16)), t((8, 16), "DT_FP16"), vec=NOT_SET))
    assert [f.code for f in found] == [op_codes.TILE_MISSING, op_codes.DTYPE_MISMATCH]


def test_check_write_runs_every_write_check() -> None:
    w = write(t((4, 64), "DT_BF16"), t((1, 64)), [0])
    assert out.check_write(w) == [e for e in (check(w) for check in out.WRITE_CHECKS) if e is not None]
    assert len(out.check_write(w)) == 2
