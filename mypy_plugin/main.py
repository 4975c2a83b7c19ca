"""The mypy Plugin: maps fullnames to hooks, and nothing else."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    FunctionContext,
    MethodContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import AnyType, Type, TypeOfAny

from . import config, hooks, native_parse
from .annotations import analyze_tensor
from .source_rewrite import transform_source
from .tensor_types import TENSOR

# Declared in the stubs only so they can be reported (see pypto_stubs/__init__.pyi).
_NO_METHODS: Final = frozenset((
    "abs", "neg", "pow", "float", "half", "mean", "max", "min", "cast", "to",
    "permute", "squeeze", "expand", "numel", "size", "prod", "clamp", "square",
    # Present in 0.2.0 but broken: they forward too many arguments and raise TypeError.
    "where", "lrelu",
))


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_PLUGIN_FINGERPRINT: Final = _fingerprint()


_DECORATORS: Final = frozenset({"pypto.frontend.jit", "pypto.frontend.function"})


def _any_type(ctx: AnalyzeTypeContext) -> Type:
    return AnyType(TypeOfAny.special_form)


class PyptoPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        try:
            self.config = config.load(options.config_file)
        except config.ConfigError as err:
            # Like mypy's own config errors: one line, exit status 2, no traceback.
            sys.stderr.write(f"{options.config_file}: error: {err}\n")
            raise SystemExit(2) from None
        self.session = hooks.Session(self.config)
        self._function_hooks: dict[str, Callable[[FunctionContext], Type] | None] = {}
        self._method_hooks: dict[str, Callable[[MethodContext], Type] | None] = {}
        # Tensor annotations in the call form are lost by the parser: rewrite them before it
        # runs, on every parse (cold, incremental, daemon, workers). mypy honours
        # transform_source only in its Python-ast parser; native_parse wraps the native one,
        # and when it cannot (other mypy internals) the Python-ast parser is forced instead.
        options.transform_source = transform_source
        if options.native_parser and not native_parse.enable(options):
            options.native_parser = False
        if self.config.allows_rebinding:
            options.allow_redefinition = True

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        # The plugin's own code is part of the answer: a new version rechecks everything.
        return {"plugin": _PLUGIN_FINGERPRINT, **self.config.to_json()}

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname in (TENSOR, "pypto.tensor"):  # `tensor` is the runtime alias
            return analyze_tensor
        if fullname.startswith("pypto.DT_"):
            # ``dim: pypto.DT_INT8``: a dtype value as a (scalar) parameter's annotation, as real
            # kernels write it; not a type, but not our business either.
            return _any_type
        return None

    # mypy asks once per call expression: build each hook once per fullname.
    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname not in self._function_hooks:
            self._function_hooks[fullname] = self._function_hook(fullname)
        return self._function_hooks[fullname]

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname not in self._method_hooks:
            self._method_hooks[fullname] = self._method_hook(fullname)
        return self._method_hooks[fullname]

    def _function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname == TENSOR:
            return hooks.constructor_hook
        if fullname in _DECORATORS:
            return hooks.decorator_hook
        op = hooks.FUNCTION_TABLE.get(fullname)
        return hooks.function_hook(self.session, op) if op is not None else None

    def _method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname == "pypto.frontend._JitDecorator.__call__":
            return hooks.decorator_hook
        if fullname == "pypto.Tensor.__setitem__":
            return hooks.write_hook(self.session, "setitem")
        if fullname == "pypto.Tensor.move":
            return hooks.write_hook(self.session, "move")
        if fullname.startswith("pypto.Tensor."):
            name = fullname[len("pypto.Tensor."):]
            if name in _NO_METHODS:
                return hooks.no_method_hook(name)
            op = hooks.METHOD_TABLE.get(fullname)
            if op is not None:
                return hooks.method_hook(self.session, op)
        return None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        if fullname == "pypto.Tensor.T":
            return hooks.transpose_attribute_hook(self.session)
        if fullname == "pypto.Tensor.shape":
            return hooks.shape_attribute_hook
        if fullname == "pypto.Tensor.ndim":
            return hooks.attribute_no_method_hook("ndim")
        return None
