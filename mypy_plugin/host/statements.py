"""Host statements in program order, with their control flow: a branch sees only its own path
(a path that left by ``return`` / ``raise`` / ``break`` / ``continue`` joins nothing after), a
constant loop runs its iterations in turn (each sees the last one's bindings), and what runs only
under a condition that may depend on known values is walked silenced (its calls are not sites)."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Final

from . import dicts
from .ast_facts import bound_names
from .compound import CompoundWalker
from .conditions import depends, truth
from .env import Env
from .mutation import mutated
from .scopes import BREAK, CONTINUE, EXIT_CALLS, RETURN, Scope
from .values import UNKNOWN, Defined, DictVal, HostTensor, ListVal, Raised, Value, builtin_exception


class StatementWalker(CompoundWalker):

    def _stmt(self, stmt: ast.stmt, scope: Scope) -> None:
        t = type(stmt)
        handler = _HANDLERS.get(t)
        if handler is not None:
            getattr(self, handler)(stmt, scope)
        elif isinstance(stmt, (ast.Return, ast.Raise)):
            value = getattr(stmt, "value", None) or getattr(stmt, "exc", None)
            result = self._expr(value, scope.env) if value is not None else None
            if isinstance(stmt, ast.Return):
                scope.returns.append(result)
            else:
                exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
                if isinstance(exc, ast.Name) and exc.id not in scope.env and builtin_exception(exc.id):
                    raise Raised(exc.id)
            self._exit(RETURN, scope)
        elif isinstance(stmt, (ast.Break, ast.Continue)):
            self._exit(BREAK if isinstance(stmt, ast.Break) else CONTINUE, scope)
        elif isinstance(stmt, ast.Expr):
            self._expr(stmt.value, scope.env)
            if isinstance(stmt.value, ast.Call) and self._exits_process(stmt.value.func):
                self._exit(RETURN, scope)
        elif isinstance(stmt, ast.Assert):
            self._guarded_exit(stmt.test, scope)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                name = (alias.asname or alias.name).split(".")[0]
                self._imported.add(name)
                if isinstance(stmt, ast.Import) and alias.name == "functools" or isinstance(stmt, ast.ImportFrom) \
                        and stmt.module == "functools" and alias.name == "partial":
                    self._partial.add(name if isinstance(stmt, ast.ImportFrom) else f"{name}.partial")
                if name not in self._torch and name not in self._pypto_dtypes:
                    self._bind_name(name, self._import_value(stmt, alias), scope.env)
        elif isinstance(stmt, (ast.Global, ast.Nonlocal, ast.Delete)):
            if isinstance(stmt, ast.Delete):
                for target in stmt.targets:
                    if not isinstance(target, ast.Name):
                        self._expr(target, scope.env)
            self._forget(bound_names(stmt), scope.env)
            for name in mutated(stmt, ()):
                self._change_in_place(name, scope.env)

    def _import_value(self, stmt: ast.Import | ast.ImportFrom, alias: ast.alias) -> Value:
        """Another module's constant (``from k import COLS``), or that module for ``k.COLS``
        (not when this module sets attributes on it: ``k.COLS = 4``)."""
        if isinstance(stmt, ast.ImportFrom):
            return self.constant(stmt.module, alias.name) if stmt.level == 0 and stmt.module else UNKNOWN
        name = alias.asname or alias.name
        if "." in name or name in self._attr_targets:
            return UNKNOWN  # ``import a.b`` binds ``a``
        self._module_names[id(alias)] = alias.name
        return Defined(id(alias))

    def _exits_process(self, func: ast.expr) -> bool:
        text = func.id if isinstance(func, ast.Name) else (
            f"{func.value.id}.{func.attr}" if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else "")
        return text in EXIT_CALLS and (not isinstance(func, ast.Name) or func.id not in self._scope.env)

    def _guarded_exit(self, test: ast.expr, scope: Scope) -> None:
        """``assert test``: False raises; an unknown test that may depend on known values makes
        the rest conditional."""
        known = truth(self._expr(test, scope.env))
        if known is False:
            self._exit(RETURN, scope)
        elif known is None and depends(test, scope.env):
            scope.maybe = True

    def _assign_stmt(self, stmt: ast.Assign | ast.AnnAssign, scope: Scope) -> None:
        if stmt.value is None:
            return
        value = self._expr(stmt.value, scope.env)
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            if isinstance(target, (ast.Subscript, ast.Attribute)):
                self._store_into(target, value, scope.env)
            else:
                self._assign(target, value, scope.env)

    def _store_into(self, target: ast.Subscript | ast.Attribute, value: Value, env: Env) -> None:
        """``xs[i] = v`` on a known list is followed; a write into a tensor keeps its layout;
        anything else changes an object the walk does not follow."""
        base = self._expr(target.value, env)
        if isinstance(target, ast.Subscript):
            index = self._expr(target.slice, env)
            if isinstance(base, HostTensor):
                return  # the data changes, not the shape
            if isinstance(target.value, ast.Name) and isinstance(base, DictVal) and dicts.hashable(index):
                self._replace_list(target.value.id, base, dicts.with_item(base, index, value), env)
                return
            if isinstance(target.value, ast.Name) and isinstance(base, ListVal) and type(index) is int \
                    and -len(base) <= index < len(base):
                items = list(base)
                items[index] = value
                self._replace_list(target.value.id, base, ListVal(items), env)
                return
        root = target.value
        while isinstance(root, (ast.Subscript, ast.Attribute)):
            root = root.value
        if isinstance(root, ast.Name):
            self._change_in_place(root.id, env)

    def _augassign(self, stmt: ast.AugAssign, scope: Scope) -> None:
        env = scope.env
        if not isinstance(stmt.target, ast.Name):
            self._expr(stmt.value, env)
            self._store_into(stmt.target, UNKNOWN, env)
            return
        name = stmt.target.id
        old = self._name(name, env)
        new = self._expr(ast.BinOp(stmt.target, stmt.op, stmt.value), env)
        if isinstance(old, (ListVal, DictVal)):  # ``xs += ys``, ``d |= e``: in place, every alias sees it
            self._replace_list(name, old, ListVal(new) if isinstance(old, ListVal) and isinstance(new, tuple) else UNKNOWN,
                               env)
        elif isinstance(old, HostTensor):  # in place: the tensor keeps its shape, dtype and strides
            keeps = isinstance(new, HostTensor) and new.shape == old.shape and new.dtype == old.dtype \
                and old.shape is not None and old.dtype is not None
            self._bind_name(name, old if keeps else UNKNOWN, env)
        else:
            self._bind_name(name, new, env)

    def _if(self, stmt: ast.If, scope: Scope) -> None:
        known = truth(self._expr(stmt.test, scope.env))
        if known is not None:
            self._block(stmt.body if known else stmt.orelse, scope)
            return
        dependent = depends(stmt.test, scope.env)
        self._branches([stmt.body, stmt.orelse], scope, dependent)

    def _branches(self, bodies: Sequence[Sequence[ast.stmt]], scope: Scope, dependent: bool,
                  maybe: Sequence[bool] | None = None) -> None:
        results: list[Scope] = []
        for i, body in enumerate(bodies):
            branch = scope.branch(dependent or bool(maybe and maybe[i]))
            self._block(body, branch)
            results.append(branch)
        self._merge(scope, results, dependent)

    def _with(self, stmt: ast.With | ast.AsyncWith, scope: Scope) -> None:
        for item in stmt.items:
            self._expr(item.context_expr, scope.env)
            if item.optional_vars is not None:
                self._assign(item.optional_vars, UNKNOWN, scope.env)
        self._block(stmt.body, scope)


_HANDLERS: Final[dict[type, str]] = {
    ast.Assign: "_assign_stmt", ast.AnnAssign: "_assign_stmt", ast.AugAssign: "_augassign", ast.If: "_if",
    ast.For: "_for", ast.AsyncFor: "_for", ast.While: "_while", ast.Try: "_try", ast.With: "_with",
    ast.AsyncWith: "_with", ast.Match: "_match", ast.FunctionDef: "_def", ast.AsyncFunctionDef: "_def",
    ast.ClassDef: "_class",
}
if hasattr(ast, "TryStar"):  # ``except*`` (3.11)
    _HANDLERS[ast.TryStar] = "_try"
