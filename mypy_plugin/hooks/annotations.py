"""The type-analyze hook for ``pypto.Tensor[...]``: annotation -> shape/dtype type.

It reads the canonical ``Tensor[[d0, d1, ...], dtype]`` form (the subscript form as
written, or the rewrite of any other form, see :mod:`rewrite`). It never analyzes the
dims as types, so ``N``, ``pypto.DYNAMIC`` or ``8`` raise no ``valid-type`` errors.
"""

from __future__ import annotations

import ast
from typing import Final

from mypy.nodes import AssignmentStmt, CallExpr, FuncDef, MypyFile, NameExpr, RefExpr, SymbolTableNode, TypeInfo, Var
from mypy.plugin import AnalyzeTypeContext
from mypy.server.trigger import make_trigger
from mypy.types import (
    AnyType,
    EllipsisType,
    Instance,
    LiteralType,
    RawExpressionType,
    Type,
    TypeList,
    TypeOfAny,
    UnboundType,
    get_proper_type,
)

from ..bridge.folding import note_unread
from ..bridge.tensor_types import TENSOR, annotation_type, dtype_of_value
from ..debug import degrade
from ..knowledge.arith import int_of_ast
from ..knowledge.dtypes import DTYPES, FP32
from ..knowledge.ops import TensorVal
from ..knowledge.shapes import DYNAMIC, Dim, Shape, dynamic_symbol, is_dynamic
from ..rewrite.markers import assigned_at_top_level
from ..rewrite.transform import EXPR_PREFIX

# STATIC is an int the frontend takes from the tensor; DYNAMIC and DYN stay -1 while it traces.
_DYNAMIC_DIMS: Final = frozenset({"pypto.DYNAMIC", "pypto.DYN"})
_STATUS_TYPE: Final = "pypto.StatusType"
_SYMBOLIC_SCALAR: Final = "pypto.SymbolicScalar"
_DYNAMIC_SYMBOL: Final = "pypto.frontend.dynamic"
_NOT_DTYPE_PREFIXES: Final = ("pypto.TileOpFormat", "pypto.StatusType")


def _any() -> AnyType:
    return AnyType(TypeOfAny.special_form)


class _Resolver:
    def __init__(self, ctx: AnalyzeTypeContext) -> None:
        self.ctx = ctx

    def lookup(self, name: str) -> SymbolTableNode | None:
        # TypeAnalyser.lookup_qualified is not in the plugin interface; degrade if it goes away.
        lookup = getattr(self.ctx.api, "lookup_qualified", None)
        if lookup is None:
            return None
        try:
            sym = lookup(name, self.ctx.context, suppress_errors=True)
        except Exception as err:
            degrade(err)
            return None
        return sym if isinstance(sym, SymbolTableNode) else None

    def depend_on(self, fullname: str) -> None:
        """The type read here depends on ``fullname``'s value: tell the daemon, which otherwise
        sees no reference to it (the annotation's type holds only the value) and would not
        analyze this definition again when that constant changes in another module."""
        semanal = getattr(self.ctx.api, "api", None)  # TypeAnalyser internals; skip if they move
        add = getattr(semanal, "add_plugin_dependency", None)
        if add is not None:
            add(make_trigger(fullname))

    def reader(self) -> str | None:
        """The function whose annotation this is (SemanticAnalyzer internals; None if they move)."""
        func = getattr(getattr(getattr(self.ctx.api, "api", None), "scope", None), "function", None)
        return func.fullname if isinstance(func, FuncDef) else None

    def rebound_here(self, var: Var) -> bool:
        """``from dims import *`` then ``ROWS = 16``: mypy binds this module's ``ROWS`` to dims'
        variable, whose value is not this module's. (TypeAnalyser internals; skip if they move.)"""
        module = getattr(getattr(self.ctx.api, "api", None), "cur_mod_node", None)
        return isinstance(module, MypyFile) and var.fullname != f"{module.fullname}.{var.name}" and (
            var.name in assigned_at_top_level(module)
        )

    def dynamic_here(self, var: Var) -> bool:
        """``N = pypto.frontend.dynamic("N")`` at the top of this module: not type-checked yet (a
        module checked before this one, or read from the cache, has ``SymbolicScalar`` as N's
        type instead). (TypeAnalyser internals; skip if they move.)"""
        module = getattr(getattr(self.ctx.api, "api", None), "cur_mod_node", None)
        if not isinstance(module, MypyFile) or var.fullname != f"{module.fullname}.{var.name}":
            return False
        return any(
            isinstance(s, AssignmentStmt) and len(s.lvalues) == 1 and isinstance(s.lvalues[0], NameExpr)
            and s.lvalues[0].name == var.name and isinstance(s.rvalue, CallExpr)
            and isinstance(s.rvalue.callee, RefExpr) and s.rvalue.callee.fullname == _DYNAMIC_SYMBOL
            for s in module.defs
        )

    def dim(self, t: Type) -> Dim:
        if isinstance(t, RawExpressionType):
            v = t.literal_value
            if type(v) is int:
                return v
            if isinstance(v, str) and v.startswith(EXPR_PREFIX):
                return self.expr_dim(v[len(EXPR_PREFIX):])
            return None
        if isinstance(t, UnboundType) and not t.args:
            return self.name_dim(t.name)
        return None

    def name_dim(self, name: str) -> Dim:
        sym = self.lookup(name)
        node = sym.node if sym is not None else None
        if node is None:
            return None
        if node.fullname in _DYNAMIC_DIMS:
            return DYNAMIC
        if node.fullname == "pypto.STATIC":
            return None
        if isinstance(node, Var):
            self.depend_on(node.fullname)
            if self.rebound_here(node):
                return name
            if isinstance(node.final_value, int) and not isinstance(node.final_value, bool):
                return node.final_value
            declared = get_proper_type(node.type) if node.type is not None else None
            if isinstance(declared, (Instance, LiteralType)):
                status = _status_of(declared)
                if status is not None or (isinstance(declared, Instance) and declared.type.fullname == _STATUS_TYPE):
                    return DYNAMIC if status in ("DYNAMIC", "DYN") else None  # ``_BH = pypto.DYNAMIC``
            if (isinstance(declared, Instance) and declared.type.fullname == _SYMBOLIC_SCALAR) or (
                declared is None and self.dynamic_here(node)
            ):
                return dynamic_symbol(name)  # ``N = pypto.frontend.dynamic("N")``
            if isinstance(declared, LiteralType) and type(declared.value) is int:
                return declared.value
            if isinstance(declared, Instance) and declared.last_known_value is not None:
                known = declared.last_known_value.value  # a rewritten module constant (rewrite_markers.py)
                if type(known) is int:
                    return known
            # A closure variable, factory parameter or dynamic symbol: unknown but named.
            note_unread(node, self.reader())
            return name
        return None

    def expr_dim(self, text: str) -> Dim:
        """``N * 2`` with N known folds to an int; otherwise the text is the symbol."""
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            return None
        value = self._eval(tree.body)
        if value is not None:
            return value
        symbol = text.replace(" ", "")
        names = (n for n in ast.walk(tree) if isinstance(n, (ast.Name, ast.Attribute)))
        # ``N * 2`` with N a dynamic symbol is traced from -1 too.
        return dynamic_symbol(symbol) if any(is_dynamic(self.name_dim(ast.unparse(n))) for n in names) else symbol

    def _eval(self, node: ast.expr) -> int | None:
        return int_of_ast(node, self._name_int)

    def _name_int(self, node: ast.expr, depth: int) -> int | None:
        d = self.name_dim(ast.unparse(node))
        return d if isinstance(d, int) else None

    def dtype(self, t: Type) -> tuple[bool, str | None]:
        """(is this item a dtype?, which one if known). Names (strings), formats and None are not."""
        text = t.literal_value if isinstance(t, RawExpressionType) else None
        if isinstance(text, str) and text.startswith(EXPR_PREFIX):
            return self.named_dtype(text[len(EXPR_PREFIX):])  # ``cfg.in_dtype`` kept as text
        if not isinstance(t, UnboundType) or t.args or t.original_str_expr is not None or t.name == "None":
            return False, None
        return self.named_dtype(t.name)

    def named_dtype(self, name: str) -> tuple[bool, str | None]:
        sym = self.lookup(name)
        node = sym.node if sym is not None else None
        if node is None:
            return True, None
        if node.fullname.startswith(_NOT_DTYPE_PREFIXES):
            return False, None
        short = node.fullname.rsplit(".", 1)[-1]
        if node.fullname.startswith("pypto.") and short in DTYPES:
            return True, short
        if isinstance(node, Var):
            self.depend_on(node.fullname)
            return True, dtype_of_value(node.type)
        return True, None


def _status_of(t: Instance | LiteralType) -> str | None:
    """"DYNAMIC" for ``Literal[StatusType.DYNAMIC]`` (or an Instance that remembers it)."""
    lit = t if isinstance(t, LiteralType) else t.last_known_value
    if lit is not None and lit.fallback.type.fullname == _STATUS_TYPE and isinstance(lit.value, str):
        return lit.value
    return None


def _is_pypto_tensor(ctx: AnalyzeTypeContext) -> bool:
    """Is ``pypto.Tensor`` the generic class of the stubs? A local ``pypto`` package may define
    it as anything (None, a function, an alias, a class with other parameters)."""
    lookup = getattr(ctx.api, "lookup_fully_qualified", None)
    if lookup is None:
        return False
    try:
        sym = lookup(TENSOR)
    except Exception:  # an assertion when the name is not there: not the PyPTO we know
        return False
    node = sym.node if isinstance(sym, SymbolTableNode) else None
    return isinstance(node, TypeInfo) and len(node.defn.type_vars) == 2


def analyze_tensor(ctx: AnalyzeTypeContext) -> Type:
    if not _is_pypto_tensor(ctx):
        # Not ours to read: unknown, and silent (mypy's own checks of that pypto still apply
        # everywhere else).
        return AnyType(TypeOfAny.from_error)
    try:
        return _analyze(ctx)
    except Exception as err:  # never crash mypy: an unreadable annotation is "some tensor"
        degrade(err)
        # Cannot raise: _is_pypto_tensor checked that the name is a class with two parameters.
        return ctx.api.named_type(TENSOR, [_any(), _any()])


def _analyze(ctx: AnalyzeTypeContext) -> Type:
    """Items are read by kind, as ``Tensor.__class_getitem__`` does: a list is the shape,
    a DataType the dtype, a TileOpFormat or a string is ignored."""
    api = ctx.api
    args = ctx.type.args
    if not args:
        return api.named_type(TENSOR, [_any(), _any()])
    if len(args) == 2 and isinstance(args[0], UnboundType) and args[0].args:
        # Already a shape type, as mypy prints it: ``Tensor[tuple[Literal[8]], pypto._DT_FP32]``.
        return api.named_type(TENSOR, [api.analyze_type(a) for a in args])
    res = _Resolver(ctx)
    shape: Shape = None
    saw_shape = False
    dtype: str | None = None
    saw_dtype = False
    for i, item in enumerate(args):
        if isinstance(item, TypeList) and not saw_shape:
            saw_shape = True
            items = item.items
            if items and not any(isinstance(d, EllipsisType) for d in items):
                shape = tuple(res.dim(d) for d in items)
            continue
        if isinstance(item, EllipsisType) and i == 0:
            saw_shape = True  # Tensor[...]: any shape
            continue
        is_dt, which = res.dtype(item)
        if is_dt and i == 0 and not saw_shape and which is None:
            saw_shape = True  # a shape held in a variable we cannot see
            continue
        if is_dt:
            saw_dtype, dtype = True, which
    if not saw_dtype:
        # With a static shape the kernel sees FP32 (rule: annotation-default-dtype); with [] / STATIC / DYNAMIC / ...
        # the frontend takes the tensor from the runtime argument, dtype included.
        static = shape is not None and all(isinstance(d, int) for d in shape)
        dtype = FP32 if static else None
    return annotation_type(TensorVal(shape, dtype), api, api.named_type)
