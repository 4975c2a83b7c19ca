"""What the host evaluator needs to know about a whole module before walking it, from one walk:
torch and pypto names, objects changed in place from functions, nested kernels, generators, the
names each top-level statement and method refers to (which of them may reach a kernel call),
attributes the module assigns."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Final

from ..ast_fields import child_fields, dotted
from ..knowledge.frontend import names_jit
from .mutation import ChangedElsewhere

_FUNCTIONS: Final = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_FUNCTION_TYPES: Final = frozenset(_FUNCTIONS)
_UNIT_TYPES: Final = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})


def _subclasses(base: type) -> set[type]:
    out: set[type] = set()
    sub: type
    for sub in base.__subclasses__():
        out |= {sub, *_subclasses(sub)}
    return out


_ASSIGNMENTS: Final = frozenset({ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete})
# Nodes with nothing under them the scan reads: constants, operators.
_LEAVES: Final = frozenset({ast.Constant, *_subclasses(ast.operator), *_subclasses(ast.cmpop), *_subclasses(ast.boolop),
                            *_subclasses(ast.unaryop)})
# What changes torch's default float dtype for the whole process.
DEFAULT_DTYPE_SETTERS: Final = frozenset({"set_default_dtype", "set_default_tensor_type"})


@dataclass
class ModuleFacts:
    torch: dict[str, str] = field(default_factory=dict)  # local name -> "torch" / "torch.randn"
    math: dict[str, str] = field(default_factory=dict)  # local name -> "math" / "math.sqrt"
    numpy: dict[str, str] = field(default_factory=dict)  # local name -> "numpy" / "numpy.zeros"
    pypto: set[str] = field(default_factory=set)  # local names of the pypto module
    pypto_dtypes: dict[str, str] = field(default_factory=dict)  # ``from pypto import DT_FP16 as h``
    pytest_param: set[str] = field(default_factory=set)  # how ``pytest.param`` is spelled ("pytest.param", "param")
    # torch's default float dtype may change: ``set_default_dtype`` / ``set_default_tensor_type``
    # named anywhere (any import spelling, a getattr string)
    default_dtype_changed: bool = False
    # module-level function -> the positions and names of the parameters it changes in place
    changes_params: dict[str, tuple[frozenset[int], frozenset[str]]] = field(default_factory=dict)
    changed_elsewhere: set[str] = field(default_factory=set)  # see mutation.ChangedElsewhere
    # Functions with a ``...jit`` decorator that are not module-level statements.
    nested_kernels: frozenset[str] = frozenset()
    # ids of the module-level functions that define such a kernel (the only possible factories).
    kernel_holders: frozenset[int] = frozenset()
    # ids of the functions with a ``yield`` of their own (their body runs when iterated)
    generators: frozenset[int] = frozenset()
    # id of each top-level statement, and of each method of a top-level class (at any depth of
    # classes) -> what its subtree refers to: names, attribute names (``.b``) and ``a.b`` texts
    refs: dict[int, set[str]] = field(default_factory=dict)
    # the same units -> (the receiver's name or "", a name) passed to a method (``obj.fill(dims)``:
    # it may change it)
    passed: dict[int, set[tuple[str, str]]] = field(default_factory=dict)
    # names whose attributes the module sets (``k.COLS = 4``, ``del k.X``, ``setattr(k, ...)``)
    attribute_targets: set[str] = field(default_factory=set)
    # attribute -> the names assigned to it (None: something else) (``self.kernel = k``)
    attribute_values: dict[str, set[str | None]] = field(default_factory=dict)


def scan(tree: ast.Module) -> ModuleFacts:
    """One depth-first walk over the whole module. It runs on every module that calls a kernel:
    types are tested by identity, and names and constants (most of the nodes) are read where
    their parent pushes them instead of being pushed."""
    facts = ModuleFacts()
    changes = ChangedElsewhere()
    top = {id(stmt) for stmt in tree.body}
    nested: set[str] = set()
    holders: set[int] = set()
    generators: set[int] = set()
    refs, passed = facts.refs, facts.passed
    functions: list[ast.AST] = []  # the functions and lambdas the walk is in, outermost first
    # (node, the unit whose references it adds to); None: a function's end
    stack: list[tuple[ast.AST | None, int]] = [(tree, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, unit = pop()
        if node is None:
            changes.leave()
            functions.pop()
            continue
        t = type(node)
        names = refs.get(unit)
        if t is ast.Call:
            assert isinstance(node, ast.Call)
            if changes.inside:
                changes.called(node)
            callee = node.func
            if isinstance(callee, ast.Attribute):
                given = [a.id for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Name)]
                if given:
                    head = callee.value.id if isinstance(callee.value, ast.Name) else ""
                    passed.setdefault(unit, set()).update((head, g) for g in given)
            elif isinstance(callee, ast.Name) and callee.id in ("setattr", "delattr") and node.args \
                    and isinstance(node.args[0], ast.Name):
                facts.attribute_targets.add(node.args[0].id)
        elif t in _ASSIGNMENTS:
            if changes.inside:
                changes.assigned(node)  # type: ignore[arg-type]
            if t is not ast.Delete:
                _attribute_values(facts, node)  # type: ignore[arg-type]
        elif t is ast.Import or t is ast.ImportFrom:
            _imports(facts, node)  # type: ignore[arg-type]
            if any(a.name.rpartition(".")[2] in DEFAULT_DTYPE_SETTERS for a in node.names):  # type: ignore[attr-defined]
                facts.default_dtype_changed = True
        elif t is ast.Global or t is ast.Nonlocal:
            if changes.inside:
                changes.declared(node)  # type: ignore[arg-type]
        elif t is ast.Attribute:
            attr = node.attr  # type: ignore[attr-defined]
            if attr in DEFAULT_DTYPE_SETTERS:
                facts.default_dtype_changed = True
            value = node.value  # type: ignore[attr-defined]
            if names is not None:
                names.add("." + attr)
                if type(value) is ast.Name:
                    names.add(f"{value.id}.{attr}")
                elif type(value) is ast.Attribute:
                    path = dotted(node)  # pkg.mod.kernel: a kernel through its module path
                    if path is not None:
                        names.add(path)
            if type(node.ctx) is not ast.Load and type(value) is ast.Name:  # type: ignore[attr-defined]
                facts.attribute_targets.add(value.id)
        elif t is ast.Constant:
            if node.value in DEFAULT_DTYPE_SETTERS:  # type: ignore[attr-defined]
                facts.default_dtype_changed = True
        elif t is ast.Yield or t is ast.YieldFrom:
            if functions:
                generators.add(id(functions[-1]))
        elif t in _FUNCTION_TYPES:
            assert isinstance(node, _FUNCTIONS)
            changes.enter(node)
            functions.append(node)
            push((None, 0))
            if isinstance(node, ast.FunctionDef) and id(node) not in top and any(names_jit(d) for d in node.decorator_list):
                nested.add(node.name)
                if id(functions[0]) in top:
                    holders.add(id(functions[0]))
        # a top-level statement, or a def or class in the body of a unit that is a class, is a unit
        opens = t is ast.Module or t is ast.ClassDef and names is not None and unit == id(node)
        for name in reversed(child_fields(node)):  # pushed last to first: popped in source order
            value = getattr(node, name, None)
            for child in reversed(value) if type(value) is list else (value,):
                ct = type(child)
                if ct is ast.Name:
                    if changes.inside and type(child.ctx) is ast.Store:  # type: ignore[union-attr]
                        changes.bound(child.id)  # type: ignore[union-attr]
                    if child.id in DEFAULT_DTYPE_SETTERS:  # type: ignore[union-attr]
                        facts.default_dtype_changed = True
                    if names is not None:
                        names.add(child.id)  # type: ignore[union-attr]
                elif ct is ast.Constant:
                    if child.value in DEFAULT_DTYPE_SETTERS:  # type: ignore[union-attr]
                        facts.default_dtype_changed = True
                elif ct in _LEAVES or not isinstance(child, ast.AST):
                    continue
                elif opens and (t is ast.Module or ct in _UNIT_TYPES and name == "body"):
                    refs[id(child)] = set()
                    push((child, id(child)))
                else:
                    push((child, unit))
    facts.changed_elsewhere = changes.names
    facts.changes_params = changes.changes_params
    facts.nested_kernels = frozenset(nested)
    facts.kernel_holders = frozenset(holders)
    facts.generators = frozenset(generators)
    return facts


def _attribute_values(facts: ModuleFacts, node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> None:
    for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
        if isinstance(target, ast.Attribute):
            value = node.value if not isinstance(node, ast.AugAssign) else None
            facts.attribute_values.setdefault(target.attr, set()).add(value.id if isinstance(value, ast.Name) else None)


def _imports(facts: ModuleFacts, node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in ("torch", "math", "numpy"):
                _modules(facts, alias.name)[alias.asname or alias.name] = alias.name
            elif alias.name == "pypto":
                facts.pypto.add(alias.asname or "pypto")
            elif alias.name == "pytest":
                facts.pytest_param.add(f"{alias.asname or 'pytest'}.param")
    elif node.level == 0:
        if node.module in ("torch", "math", "numpy"):
            _modules(facts, node.module).update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names)
        elif node.module == "pypto":
            facts.pypto_dtypes.update((a.asname or a.name, a.name) for a in node.names if a.name.startswith("DT_"))
        elif node.module == "pytest":
            facts.pytest_param.update(a.asname or a.name for a in node.names if a.name == "param")


def _modules(facts: ModuleFacts, module: str) -> dict[str, str]:
    """The local names of torch's, math's or numpy's module and members."""
    return facts.torch if module == "torch" else facts.numpy if module == "numpy" else facts.math

