"""The mypy Plugin: maps fullnames to hooks, and nothing else."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mypy.nodes import MypyFile
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import AnyType, FunctionLike, Type, TypeOfAny

# errorcodes: creating the pypto-* codes registers them, before mypy reads enable_error_code.
from . import config, errorcodes  # noqa: F401
from .calls import conftests, module_sources
from .debug import degrade
from .hooks import module_options
from .knowledge import frontend
from .lazy_modules import lazy
from .rewrite import module_marker, native_parse, parse_count
from .rewrite.markers import MARKER_FULLNAME, analyze_marker
from .rewrite.transform import transform_source

if TYPE_CHECKING:
    from .bridge import tensor_types
    from .calls import call_sites, cross_module, helpers
    from .hooks import (
        attributes, builtin_minmax, call_forms, container_reads, jit_options, kernel_calls, op_calls, scalar_minmax,
        unpacked_options,
    )
    from .hooks import annotations as tensor_annotations
    from .hooks import session as hook_session
    from .kernel import decorators
    from .knowledge import members, ops
else:
    # The checks, imported when a hook first reads them: a warm run, which checks nothing, does
    # not pay for importing them (lazy_modules.py). What every run uses is imported above.
    tensor_types = lazy("mypy_plugin.bridge.tensor_types")
    call_sites = lazy("mypy_plugin.calls.call_sites")
    cross_module = lazy("mypy_plugin.calls.cross_module")
    helpers = lazy("mypy_plugin.calls.helpers")
    attributes = lazy("mypy_plugin.hooks.attributes")
    builtin_minmax = lazy("mypy_plugin.hooks.builtin_minmax")
    call_forms = lazy("mypy_plugin.hooks.call_forms")
    container_reads = lazy("mypy_plugin.hooks.container_reads")
    jit_options = lazy("mypy_plugin.hooks.jit_options")
    kernel_calls = lazy("mypy_plugin.hooks.kernel_calls")
    op_calls = lazy("mypy_plugin.hooks.op_calls")
    scalar_minmax = lazy("mypy_plugin.hooks.scalar_minmax")
    hook_session = lazy("mypy_plugin.hooks.session")
    unpacked_options = lazy("mypy_plugin.hooks.unpacked_options")
    tensor_annotations = lazy("mypy_plugin.hooks.annotations")
    decorators = lazy("mypy_plugin.kernel.decorators")
    members = lazy("mypy_plugin.knowledge.members")
    ops = lazy("mypy_plugin.knowledge.ops")


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_PLUGIN_FINGERPRINT: Final = _fingerprint()


def _version_stamp(options: dict[str, Any]) -> str:
    text = json.dumps(options, sort_keys=True)
    return f"{_PLUGIN_FINGERPRINT}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


_NEVER_KERNELS: Final = ("builtins.", "typing.", "pypto.", "torch.", "numpy.", "collections.", "os.")


def _any_type(ctx: AnalyzeTypeContext) -> Type:
    return AnyType(TypeOfAny.special_form)


def _analyze_marker(ctx: AnalyzeTypeContext) -> Type:
    try:
        return analyze_marker(ctx)
    except Exception as err:  # never crash mypy (and a fallback that cannot raise)
        degrade(err)
        return AnyType(TypeOfAny.from_error)


class PyptoPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        try:
            self.config = config.load(options.config_file)
        except config.ConfigError as err:
            # Like mypy's own config errors: one line, exit status 2, no traceback.
            sys.stderr.write(f"{options.config_file}: error: {err}\n")
            raise SystemExit(2) from None
        self._session: hook_session.Session | None = None  # made when a hook first needs it
        self._helpers: helpers.HelperCalls | None = None
        config.activate(self.config)
        module_sources.use_cache_dir(options.cache_dir if options.incremental else None)
        # `dmypy run` loads the plugin again on each run and restarts when a plugin module's
        # __version__ differs from the running one's (mypy's plugins snapshot): so a changed
        # [pypto-stubs] option, or plugin code, restarts the daemon instead of going unseen.
        package = sys.modules.get(__package__ or "mypy_plugin")
        if package is not None:
            setattr(package, "__version__", _version_stamp(self.config.to_json()))
        self._function_hooks: dict[str, Callable[[FunctionContext], Type] | None] = {}
        self._method_hooks: dict[str, Callable[[MethodContext], Type] | None] = {}
        self._call_hooks: dict[str, Callable[[FunctionContext], Type] | None] = {}
        self._kernel_names: dict[str, bool] = {}  # _may_be_kernel's answers (same life as _call_hooks)
        self._lookups_at = -1  # the parse both were kept since (_lookups_since_last_parse)
        self._pypto_in_build = False  # once seen, the hooks stay (without_pypto)
        # Tensor annotations in the call form are lost by the parser: rewrite them before it
        # runs, on every parse (cold, incremental, daemon, workers). mypy honours
        # transform_source only in its Python-ast parser; native_parse wraps the native one,
        # and when it cannot (other mypy internals) the Python-ast parser is forced instead.
        options.transform_source = transform_source
        if options.native_parser and not native_parse.enable(options):
            options.native_parser = False
        # allow_redefinition and check_untyped_defs, only for modules with tensor annotations or
        # that import pypto (module_marker.py). On the native parser those get their own copy of
        # the options from the rewrite; the Python-ast parser reads no rewritten `# mypy:` line.
        if not options.native_parser:
            module_options.prepare(options)
        self.module_options = module_options.ModuleOptions(options, self.config.allows_rebinding)
        self._config_data: dict[str, Any] = {"plugin": _PLUGIN_FINGERPRINT, **self.config.to_json()}

    @property
    def session(self) -> hook_session.Session:
        """What the hooks share (made at the first hook: a run that checks nothing needs none)."""
        if self._session is None:
            self._session = hook_session.Session(self.config)
        return self._session

    @property
    def _helper_calls(self) -> helpers.HelperCalls:
        if self._helpers is None:
            self._helpers = helpers.HelperCalls(self.session)
        return self._helpers

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        try:
            return conftests.additional_deps(file)  # a test module's conftests, analysed before it
        except Exception as err:
            degrade(err)
            return []

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        # The plugin's own code is part of the answer: a new version rechecks everything.
        # What a module's check read of other modules' sources: a changed source checks it again.
        sources = module_sources.config_data(ctx.id, ctx.is_check)
        return {**self._config_data, **sources}

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname in (tensor_types.TENSOR, "pypto.tensor"):  # `tensor` is the runtime alias
            return self._analyze_tensor
        if fullname == MARKER_FULLNAME:  # names the source rewrite writes (rewrite_markers.py)
            return self._analyze_marker
        if fullname.startswith("pypto.DT_"):
            # ``dim: pypto.DT_INT8``: a dtype value as a (scalar) parameter's annotation, as real
            # kernels write it; not a type, but not our business either.
            return _any_type
        return None

    def _analyze_marker(self, ctx: AnalyzeTypeContext) -> Type:
        if ctx.type.name == module_marker.ALIAS:  # a module that imports pypto (module_marker.py)
            self._apply_module_options(ctx)
        return _analyze_marker(ctx)

    def _apply_module_options(self, ctx: AnalyzeTypeContext) -> None:
        try:
            self.module_options.apply(ctx.api)
        except Exception as err:  # never crash mypy
            degrade(err)

    def _analyze_tensor(self, ctx: AnalyzeTypeContext) -> Type:
        self._apply_module_options(ctx)
        return tensor_annotations.analyze_tensor(ctx)

    def _without_pypto(self) -> bool:
        """No module of this build imports pypto: no tensor, kernel or helper exists, so every call,
        method and attribute hook would give mypy's own answer. A repository's other code then pays
        for none of them (the type-analyze hook stays: the rewrite's markers need it). The getters
        read the sticky flag before calling this: mypy asks them ~290,000 times on the public code."""
        modules = self._modules
        if modules is None or "pypto" in modules:
            self._pypto_in_build = modules is not None
            return False
        return True

    # mypy asks once per call expression: build each hook once per fullname.
    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if not self._pypto_in_build and self._without_pypto():
            return None
        if fullname not in self._function_hooks:
            self._function_hooks[fullname] = call_forms.wrap(fullname, self._function_hook(fullname))
        hook = self._function_hooks[fullname]
        if hook is None:
            # Not cached here: a daemon run may find the name bound to something else.
            return self._call_hook(fullname)
        return hook

    def _call_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        """A call of a jit kernel (host code), of a tensor helper (from a kernel), or of a kernel
        factory (its result is the runtime wrapper's callable)."""
        host_calls = self.config.host_calls
        if host_calls and fullname in call_sites.LOCAL_KERNELS:
            return call_sites.kernel_call_hook
        if host_calls and "." not in fullname and not fullname.startswith("<"):
            # a callee that is an expression or a variable: its type names it ("<list>" and the
            # like are mypy's displays and comprehensions, never a call of a kernel)
            return call_sites.indirect_call_hook
        if fullname.startswith(_NEVER_KERNELS) or "." not in fullname:
            return None
        # A function defined in the module its name names changes only when mypy parses that
        # module again (a daemon update parses what changed before analyzing it): its answer is
        # kept until the next parse. A name bound by an import (or not bound) is looked up each
        # time: refreshing the importer can rebind it with no parse of the importer.
        self._lookups_since_last_parse()
        if fullname in self._call_hooks:
            return self._call_hooks[fullname]
        try:
            sym = self.lookup_fully_qualified(fullname)
        except Exception as err:  # never crash mypy
            degrade(err)
            return None
        if sym is None:
            return None
        hook: Callable[[FunctionContext], Type] | None = None
        if host_calls and decorators.jit_kernel(sym.node) is not None:
            hook = call_sites.kernel_call_hook
        elif kernel_calls.is_factory(sym.node):  # (before helpers: a factory may take tensors too)
            hook = kernel_calls.factory_hook
        elif host_calls and (helpers.helper_function(sym.node) is not None or cross_module.may_be_helper(sym.node)):
            hook = self._helper_calls.hook
        if getattr(sym.node, "fullname", None) == fullname:
            self._call_hooks[fullname] = hook
        return hook

    def _lookups_since_last_parse(self) -> None:
        """Drop the kept lookups of function names when mypy has parsed a file since they were made."""
        if self._lookups_at != parse_count.last():
            self._call_hooks.clear()
            self._kernel_names.clear()
            self._lookups_at = parse_count.last()

    def get_function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        if not self._pypto_in_build and self._without_pypto():
            return None
        if fullname in builtin_minmax.NAMES:
            return builtin_minmax.signature_hook(fullname)
        if fullname == frontend.JIT:
            return jit_options.signature_hook if self.config.has_jit_keyword_rule else jit_options.accept_keywords
        if fullname.startswith("pypto."):
            # an options dict unpacked into a setter; the op functions read arguments by position
            return None if fullname in op_calls.FUNCTION_TABLE else unpacked_options.signature_hook
        return kernel_calls.signature_hook if self._may_be_kernel(fullname) else None

    def _may_be_kernel(self, fullname: str) -> bool:
        """A jit kernel's name: a module-level or imported one (looked up), or a bare name (a kernel
        defined in a function, or a variable: the hook looks at the callee itself)."""
        if "." not in fullname:
            return True
        if fullname.startswith(_NEVER_KERNELS):
            return False
        # As _call_hook: the answer for a function of the module its name names is kept until the
        # next parse; a name an import binds is looked up each time.
        self._lookups_since_last_parse()
        found = self._kernel_names.get(fullname)
        if found is not None:
            return found
        try:
            sym = self.lookup_fully_qualified(fullname)
        except Exception as err:  # never crash mypy
            degrade(err)
            return False
        found = sym is not None and decorators.jit_kernel(sym.node) is not None
        if sym is not None and getattr(sym.node, "fullname", None) == fullname:
            self._kernel_names[fullname] = found
        return found

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if not self._pypto_in_build and self._without_pypto():
            return None
        if fullname not in self._method_hooks:
            self._method_hooks[fullname] = call_forms.wrap(fullname, self._method_hook(fullname))
        hook = self._method_hooks[fullname]
        if hook is None and self.config.host_calls and not fullname.startswith(_NEVER_KERNELS):
            # A method of a class of the program: traced when its object is a module-level one.
            return self._helper_calls.method_hook
        return hook

    def _function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname == tensor_types.TENSOR:
            return op_calls.constructor_hook(self.session)
        if fullname in frontend.DECORATORS:
            return op_calls.decorator_hook(self.session)
        if fullname in scalar_minmax.NAMES:
            return scalar_minmax.hook
        op = op_calls.FUNCTION_TABLE.get(fullname)
        return op_calls.function_hook(self.session, op) if op is not None else None

    def _method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname == frontend.JIT_DECORATOR_CALL:
            return op_calls.decorator_hook(self.session)
        if fullname in op_calls.REFLECTED_COMPARISONS:
            return op_calls.reflected_comparison_hook(self.session, ops.OPS[op_calls.REFLECTED_COMPARISONS[fullname]])
        if fullname in container_reads.METHODS:
            return container_reads.hook
        if fullname == "pypto.Tensor.__setitem__":
            return op_calls.write_hook(self.session, "setitem")
        if fullname == "pypto.Tensor.move":
            return op_calls.write_hook(self.session, "move")
        if fullname.startswith("pypto.Tensor."):
            name = fullname[len("pypto.Tensor."):]
            if name in members.NO_METHODS:  # declared in the stubs only so they can be reported
                return op_calls.no_method_hook(name)
            op = op_calls.METHOD_TABLE.get(fullname)
            if op is not None:
                return op_calls.method_hook(self.session, op)
        return None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        if not self._pypto_in_build and self._without_pypto():
            return None
        if fullname == "pypto.Tensor.T":
            return attributes.transpose_attribute_hook(self.session)
        if fullname == "pypto.Tensor.shape":
            return attributes.shape_attribute_hook
        if fullname == "pypto.Tensor.dtype":
            return attributes.dtype_attribute_hook
        if fullname == "pypto.Tensor.ndim":
            return attributes.attribute_no_method_hook("ndim")
        return None
