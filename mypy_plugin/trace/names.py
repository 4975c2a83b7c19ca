"""Names a traced body reads: its locals, then its module's top-level names (imports, functions,
constants the tracer can evaluate), then a few builtins; names imported from other modules of the
program are read from those modules (the loader)."""

from __future__ import annotations

import ast
from typing import Final

from .modules import Imported, TracedModule
from .state import Tracing
from .numbers import number_op
from .arguments import Actual
from .values import NONE, UNKNOWN, Class, Func, ModuleRef, Ref, Seq, Value, is_int

_BUILTINS: Final = frozenset({
    "range", "len", "min", "max", "int", "float", "bool", "abs", "list", "tuple", "print", "isinstance",
    "enumerate", "zip", "sum", "round", "str", "getattr", "hasattr", "sorted", "reversed", "any", "all",
})


class NameTracer(Tracing):
    def name(self, node: ast.Name) -> Value:
        found = self.env.get(node.id)
        if found is not None:
            return found
        if node.id in self.locals_:  # a local not bound on this path (yet)
            return UNKNOWN
        return self.global_name(self.module, node.id)

    def global_name(self, module: TracedModule, name: str, depth: int = 0) -> Value:
        """A top-level name of ``module``: an import, a function, a constant, or a builtin."""
        if not module.bound(name):
            return Ref(f"builtins.{name}") if name in _BUILTINS and depth == 0 else UNKNOWN
        imported = module.import_value(name)
        if isinstance(imported, Imported):
            return self.imported(imported, depth)
        if imported is not None:
            return imported
        func = module.function(name)
        if func is not None:
            return func
        return self.module_constant(module, name)

    def imported(self, imp: Imported, depth: int = 0) -> Value:
        if depth > 8:
            return UNKNOWN
        other = self.load(imp.module)
        if other is None:  # a package whose __init__ is not read (no pypto import): ``from . import ops``
            sub = f"{imp.module}.{imp.name}"
            return ModuleRef(sub) if self.load(sub) is not None else UNKNOWN
        if other.bound(imp.name):
            return self.global_name(other, imp.name, depth + 1)
        return ModuleRef(f"{imp.module}.{imp.name}") if other.is_package else UNKNOWN

    def module_constant(self, module: TracedModule, name: str) -> Value:
        key = (module.name, name)
        if key in self.constants:
            return self.constants[key]
        self.constants[key] = UNKNOWN  # a constant that reads itself stays unknown
        binding = module.binding(name)
        value: Value = UNKNOWN
        if isinstance(binding, (ast.Assign, ast.AnnAssign)) and binding.value is not None:
            targets = binding.targets if isinstance(binding, ast.Assign) else [binding.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                value = self.constant_expr(module, binding.value)
        self.constants[key] = value
        return value

    def constant_expr(self, module: TracedModule, node: ast.expr) -> Value:
        """A module-level assignment's value: constants, dtypes, tuples, lists and int arithmetic
        (no call: what a call gives at import time is not traced)."""
        if isinstance(node, ast.Constant):
            return constant(node.value)
        if isinstance(node, ast.Name):
            return self.global_name(module, node.id)
        if isinstance(node, ast.Attribute):
            return self.attribute(self.constant_expr(module, node.value), node.attr, node)
        if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
            return Seq(tuple(self.constant_expr(module, e) for e in node.elts), isinstance(node, ast.List))
        if isinstance(node, ast.BinOp):
            return number_op(node.op, self.constant_expr(module, node.left), self.constant_expr(module, node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.constant_expr(module, node.operand)
            return -v if is_int(v) or type(v) is float else UNKNOWN  # type: ignore[operator]
        if isinstance(node, ast.Call) and not any(isinstance(a, ast.Starred) for a in node.args):
            cls = self.constant_expr(module, node.func)  # an object of a class whose body we read
            if isinstance(cls, Class):
                actuals = [Actual(self.constant_expr(module, a), a) for a in node.args]
                actuals += [Actual(self.constant_expr(module, k.value), k.value, keyword=k.arg)
                            for k in node.keywords if k.arg is not None]
                return UNKNOWN if len(actuals) != len(node.args) + len(node.keywords) else self.construct(cls, actuals)
        return UNKNOWN

    def class_attribute(self, cls: Class, name: str) -> Value:
        """A method of the class (bound later), or a constant its body assigns."""
        module = self.load(cls.module)
        cdef = module.classes.get(cls.name) if module is not None else None
        if module is None or cdef is None:
            return UNKNOWN
        if f"{cls.name}.{name}" in module.functions:
            return Func(cls.module, f"{cls.name}.{name}")
        for stmt in cdef.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                target, value = stmt.target, stmt.value
            else:
                continue
            if isinstance(target, ast.Name) and target.id == name:
                return self.constant_expr(module, value)
        return UNKNOWN


def constant(v: object) -> Value:
    if v is None:
        return NONE
    if isinstance(v, (bool, int, float, str)):
        return v
    return UNKNOWN


