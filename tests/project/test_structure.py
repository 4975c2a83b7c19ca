"""The code's shape: folders by job that depend one way, no module over 350 lines, no import
cycle inside ``mypy_plugin``, ``host/`` and ``knowledge/`` free of mypy.

Size: every Python module (``.py``) under ``mypy_plugin/`` and ``pypto_stubs/``. The ``.pyi``
stubs are not counted: they mirror the layout of the real ``pypto`` package (``pypto/__init__.py``
declares ``Tensor`` and the ops), and the plugin hooks on their fullnames, so they cannot be split.

Cycles: only module-level imports count: the statements of a module's body, including those
inside a top-level ``if``/``try`` (``try: import tomllib``), but not those under
``if TYPE_CHECKING:`` (never run) and not imports inside functions (run when called, after every
module is loaded: the deliberate way to defer an import). An edge goes to the module named
(``from .x import y``: ``x``, or ``x.y`` when ``y`` is a submodule); the parent packages that
Python also initialises are not edges (their ``__init__`` imports nothing at module level that
could close a cycle, and counting them would make every subpackage a cycle with its parent).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 350
SIZED = ("mypy_plugin", "pypto_stubs")
PACKAGE = "mypy_plugin"


def _long_modules(root: Path, packages: tuple[str, ...]) -> list[str]:
    out = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                out.append(f"{path.relative_to(root)}: {n} lines")
    return out


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _module_level_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    out: list[ast.Import | ast.ImportFrom] = []
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.append(stmt)
        elif isinstance(stmt, ast.If):
            if not _is_type_checking(stmt.test):
                out += _module_level_imports(stmt.body)
            out += _module_level_imports(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                out += _module_level_imports(block)
    return out


def _imported(imp: ast.Import | ast.ImportFrom, name: str, is_package: bool, paths: dict[str, Path],
              package: str) -> set[str]:
    """What one import statement of module ``name`` imports: ``package``'s modules by name (``from
    .x import y``: ``x``, or ``x.y`` when ``y`` is a submodule), other packages by their first name."""
    if isinstance(imp, ast.Import):
        return {a.name if a.name.split(".")[0] == package else a.name.split(".")[0] for a in imp.names}
    base = imp.module or ""
    if imp.level:
        here = name.split(".") if is_package else name.split(".")[:-1]
        base = ".".join([*here[:len(here) - (imp.level - 1)], *([base] if base else [])])
    if base.split(".")[0] != package:
        return {base.split(".")[0]}
    return {f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in imp.names}


def _modules(root: Path, package: str) -> dict[str, Path]:
    return {_module_name(root, p): p for p in (root / package).rglob("*.py")}


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports at module level."""
    paths = _modules(root, package)
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        for imp in _module_level_imports(ast.parse(path.read_text(encoding="utf-8")).body):
            targets = _imported(imp, name, path.name == "__init__.py", paths, package)
            graph[name] |= {t for t in targets if t in paths and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle (its modules in import order, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_no_module_over_350_lines() -> None:
    long = _long_modules(ROOT, SIZED)
    assert not long, f"modules over {MAX_LINES} lines (split them along a seam):\n" + "\n".join(long)


def test_no_import_cycle_in_the_plugin() -> None:
    graph = import_graph(ROOT, PACKAGE)
    assert len(graph) > 50 and any(graph.values())  # the walk found the package and its imports
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


# Folders by job, lowest first: a folder (or top-level module) imports only from earlier layers,
# at module level or inside functions. ``knowledge`` is what PyPTO does; ``host`` reads host code
# and ``rewrite`` rewrites source, both with Python's ``ast``; ``bridge`` turns mypy's types into
# plain values and findings into messages; ``kernel`` walks one kernel's body; ``calls`` follows
# host calls and helper calls into kernels; ``insight`` is what tools may read of them (the copies,
# the tiles); ``hooks`` is what mypy calls; then the entry points (``lsp`` reads ``cli``'s filter).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"versions", "debug", "ast_fields", "lazy_modules"}),
    frozenset({"knowledge.codes"}),
    frozenset({"knowledge"}),
    frozenset({"knowledge.checks", "knowledge.boundary"}),
    frozenset({"errorcodes", "config", "mypy_output", "host", "rewrite", "trace"}),
    frozenset({"bridge"}),
    frozenset({"kernel"}),
    frozenset({"insight"}),
    frozenset({"calls"}),
    frozenset({"hooks"}),
    frozenset({"main", "guard", "fix", "_dmypy_codes"}),
    frozenset({"cli"}),
    frozenset({"lsp"}),
    frozenset({"__init__"}),
)
TOP_LEVEL_MODULES = frozenset({"__init__", "main", "config", "errorcodes", "debug", "versions", "_dmypy_codes",
                               "ast_fields", "mypy_output", "insight", "lazy_modules"})
MYPY_FREE = ("knowledge", "host", "trace")


def _part(root: Path, package: str, module: str) -> str:
    """The layer part a module belongs to: its folder (``knowledge``'s subfolders on their own), or
    the top-level module itself."""
    parts = module.split(".")[1:] or ["__init__"]
    if parts[0] == "knowledge" and len(parts) > 2 and (root / package / "knowledge" / parts[1]).is_dir():
        return f"knowledge.{parts[1]}"
    return parts[0]


def all_imports(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> every module it imports anywhere (function-level imports too): ``package``'s
    modules by name, and other top-level packages (``mypy``) by their first name."""
    paths = _modules(root, package)
    out: dict[str, set[str]] = {}
    for name, path in paths.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found |= _imported(node, name, path.name == "__init__.py", paths, package)
        out[name] = {t for t in found if t != name}
    return out


def layer_violations(root: Path, package: str) -> list[str]:
    rank = {part: i for i, layer in enumerate(LAYERS) for part in layer}
    bad = []
    for module, targets in sorted(all_imports(root, package).items()):
        src = _part(root, package, module)
        for target in sorted(t for t in targets if t.split(".")[0] == package):
            dst = _part(root, package, target)
            if dst != src and rank.get(dst, len(LAYERS)) >= rank.get(src, -1):
                bad.append(f"{module} ({src}) imports {target} ({dst})")
    return bad


def test_folders_import_one_way() -> None:
    parts = {_part(ROOT, PACKAGE, m) for m in all_imports(ROOT, PACKAGE)}
    unplaced = parts - {p for layer in LAYERS for p in layer}
    assert not unplaced, f"folders or modules in no layer: {sorted(unplaced)}"
    assert not layer_violations(ROOT, PACKAGE)


def test_top_level_modules_are_the_agreed_few() -> None:
    top = {p.stem for p in (ROOT / PACKAGE).glob("*.py")}
    assert top <= TOP_LEVEL_MODULES, f"put these in the folder of their job: {sorted(top - TOP_LEVEL_MODULES)}"


@pytest.mark.parametrize("folder", MYPY_FREE)
def test_folder_imports_no_mypy(folder: str) -> None:
    """``knowledge/`` and ``host/`` work on plain values and Python's ``ast``: not even through
    another module of the plugin may they reach mypy."""
    graph = all_imports(ROOT, PACKAGE)
    start = [m for m in graph if _part(ROOT, PACKAGE, m).split(".")[0] == folder]
    assert start
    seen, todo = set(start), list(start)
    while todo:
        for t in graph.get(todo.pop(), ()):
            if t == "mypy":
                raise AssertionError(f"{folder}/ reaches mypy: {sorted(m for m in seen if 'mypy' in graph.get(m, ()))}")
            if t in graph and t not in seen:
                seen.add(t)
                todo.append(t)


# --- the checks themselves, on a package made for them -----------------------------------

def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(("files", "cycle"), [
    ({"p/__init__.py": "", "p/a.py": "from . import b\n", "p/b.py": "from .a import x\n"}, ["p.a", "p.b", "p.a"]),
    ({"p/__init__.py": "", "p/a.py": "from .sub.c import f\n", "p/sub/__init__.py": "",
      "p/sub/c.py": "import p.a\n"}, ["p.a", "p.sub.c", "p.a"]),
    ({"p/__init__.py": "", "p/a.py": "from .sub import c\n", "p/sub/__init__.py": "",
      "p/sub/c.py": "try:\n    from ..a import g\nexcept ImportError:\n    pass\n"}, ["p.a", "p.sub.c", "p.a"]),
    # Function-level and TYPE_CHECKING imports do not count.
    ({"p/__init__.py": "", "p/a.py": "from . import b\n",
      "p/b.py": "def f():\n    from . import a\nif TYPE_CHECKING:\n    from .a import x\n"}, None),
])
def test_find_cycle(tmp_path: Path, files: dict[str, str], cycle: list[str] | None) -> None:
    _write(tmp_path, files)
    assert find_cycle(import_graph(tmp_path, "p")) == cycle


def test_long_modules(tmp_path: Path) -> None:
    _write(tmp_path, {"p/ok.py": "x = 1\n" * MAX_LINES, "p/long.py": "x = 1\n" * (MAX_LINES + 1),
                      "p/stub.pyi": "x: int\n" * 1000})
    assert _long_modules(tmp_path, ("p",)) == [f"p/long.py: {MAX_LINES + 1} lines"]


def test_layer_violations(tmp_path: Path) -> None:
    _write(tmp_path, {"p/__init__.py": "", "p/knowledge/__init__.py": "", "p/knowledge/a.py": "from ..kernel import b\n",
                      "p/kernel/__init__.py": "", "p/kernel/b.py": "def f():\n    from ..knowledge import a\n"})
    assert layer_violations(tmp_path, "p") == ["p.knowledge.a (knowledge) imports p.kernel.b (kernel)"]


def test_tests_are_grouped_in_folders() -> None:
    """Tests live in the folder of what they test (knowledge/, host/, rewrite/, plugin/, cli/,
    fix/, guard/, oracle/, typecheck/, fuzz/, project/); only the shared conftest is at the top."""
    top = sorted(p.name for p in (ROOT / "tests").glob("*.py"))
    assert top == ["conftest.py"], f"put these in a folder of tests/: {top}"
