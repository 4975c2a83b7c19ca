"""Host code evaluation: the torch tensors (shape, strides, dtype) at each call of a jit kernel.

Walks a module's host code in program order with :mod:`ast` (no mypy, no torch): module level,
then every function with the module's final bindings. Branches merge (a name that differs
becomes unknown), loops over constant sequences run once per item (each item gives its own
call sites), other loops run once with their target unknown. A call of a module-level host
helper with at least one known argument walks the helper's body with those arguments, one level
deep; a factory (a function that defines a jit kernel and returns it) gives a kernel value whose
calls are call sites too. Objects changed in place are followed (list edits) or forgotten
(:mod:`mutation`). Torch is recognised by its imported names only; expressions: :mod:`expressions`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from . import mutation
from .ast_facts import bound_names as _bound_names
from .ast_facts import factory_kernel
from .ast_facts import StoredNames
from .call_arguments import positional
from .expressions import MAX_ITEMS, Env, ExpressionEvaluator
from .module_facts import ModuleFacts, scan
from .values import FLOAT32, UNKNOWN, Defined, DType, KernelRef, Value

_MAX_STATEMENTS: Final = 100_000  # statements walked per module (constant loops multiply them)


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class CallSite:
    """One call of a kernel with the values of its arguments (UNKNOWN where unproven)."""

    kernel: str
    line: int
    column: int
    args: tuple[Value, ...]
    keywords: tuple[tuple[str, Value], ...]
    via: tuple[str, ...] = ()  # host helpers walked to reach it ("run_case at line 40")
    star_args: bool = False  # *args / **kwargs at the call: the argument list is not known
    # The names in scope at the call (a kernel defined in the calling function reads them).
    env: Mapping[str, Value] = field(default_factory=dict, compare=False, hash=False)
    # Each positional argument as written, for notes in the user's own names ("pass xt.contiguous()").
    arg_texts: tuple[str, ...] = field(default=(), compare=False, hash=False)


@dataclass
class _Scope:
    env: Env
    via: tuple[str, ...] = ()
    depth: int = 0


@dataclass
class HostEvaluator(ExpressionEvaluator):
    """``kernel_name(callee)`` says whether a call's callee is a jit kernel (and its name)."""

    tree: ast.Module
    kernel_name: Callable[[ast.expr], str | None]
    sites: list[CallSite] = field(default_factory=list)
    _torch: dict[str, str] = field(default_factory=dict)  # local name -> "torch" / "torch.randn"
    _math: dict[str, str] = field(default_factory=dict)  # local name -> "math" / "math.sqrt"
    _helpers: dict[str, ast.FunctionDef] = field(default_factory=dict)
    _default_float: DType | None = FLOAT32
    _module_env: Env = field(default_factory=dict)  # the module's bindings (final once walked)
    _budget: int = _MAX_STATEMENTS
    _changed_elsewhere: set[str] = field(default_factory=set)  # see mutation.ChangedElsewhere
    _pypto: set[str] = field(default_factory=set)  # local names of the pypto module
    _factories: dict[str, tuple[ast.FunctionDef, str]] = field(default_factory=dict)  # name -> (def, kernel)
    _pypto_dtypes: dict[str, str] = field(default_factory=dict)  # ``from pypto import DT_FP16 as h``
    facts: ModuleFacts | None = None  # the module's scan, when the caller made it already
    _calls_of: dict[int, list[ast.Call]] = field(default_factory=dict)  # see ModuleFacts.calls_of
    _kernel_holders: frozenset[int] = frozenset()  # see ModuleFacts.kernel_holders
    _stored: StoredNames = field(default_factory=StoredNames)

    def call_sites(self) -> list[CallSite]:
        """Every call site found (each sound on its own; a module past the work budget gives
        the ones found until then)."""
        if self._scan_module():
            self._find_factories()
        module = _Scope(self._module_env)
        try:
            self._block(self.tree.body, module)
            for func in self._functions(self.tree.body):
                self._function(func, _Scope(dict(module.env)))
        except _OutOfBudget:
            pass
        unique: dict[CallSite, None] = dict.fromkeys(self.sites)
        return list(unique)

    # ---- module facts ------------------------------------------------------------------------

    def _scan_module(self) -> bool:
        """Imports, helpers, each statement's calls, names changed from functions; and whether a
        jit kernel is defined inside a function (:func:`module_facts.scan`)."""
        facts = self.facts if self.facts is not None else scan(self.tree)
        self._kernel_holders = facts.kernel_holders
        self._torch.update(facts.torch)
        self._math.update(facts.math)
        self._pypto.update(facts.pypto)
        self._pypto_dtypes.update(facts.pypto_dtypes)
        self._calls_of = facts.calls_of
        self._changed_elsewhere = facts.changed_elsewhere
        for stmt in self.tree.body:
            if isinstance(stmt, ast.FunctionDef) and self.kernel_name(ast.Name(stmt.name)) is None:
                self._helpers[stmt.name] = stmt
        if self._torch and any(self._qualname(n.func) == "torch.set_default_dtype" for n in facts.default_dtype_calls):
            self._default_float = None  # the default float dtype is changed somewhere
        return bool(facts.nested_kernels)

    def _find_factories(self) -> None:
        for name, func in self._helpers.items():
            if id(func) not in self._kernel_holders:
                continue  # defines no jit kernel (the scan saw every nested one)
            made = factory_kernel(func)
            if made is not None:
                self._factories[name] = (func, made)

    def _functions(self, body: Sequence[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield stmt
            elif isinstance(stmt, ast.ClassDef):
                yield from self._functions(stmt.body)

    # ---- statements --------------------------------------------------------------------------

    def _function(self, func: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope) -> None:
        if self.kernel_name(ast.Name(func.name)) is not None:
            return  # a kernel body is device code
        args = func.args
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            scope.env[a.arg] = UNKNOWN
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                scope.env[extra.arg] = UNKNOWN
        self._block(func.body, scope)
        for inner in self._functions(func.body):
            self._function(inner, _Scope(dict(scope.env), scope.via, scope.depth))

    def _block(self, body: Sequence[ast.stmt], scope: _Scope) -> None:
        for stmt in body:
            self._stmt(stmt, scope)

    def _stmt(self, stmt: ast.stmt, scope: _Scope) -> None:
        self._budget -= 1
        if self._budget < 0:
            raise _OutOfBudget
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope.env[stmt.name] = Defined(id(stmt)) if isinstance(stmt, ast.FunctionDef) else UNKNOWN
            return
        if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)):
            self._compound(stmt, scope)
            return
        exact = mutation.followed(stmt, scope.env, lambda e: self._expr(e, scope.env))
        old = scope.env.get(stmt.target.id) if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) else None
        calls = self._calls_of.get(id(stmt), [])
        self._calls_in(stmt, scope, calls)
        if isinstance(stmt, ast.Assign):
            value = self._expr(stmt.value, scope.env)
            for target in stmt.targets:
                self._bind(target, value, scope.env)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self._bind(stmt.target, self._expr(stmt.value, scope.env), scope.env)
        elif isinstance(stmt, ast.AugAssign):
            self._bind(stmt.target, self._expr(ast.BinOp(stmt.target, stmt.op, stmt.value), scope.env), scope.env)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                name = (alias.asname or alias.name).split(".")[0]
                if name not in self._torch and name not in self._pypto_dtypes:
                    scope.env[name] = UNKNOWN
        elif isinstance(stmt, (ast.Global, ast.Nonlocal, ast.Delete)):
            for name in _bound_names(stmt):
                scope.env[name] = UNKNOWN
        for name in mutation.mutated(stmt, calls):
            mutation.forget_object(name, scope.env)
        if old is not None and isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            mutation.forget_aliases(old, stmt.target.id, scope.env)  # ``dims += [1]`` extends a list in place
        if exact is not None:
            scope.env[exact[0]] = UNKNOWN if exact[0] in self._changed_elsewhere else exact[1]

    def _compound(self, stmt: ast.stmt, scope: _Scope) -> None:
        if isinstance(stmt, ast.If):
            self._calls_in(stmt.test, scope)
            test = self._expr(stmt.test, scope.env)
            if type(test) in (bool, int):
                self._block(stmt.body if test else stmt.orelse, scope)
                return
            self._branches([stmt.body, stmt.orelse], scope)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            self._loop(stmt, scope)
        elif isinstance(stmt, ast.While):
            self._calls_in(stmt.test, scope)
            self._forget(stmt, scope.env)
            self._block(stmt.body, scope)
            self._block(stmt.orelse, scope)
            self._forget(stmt, scope.env)
        elif isinstance(stmt, ast.Try):
            self._forget(stmt, scope.env)
            bodies = [stmt.body + stmt.orelse, *[h.body for h in stmt.handlers]]
            self._branches(bodies, scope)
            self._block(stmt.finalbody, scope)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self._calls_in(item.context_expr, scope)
                if item.optional_vars is not None:
                    self._bind(item.optional_vars, UNKNOWN, scope.env)
            self._block(stmt.body, scope)

    def _branches(self, bodies: Sequence[Sequence[ast.stmt]], scope: _Scope) -> None:
        results: list[Env] = []
        for body in bodies:
            branch = _Scope(dict(scope.env), scope.via, scope.depth)
            self._block(body, branch)
            results.append(branch.env)
        for name in {n for body in bodies for stmt in body for n in self._stored(stmt)}:
            values = [env.get(name, UNKNOWN) for env in results]
            scope.env[name] = values[0] if all(v == values[0] for v in values) else UNKNOWN

    def _loop(self, stmt: ast.For | ast.AsyncFor, scope: _Scope) -> None:
        self._calls_in(stmt.iter, scope)
        items = self._expr(stmt.iter, scope.env)
        if isinstance(items, tuple) and 0 < len(items) <= MAX_ITEMS:
            before = dict(scope.env)
            for item in items:
                run = _Scope(dict(before), scope.via, scope.depth)
                self._bind(stmt.target, item, run.env)
                self._block(stmt.body, run)
        else:
            self._forget(stmt, scope.env)
            self._block(stmt.body, scope)
        self._forget(stmt, scope.env)
        self._block(stmt.orelse, scope)

    def _forget(self, stmt: ast.stmt, env: Env) -> None:
        """Every name a loop or try may rebind is unknown after it (and on a later iteration)."""
        for name in self._stored(stmt):
            env[name] = UNKNOWN

    def _bind(self, target: ast.expr, value: Value, env: Env) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = UNKNOWN if target.id in self._changed_elsewhere else value
        elif isinstance(target, (ast.Tuple, ast.List)):
            starred = any(isinstance(e, ast.Starred) for e in target.elts)
            if isinstance(value, tuple) and len(value) == len(target.elts) and not starred:
                for elt, item in zip(target.elts, value):
                    self._bind(elt, item, env)
            else:
                for elt in target.elts:
                    self._bind(elt.value if isinstance(elt, ast.Starred) else elt, UNKNOWN, env)
        # attribute / subscript targets change objects we do not follow

    # ---- kernel calls and helper calls -------------------------------------------------------

    def _calls_in(self, node: ast.AST, scope: _Scope, calls: list[ast.Call] | None = None) -> None:
        for call in self._calls_of.get(id(node), []) if calls is None else calls:
            name = self.kernel_name(call.func)
            ref = self._made_kernel(call.func, scope.env) if name is None else None
            if name is not None:
                self._record(name, call, scope)
            elif ref is not None:
                self._record(ref.kernel, call, scope, ref.env)
            elif (isinstance(call.func, ast.Name) and call.func.id in self._helpers and scope.depth == 0
                  and call.func.id not in self._factories):
                self._helper(self._helpers[call.func.id], call, scope)

    def _made_kernel(self, callee: ast.expr, env: Env) -> KernelRef | None:
        """``k(...)`` with ``k = make_kernel(...)``, or ``make_kernel(...)(...)``."""
        if isinstance(callee, ast.Name):
            value = env.get(callee.id)
            return value if isinstance(value, KernelRef) else None
        if isinstance(callee, ast.Call) and self._factory_name(callee.func, env) is not None:
            value = self._expr(callee, env)
            return value if isinstance(value, KernelRef) else None
        return None

    def _factory_name(self, callee: ast.expr, env: Env) -> str | None:
        """``make_kernel`` when the name is bound to the module's factory of that name."""
        if not isinstance(callee, ast.Name) or callee.id not in self._factories:
            return None
        return callee.id if env.get(callee.id) == Defined(id(self._factories[callee.id][0])) else None

    def _factory(self, name: str, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
        """A factory call: its body walked with the arguments (one level), the kernel it returns
        with the factory's names at the end."""
        func, kernel = self._factories[name]
        params = [*func.args.posonlyargs, *func.args.args]
        if func.args.vararg is not None or len(args) > len(params):
            return KernelRef(f"{name}.{kernel}")
        env: Env = dict(self._module_env)
        for p in [*params, *func.args.kwonlyargs]:
            env[p.arg] = UNKNOWN
        defaults = func.args.defaults
        for p, default in zip(params[len(params) - len(defaults):], defaults):
            env[p.arg] = self._expr(default, env)
        for p, value in zip(params, args):
            env[p.arg] = value
        env.update(kwargs)
        body = _Scope(env, (), 1)
        self._block(func.body, body)
        return KernelRef(f"{name}.{kernel}", body.env)

    def _record(self, name: str, call: ast.Call, scope: _Scope, closure: Mapping[str, Value] | None = None) -> None:
        args = positional(call, lambda e: self._expr(e, scope.env))
        self.sites.append(CallSite(
            kernel=name,
            line=call.lineno,
            column=call.col_offset,
            args=args.values,
            keywords=tuple((k.arg, self._expr(k.value, scope.env)) for k in call.keywords if k.arg is not None),
            via=scope.via,
            star_args=args.unknown_spread or any(k.arg is None for k in call.keywords),
            env=dict(scope.env) if closure is None else closure,
            arg_texts=args.texts,
        ))

    def _helper(self, func: ast.FunctionDef, call: ast.Call, scope: _Scope) -> None:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return
        params = [*func.args.posonlyargs, *func.args.args]
        if len(call.args) > len(params):
            return
        env: Env = dict(self._module_env)
        for p in [*params, *func.args.kwonlyargs]:
            env[p.arg] = UNKNOWN
        defaults = func.args.defaults
        for p, default in zip(params[len(params) - len(defaults):], defaults):
            env[p.arg] = self._expr(default, env)
        for p, kw_default in zip(func.args.kwonlyargs, func.args.kw_defaults):
            if kw_default is not None:
                env[p.arg] = self._expr(kw_default, env)
        known = False
        for p, a in zip(params, call.args):
            env[p.arg] = self._expr(a, scope.env)
            known = known or env[p.arg] is not UNKNOWN
        for k in call.keywords:
            if k.arg is not None:
                env[k.arg] = self._expr(k.value, scope.env)
                known = known or env[k.arg] is not UNKNOWN
        if known:
            self._block(func.body, _Scope(env, (*scope.via, f"{func.name} at line {call.lineno}"), scope.depth + 1))
