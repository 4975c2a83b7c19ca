"""What the host evaluator needs to know about a whole module before walking it, from one walk:
torch and pypto names, the calls of each statement, objects changed in place from functions,
nested kernels."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Final, Union

from ..ast_fields import child_fields
from ..knowledge.frontend import names_jit
from .mutation import ChangedElsewhere

# The statements the evaluator walks into (their bodies are statements of their own); every other
# statement is evaluated whole, with the calls of all its expressions.
_COMPOUND: Final = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
                    ast.Try, ast.With, ast.AsyncWith)
_FUNCTIONS: Final = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPOUND_TYPES: Final = frozenset(_COMPOUND)
_FUNCTION_TYPES: Final = frozenset(_FUNCTIONS)


def _subclasses(base: type) -> set[type]:
    out: set[type] = set()
    sub: type
    for sub in base.__subclasses__():
        out |= {sub, *_subclasses(sub)}
    return out


_STATEMENT_TYPES: Final = frozenset(_subclasses(ast.stmt))
_ASSIGNMENTS: Final = frozenset({ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete})
# Nodes with nothing under them the scan reads: constants, operators.
_LEAVES: Final = frozenset({ast.Constant, *_subclasses(ast.operator), *_subclasses(ast.cmpop), *_subclasses(ast.boolop),
                            *_subclasses(ast.unaryop)})
# The field whose expression the evaluator evaluates, with its calls, before walking a compound
# statement's body (a ``with`` statement's are in its items).
_HEADER_FIELD: Final[dict[type, str]] = {ast.If: "test", ast.While: "test", ast.For: "iter", ast.AsyncFor: "iter",
                                         ast.withitem: "context_expr"}
_Owner = Union[ast.AST, None]
# What changes torch's default float dtype for the whole process.
DEFAULT_DTYPE_SETTERS: Final = frozenset({"set_default_dtype", "set_default_tensor_type"})


@dataclass
class ModuleFacts:
    torch: dict[str, str] = field(default_factory=dict)  # local name -> "torch" / "torch.randn"
    math: dict[str, str] = field(default_factory=dict)  # local name -> "math" / "math.sqrt"
    numpy: dict[str, str] = field(default_factory=dict)  # local name -> "numpy" / "numpy.zeros"
    pypto: set[str] = field(default_factory=set)  # local names of the pypto module
    pypto_dtypes: dict[str, str] = field(default_factory=dict)  # ``from pypto import DT_FP16 as h``
    default_dtype_calls: list[ast.Call] = field(default_factory=list)  # ``...set_default_dtype(...)``
    # torch's default float dtype may change: ``set_default_dtype`` / ``set_default_tensor_type``
    # named anywhere (any import spelling, a getattr string)
    default_dtype_changed: bool = False
    # module-level function -> the positions and names of the parameters it changes in place
    changes_params: dict[str, tuple[frozenset[int], frozenset[str]]] = field(default_factory=dict)
    # id of a simple statement, or of a compound statement's test / iterable / context expression
    # -> its calls in source order (``ast.iter_child_nodes`` order, depth first), outside nested
    # functions, lambdas and classes.
    calls_of: dict[int, list[ast.Call]] = field(default_factory=dict)
    changed_elsewhere: set[str] = field(default_factory=set)  # see mutation.ChangedElsewhere
    # Functions with a ``...jit`` decorator that are not module-level statements.
    nested_kernels: frozenset[str] = frozenset()
    # ids of the module-level functions that define such a kernel (the only possible factories).
    kernel_holders: frozenset[int] = frozenset()


def scan(tree: ast.Module) -> ModuleFacts:
    """One depth-first walk over the whole module. It runs on every module that calls a kernel:
    types are tested by identity, and names and constants (most of the nodes) are read where
    their parent pushes them instead of being pushed."""
    facts = ModuleFacts()
    changes = ChangedElsewhere()
    top = {id(stmt) for stmt in tree.body}
    nested: set[str] = set()
    holders: set[int] = set()
    functions: list[ast.AST] = []  # the functions and lambdas the walk is in, outermost first
    calls_of = facts.calls_of
    # (node, the statement or header expression its calls belong to); None: a function's end
    stack: list[tuple[ast.AST | None, _Owner]] = [(tree, None)]
    pop, push = stack.pop, stack.append
    while stack:
        node, owner = pop()
        if node is None:
            changes.leave()
            functions.pop()
            continue
        t = type(node)
        if t is ast.Call:
            assert isinstance(node, ast.Call)
            if owner is not None:
                calls_of.setdefault(id(owner), []).append(node)
            if changes.inside:
                changes.called(node)
            callee = node.func
            if (callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", None)) == "set_default_dtype":
                facts.default_dtype_calls.append(node)
        elif t in _ASSIGNMENTS:
            if changes.inside:
                changes.assigned(node)  # type: ignore[arg-type]
        elif t is ast.Import or t is ast.ImportFrom:
            _imports(facts, node)  # type: ignore[arg-type]
            if any(a.name.rpartition(".")[2] in DEFAULT_DTYPE_SETTERS for a in node.names):  # type: ignore[attr-defined]
                facts.default_dtype_changed = True
        elif t is ast.Global or t is ast.Nonlocal:
            if changes.inside:
                changes.declared(node)  # type: ignore[arg-type]
        elif t is ast.Attribute:
            if node.attr in DEFAULT_DTYPE_SETTERS:  # type: ignore[attr-defined]
                facts.default_dtype_changed = True
        elif t is ast.Constant:
            if node.value in DEFAULT_DTYPE_SETTERS:  # type: ignore[attr-defined]
                facts.default_dtype_changed = True
        elif t in _FUNCTION_TYPES:
            assert isinstance(node, _FUNCTIONS)
            changes.enter(node)
            functions.append(node)
            push((None, None))
            if isinstance(node, ast.FunctionDef) and id(node) not in top and any(names_jit(d) for d in node.decorator_list):
                nested.add(node.name)
                if id(functions[0]) in top:
                    holders.add(id(functions[0]))
        header = _HEADER_FIELD.get(t)
        own_nothing = t in _COMPOUND_TYPES or t is ast.withitem  # their other parts' calls are not evaluated
        for name in reversed(child_fields(node)):  # pushed last to first: popped in source order
            value = getattr(node, name, None)
            for child in reversed(value) if type(value) is list else (value,):
                ct = type(child)
                if ct is ast.Name:
                    if changes.inside and type(child.ctx) is ast.Store:  # type: ignore[union-attr]
                        changes.bound(child.id)  # type: ignore[union-attr]
                    if child.id in DEFAULT_DTYPE_SETTERS:  # type: ignore[union-attr]
                        facts.default_dtype_changed = True
                elif ct is ast.Constant:
                    if child.value in DEFAULT_DTYPE_SETTERS:  # type: ignore[union-attr]
                        facts.default_dtype_changed = True
                elif ct in _STATEMENT_TYPES:
                    push((child, None if ct in _COMPOUND_TYPES else child))
                elif ct in _LEAVES or not isinstance(child, ast.AST):
                    continue
                elif name == header:
                    push((child, child))
                else:
                    push((child, None if own_nothing or ct is ast.Lambda else owner))
    facts.changed_elsewhere = changes.names
    facts.changes_params = changes.changes_params
    facts.nested_kernels = frozenset(nested)
    facts.kernel_holders = frozenset(holders)
    return facts


def _imports(facts: ModuleFacts, node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in ("torch", "math", "numpy"):
                _modules(facts, alias.name)[alias.asname or alias.name] = alias.name
            elif alias.name == "pypto":
                facts.pypto.add(alias.asname or "pypto")
    elif node.level == 0:
        if node.module in ("torch", "math", "numpy"):
            _modules(facts, node.module).update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names)
        elif node.module == "pypto":
            facts.pypto_dtypes.update((a.asname or a.name, a.name) for a in node.names if a.name.startswith("DT_"))


def _modules(facts: ModuleFacts, module: str) -> dict[str, str]:
    """The local names of torch's, math's or numpy's module and members."""
    return facts.torch if module == "torch" else facts.numpy if module == "numpy" else facts.math
