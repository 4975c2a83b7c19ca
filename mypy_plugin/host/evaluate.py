"""Host code evaluation: the torch tensors (shape, strides, dtype) at each call of a jit kernel.

Walks a module's host code in program order with :mod:`ast` (no mypy, no torch): module level,
then every function that may reach a kernel call (:mod:`reach`) with the module's final bindings
(a name the module binds to two values is unknown there: a function may run before the second),
then pytest's calls of the tests (:mod:`pytest_cases`). Control flow: :mod:`statements`;
expressions: :mod:`expressions`. A call of a host helper (module-level with a known argument or
none, or nested in the calling function) walks the helper's body with those arguments and the
bindings at the call, to a bounded depth (:mod:`helper_calls`); a factory (a function that
defines a jit kernel and returns it) gives a kernel value whose calls are call sites too. A
kernel's annotations are read when its ``def`` runs. Lists changed in place are followed (``append``, ``xs[i] = v``) or
forgotten, with every alias (:mod:`mutation`). Torch is recognised by its imported names only.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from ..ast_fields import all_nodes
from .ast_facts import StoredNames, attribute_kernels, factory_kernel, is_jit
from .call_arguments import as_receiver
from .env import Env
from .expressions import NO_EFFECT, Args
from .helper_calls import HelperCalls
from .module_facts import ModuleFacts, scan
from .mutation import follow_list, mutating_root
from .pytest_cases import Fixture, PytestCalls, fixture_of, skipping
from .reach import reaching
from .scopes import Frame, OutOfBudget, Scope, same
from .statements import StatementWalker
from .unknown_causes import cause
from .values import FLOAT32, OBJECTS, UNKNOWN, Defined, DictVal, HostTensor, KernelRef, ListVal, PytestParam, \
    TorchDType, Value

_MAX_STATEMENTS: Final = 100_000  # statements walked per module (constant loops multiply them)


@dataclass(frozen=True)
class CallSite:
    """One call of a kernel with the values of its arguments (UNKNOWN where unproven)."""

    kernel: str
    line: int
    column: int
    args: tuple[Value, ...]
    keywords: tuple[tuple[str, Value], ...]
    via: tuple[str, ...] = ()  # host helpers walked to reach it ("run_case at line 40")
    # *args / **kwargs at the call, or a call that runs only under a condition that may depend on
    # the known values: the argument list is not known
    star_args: bool = False
    # The names the kernel's annotations read, as bound when its ``def`` ran (shared by every
    # call of that definition: a site costs its arguments, not its scope).
    env: Mapping[str, Value] = field(default_factory=dict, compare=False, hash=False)
    # Each positional argument as written, for notes in the user's own names ("pass xt.contiguous()").
    arg_texts: tuple[str, ...] = field(default=(), compare=False, hash=False)
    # The callee is not the kernel's own name (a variable, a partial): mypy sees no kernel there
    indirect: bool = field(default=False, compare=False, hash=False)
    end: tuple[int, int] | None = field(default=None, compare=False, hash=False)  # the call's end line, column
    unknown: str = field(default="", compare=False, hash=False)  # why arguments are unknown (unknown_causes)


@dataclass
class HostEvaluator(HelperCalls, StatementWalker, PytestCalls):
    """``kernel_name(callee)`` says whether a call's callee is a jit kernel (and its name)."""

    tree: ast.Module
    kernel_name: Callable[[ast.expr], str | None]
    sites: list[CallSite] = field(default_factory=list)
    facts: ModuleFacts | None = None  # the module's scan, when the caller made it already
    default_dtype_changed: bool = False  # elsewhere (a conftest.py the tests load)
    constant: Callable[[str, str], Value] = lambda module, name: UNKNOWN  # another module's constant
    conftests: Sequence[ast.Module] = ()  # the conftest.py files pytest loads for this module, nearest last
    _torch: dict[str, str] = field(default_factory=dict)
    _math: dict[str, str] = field(default_factory=dict)
    _numpy: dict[str, str] = field(default_factory=dict)
    _pypto: set[str] = field(default_factory=set)
    _pypto_dtypes: dict[str, str] = field(default_factory=dict)
    _default_float: TorchDType | None = FLOAT32
    _helpers: dict[str, ast.FunctionDef] = field(default_factory=dict)  # module-level host functions
    _defs: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)  # id -> def walked
    _def_frames: dict[int, Frame] = field(default_factory=dict)  # id -> the frame its def ran in
    _factories: dict[str, tuple[ast.FunctionDef, str]] = field(default_factory=dict)  # name -> (def, kernel)
    _module_env: Env = field(default_factory=Env)
    _module_frame: Frame = field(default_factory=Frame)
    _globals: Env | None = None  # what functions see: the module's final bindings, rebound ones unknown
    _budget: int = _MAX_STATEMENTS
    _changed_elsewhere: set[str] = field(default_factory=set)  # see mutation.ChangedElsewhere
    _changes_params: dict[str, tuple[frozenset[int], frozenset[str]]] = field(default_factory=dict)
    _imported: set[str] = field(default_factory=set)  # names bound by ``import``: modules, never lists
    _module_names: dict[int, str] = field(default_factory=dict)  # id of ``import k``'s alias -> "k"
    _attr_targets: set[str] = field(default_factory=set)  # names whose attributes the module sets
    _partial: set[str] = field(default_factory=set)
    _attr_kernels: dict[str, str] = field(default_factory=dict)  # attribute -> the kernel it holds
    _stored: StoredNames = field(default_factory=StoredNames)
    _silence: int = 0
    _stale: dict[int, Value] = field(default_factory=dict)
    _replaced: dict[int, Value] = field(default_factory=dict)
    _scope: Scope = field(default_factory=lambda: Scope(Env()))
    _yielding: frozenset[int] = frozenset()  # ids of functions with a yield of their own
    _facts: ModuleFacts = field(default_factory=ModuleFacts)
    _reaching: set[int] = field(default_factory=set)  # ids of the functions walked on their own (reach.py)
    _entered: list[int] = field(default_factory=list)  # helpers being walked with a call's arguments

    def call_sites(self) -> list[CallSite]:
        """Every call site found (each sound on its own; a module past the work budget gives
        the ones found until then)."""
        self._scan_module()
        module = Scope(self._module_env, self._module_frame)
        self._scope = module
        try:
            self._block(self.tree.body, module)
            self._globals = Env(self._module_env, {name: UNKNOWN for name in module.frame.rebound})
            self._reaching = reaching(self.tree, self._facts, self.kernel_name, self._factories, self._attr_kernels,
                                      module.frame.bound, {*self._imported, *self._torch, *self._pypto})
            for func in self._functions(self.tree.body):
                if id(func) in self._reaching:
                    self._function(func, Scope(Env(self._globals)))
            self._pytest_calls(self._globals)
        except (OutOfBudget, RecursionError):
            pass
        return list(dict.fromkeys(self.sites))

    def _module_walk(self) -> Env:
        """Walk the module's top level only: the names its functions see (a conftest's fixtures)."""
        self._scan_module()
        module = Scope(self._module_env, self._module_frame)
        self._scope = module
        try:
            self._block(self.tree.body, module)
        except (OutOfBudget, RecursionError):
            pass
        self._globals = Env(self._module_env, {name: UNKNOWN for name in module.frame.rebound})
        return self._globals

    def _conftest_fixtures(self) -> dict[str, Fixture]:
        out: dict[str, Fixture] = {}
        for tree in self.conftests:  # farthest first: a nearer conftest overrides
            other = HostEvaluator(tree, lambda _callee: None, default_dtype_changed=self.default_dtype_changed,
                                  constant=self.constant)
            env = other._module_walk()
            for name, fixture in (f for f in map(fixture_of, tree.body) if f is not None):
                out[name] = replace(fixture, owner=other, env=env)
        return out

    # ---- module facts ------------------------------------------------------------------------

    def _scan_module(self) -> None:
        facts = self._facts = self.facts if self.facts is not None else scan(self.tree)
        self._torch.update(facts.torch)
        self._math.update(facts.math)
        self._numpy.update(facts.numpy)
        self._pypto.update(facts.pypto)
        self._pypto_dtypes.update(facts.pypto_dtypes)
        self._changed_elsewhere = facts.changed_elsewhere
        self._changes_params = facts.changes_params
        for stmt in self.tree.body:
            if isinstance(stmt, ast.FunctionDef) and not is_jit(stmt) and self.kernel_name(ast.Name(stmt.name)) is None:
                self._helpers[stmt.name] = stmt
                if id(stmt) in facts.kernel_holders:
                    made = factory_kernel(stmt)
                    if made is not None:
                        self._factories[stmt.name] = (stmt, made)
        self._attr_kernels = attribute_kernels(facts.attribute_values, self.kernel_name)
        self._attr_targets = facts.attribute_targets
        self._yielding = facts.generators
        if facts.default_dtype_changed or self.default_dtype_changed:
            self._default_float = None  # the default float dtype is changed somewhere

    def _functions(self, body: Sequence[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield stmt
            elif isinstance(stmt, ast.ClassDef):
                yield from self._functions(stmt.body)

    # ---- definitions -------------------------------------------------------------------------

    def _function(self, func: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        """A function walked on its own (called from anywhere): its parameters unknown."""
        if is_jit(func) or self.kernel_name(ast.Name(func.name)) is not None:
            return  # a kernel body is device code
        args = func.args
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                scope.env[a.arg] = UNKNOWN
        scope.func = func
        self._block(func.body, scope)
        closure = Env(scope.env, {name: UNKNOWN for name in scope.frame.rebound})
        for inner in self._functions(func.body):
            self._function(inner, Scope(Env(closure), via=scope.via, depth=scope.depth))

    def _def(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        if isinstance(stmt, ast.FunctionDef) and (is_jit(stmt) or self.kernel_name(ast.Name(stmt.name)) is not None):
            # the annotations are evaluated now, with the names bound now
            names = {n.id for a in _params(stmt) if a.annotation is not None
                     for n in all_nodes(a.annotation) if isinstance(n, ast.Name)}
            read = {n: self._name(n, scope.env) for n in sorted(names)}
            # the module's own kernel by its name; a nested one is not found by name elsewhere
            label = f"{scope.factory}.{stmt.name}" if scope.factory else stmt.name if scope.frame is self._module_frame \
                else f"<nested>.{stmt.name}"
            self._bind_name(stmt.name, KernelRef(label, read), scope.env)
            return
        self._defs[id(stmt)] = stmt
        self._def_frames[id(stmt)] = scope.frame
        self._bind_name(stmt.name, Defined(id(stmt)), scope.env)

    def _class(self, stmt: ast.ClassDef, scope: Scope) -> None:
        self._bind_name(stmt.name, UNKNOWN, scope.env)

    def _name(self, name: str, env: Env) -> Value:
        value = super()._name(name, env)
        if value is UNKNOWN and (name not in env or name in self._imported) and self.kernel_name(ast.Name(name)):
            return KernelRef(name)  # an imported kernel, or one the walk has not bound
        return value

    def _attribute(self, node: ast.Attribute, env: Env) -> Value:
        value = super()._attribute(node, env)
        if value is UNKNOWN and self._module_path(node, env):
            name = self.kernel_name(node)
            if name is not None:
                return KernelRef(name)  # ``mod.k`` / ``pkg.mod.k`` as a value: ``{"k": mod.k}``
        return value

    def _module_path(self, node: ast.expr, env: Env) -> bool:
        """A chain of attributes on a name the walk has not bound: an imported module, not a value."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and (node.id not in env or node.id in self._imported)

    def _bind_name(self, name: str, value: Value, env: Env) -> None:
        if name in self._changed_elsewhere:
            value = UNKNOWN
        frame = self._scope.frame
        if name in frame.bound:
            if not same(env.get(name, UNKNOWN), value):
                frame.rebound.add(name)
        else:
            frame.bound.add(name)
        env[name] = value

    # ---- calls -------------------------------------------------------------------------------

    def _effect(self, node: ast.Call, callee: Value, receiver: Value, args: Args, env: Env) -> object:
        name = self.kernel_name(node.func)
        if name is None and isinstance(node.func, ast.Attribute) and node.func.attr in self._attr_kernels:
            held = self._attr_kernels[node.func.attr]  # ``self.kernel(...)``: the one kernel that attribute holds
            found = self._name(held, self._module_env)
            callee = found if isinstance(found, KernelRef) else KernelRef(held)
        if name is not None or isinstance(callee, KernelRef):
            ref = callee if isinstance(callee, KernelRef) else None
            if ref is not None and (ref.bound or ref.bound_keywords):
                args = Args([*ref.bound, *args.values], [*(None for _ in ref.bound), *args.nodes], args.unknown_spread,
                            {**dict(ref.bound_keywords), **args.kwargs})
            self._record(name or (ref.kernel if ref else ""), node, args, ref.env if ref else {}, indirect=name is None)
            return UNKNOWN
        if _text(node.func) in self._facts.pytest_param and not args.unknown_spread:
            case_id = args.kwargs.get("id")
            return PytestParam(tuple(args.values), _skips(node), case_id if isinstance(case_id, str) else None)
        if self._is_partial(node.func) and args.values and isinstance(args.values[0], KernelRef) \
                and not args.unknown_spread:
            ref = args.values[0]
            return KernelRef(ref.kernel, ref.env, (*ref.bound, *args.values[1:]),
                             (*ref.bound_keywords, *args.kwargs.items()))
        factory = self._factory_name(node.func, env)
        if factory is not None:
            return self._factory(factory, args)
        if isinstance(node.func, ast.Attribute):
            return self._method_effect(node, node.func, receiver, args, env)
        if isinstance(callee, Defined):
            return self._call_function(node, callee, args, env)
        return NO_EFFECT

    def _method_effect(self, node: ast.Call, func: ast.Attribute, receiver: Value, args: Args, env: Env) -> object:
        root = mutating_root(node)
        if root is None:
            if not (isinstance(func.value, ast.Name) and (func.value.id in self._imported or func.value.id in self._torch
                                                         or func.value.id in self._pypto)):
                self._may_change(args)  # an object's method may change a list it is given
            return NO_EFFECT
        if isinstance(func.value, ast.Name) and isinstance(receiver, ListVal) and not args.unknown_spread:
            followed = follow_list(receiver, func.attr, args.values, args.kwargs)
            if followed is not None:
                self._replace_list(func.value.id, receiver, ListVal(followed[0]), env)
                return followed[1]
        self._change_in_place(root, env)
        return NO_EFFECT

    def _may_change(self, args: Args, only: Callable[[int, str | None], bool] | None = None) -> None:
        """The call may change arguments in place: a list given to an object's method (any), or
        the parameters a module function changes (``only``: position, keyword)."""
        items: list[tuple[int, str | None, Value]] = [(i, None, v) for i, v in enumerate(args.values)]
        items += [(-1, k, v) for k, v in args.kwargs.items()]
        for i, key, v in items:
            if isinstance(v, (ListVal, DictVal)) if only is None else isinstance(v, OBJECTS) and only(i, key):
                self._stale[id(v)] = v

    def _record(self, name: str, node: ast.Call, args: Args, closure: Mapping[str, Value], indirect: bool = False
                ) -> None:
        silenced = self._silence > 0 or self._scope.maybe
        values = tuple(UNKNOWN for _ in args.values) if silenced else tuple(args.values)
        self.sites.append(CallSite(
            kernel=name,
            line=node.lineno,
            column=node.col_offset,
            args=values,
            keywords=tuple((k, UNKNOWN if silenced else v) for k, v in args.kwargs.items()),
            via=self._scope.via,
            star_args=args.unknown_spread or silenced,
            env=closure,
            arg_texts=tuple(as_receiver(n) if n is not None and isinstance(v, HostTensor) else ""
                            for n, v in zip(args.nodes, values)),
            indirect=indirect,
            end=(node.end_lineno, node.end_col_offset) if node.end_lineno is not None and node.end_col_offset is not None
            else None,
            unknown=cause(args.nodes, args.values, spread=args.unknown_spread, silenced=silenced, func=self._scope.func),
        ))


def _text(func: ast.expr) -> str:
    """``a`` or ``a.b`` as written."""
    if isinstance(func, ast.Name):
        return func.id
    return f"{func.value.id}.{func.attr}" if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""


def _skips(call: ast.Call) -> bool:
    """A ``pytest.param`` whose ``marks=`` may skip it (``skip``, ``skipif``, ``xfail(run=False)``)."""
    marks = next((k.value for k in call.keywords if k.arg == "marks"), None)
    return marks is not None and skipping(marks)


def _params(func: ast.FunctionDef) -> list[ast.arg]:
    a = func.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x is not None)]


