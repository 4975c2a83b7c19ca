"""A ``@pypto.frontend.jit`` kernel returns None: said to mypy right after parsing.

The frontend rejects any return annotation, even ``-> None`` (``pypto-kernel-signature``), while
mypy's ``disallow_untyped_defs`` (``--strict``) asks every function for one. The plugin accepts
the frontend's rule: a kernel with annotated parameters and no return annotation is typed as
returning None, as if ``-> None`` were written (only the analyzed type changes; what was written,
``unanalyzed_type``, still shows no annotation to the signature check).

Runs on the parsed tree (``get_additional_deps``), before semantic analysis, so decorators are
recognized by their spelling through the module's own imports of ``pypto``.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Expression, Import, ImportFrom, MemberExpr, MypyFile, NameExpr
from mypy.types import AnyType, CallableType, NoneType, TypeOfAny

from .kernels import JIT, decorators



def _aliases(tree: MypyFile) -> dict[str, str]:
    """Local names bound to pypto or a part of it by the module's imports (any nesting)."""
    names: dict[str, str] = {}
    for imp in tree.imports:
        if isinstance(imp, Import):
            for mod, alias in imp.ids:
                if mod == "pypto" or mod.startswith("pypto."):
                    # ``import pypto.frontend`` binds ``pypto``
                    names[alias or mod.split(".")[0]] = mod if alias else "pypto"
        elif isinstance(imp, ImportFrom) and imp.relative == 0 and (imp.id == "pypto" or imp.id.startswith("pypto.")):
            for name, alias in imp.names:
                names[alias or name] = f"{imp.id}.{name}"
    return names


def _spelled(e: Expression, aliases: dict[str, str]) -> str | None:
    if isinstance(e, CallExpr):  # @pypto.frontend.jit(...)
        e = e.callee
    parts: list[str] = []
    while isinstance(e, MemberExpr):
        parts.append(e.name)
        e = e.expr
    if not isinstance(e, NameExpr) or e.name not in aliases:
        return None
    return ".".join([aliases[e.name], *reversed(parts)])


def imply_none_return(tree: MypyFile) -> None:
    if tree.is_stub:
        return
    aliases = _aliases(tree)
    if not aliases:
        return
    for dec in decorators(tree.defs):
        if not any(_spelled(d, aliases) == JIT for d in dec.decorators):
            continue
        func = dec.func
        t = func.type
        if not isinstance(t, CallableType):
            continue  # no annotation at all: mypy's untyped-function rules apply, as for any function
        ret = t.ret_type
        if isinstance(ret, AnyType) and ret.type_of_any == TypeOfAny.unannotated:
            func.type = t.copy_modified(ret_type=NoneType())
