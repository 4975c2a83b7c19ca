"""Post-parse rewrite of tensor annotations, before semantic analysis.

Real PyPTO code annotates parameters in the call form ``pypto.Tensor([8, 64], pypto.DT_FP32)``,
which mypy's parser turns into an invalid type and then reports as ``valid-type``. Right after
parsing (``get_additional_deps``), this module re-reads the file with :mod:`ast`, and replaces
every tensor annotation -- call form, subscript form, dict form -- by one canonical
``pypto.Tensor[[d0, d1, ...], dtype]`` type, with same-module constants folded in
(``CHUNK = 64``, ``BT = 2 * CHUNK``, ``_QKG = [_BH, _T, 128]``, ``HALF = pypto.DT_FP16``).

Dims that stay expressions are kept as ``"=<source>"`` strings for the type-analyze hook.
Only public type constructors are built here; the mypy nodes patched are
``Argument.type_annotation``, ``FuncDef.type``/``unanalyzed_type`` and
``AssignmentStmt.type``/``unanalyzed_type``, which the test suite pins per mypy version.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Final

from mypy.nodes import AssignmentStmt, FuncDef, MypyFile
from mypy.types import CallableType, EllipsisType, RawExpressionType, Type, TypeList, UnboundType

EXPR_PREFIX: Final = "="  # marks a dim kept as source text (never a valid type string)
_TENSOR_NAMES: Final = frozenset({"Tensor", "tensor"})
_MAX_DEPTH: Final = 8
_ALIAS_TARGETS: Final = (ast.Name, ast.Attribute, ast.Constant, ast.List, ast.Tuple, ast.Dict)


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _is_tensor_ref(node: ast.expr) -> bool:
    name = _dotted(node)
    return name is not None and name.rsplit(".", 1)[-1] in _TENSOR_NAMES


class ModuleConstants:
    """Names bound exactly once at module level, with the expression bound."""

    def __init__(self, tree: ast.Module) -> None:
        counts: dict[str, int] = {}
        values: dict[str, ast.expr] = {}
        for stmt in tree.body:
            for name in _bound_names(stmt):
                counts[name] = counts.get(name, 0) + 1
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                values[stmt.targets[0].id] = stmt.value
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                values[stmt.target.id] = stmt.value
        self.values = {k: v for k, v in values.items() if counts.get(k) == 1}

    def int_value(self, node: ast.expr, depth: int = 0) -> int | None:
        """Fold int literals, constants and + - * // % ** on them."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and node.id in self.values:
            return self.int_value(self.values[node.id], depth + 1)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.int_value(node.operand, depth + 1)
            return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
        if isinstance(node, ast.BinOp):
            a, b = self.int_value(node.left, depth + 1), self.int_value(node.right, depth + 1)
            if a is None or b is None:
                return None
            op = node.op
            if isinstance(op, ast.Add):
                return a + b
            if isinstance(op, ast.Sub):
                return a - b
            if isinstance(op, ast.Mult):
                return a * b
            if isinstance(op, ast.FloorDiv) and b != 0:
                return a // b
            if isinstance(op, ast.Mod) and b != 0:
                return a % b
            if isinstance(op, ast.Pow) and 0 <= b <= 64:
                return int(a**b)
        return None

    def export(self) -> dict[str, int | tuple[int | None, ...]]:
        """Constants a kernel body may use as tile values: ints and tuples/lists of ints."""
        out: dict[str, int | tuple[int | None, ...]] = {}
        for name, value in self.values.items():
            v = self.int_value(value)
            if v is not None:
                out[name] = v
                continue
            node = self.resolve(value)
            if isinstance(node, (ast.List, ast.Tuple)):
                out[name] = tuple(self.int_value(e) for e in node.elts)
        return out

    def resolve(self, node: ast.expr, depth: int = 0) -> ast.expr:
        """Follow a module-level alias (``_BH = pypto.DYNAMIC``, ``_QKG = [...]``)."""
        while isinstance(node, ast.Name) and node.id in self.values and depth < _MAX_DEPTH:
            value = self.values[node.id]
            if not isinstance(value, _ALIAS_TARGETS):
                break  # ``N = pypto.frontend.dynamic("N")``: the name itself is the symbol
            node = value
            depth += 1
        return node


def _bound_names(stmt: ast.stmt) -> Iterator[str]:
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            yield (alias.asname or alias.name).split(".")[0]
    elif isinstance(stmt, (ast.If, ast.While, ast.With, ast.Try)):
        # A constant bound inside a branch is not a constant.
        for child in ast.walk(stmt):
            if isinstance(child, ast.stmt) and child is not stmt:
                yield from _bound_names(child)
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                yield n.id


class _Canonicalizer:
    def __init__(self, consts: ModuleConstants) -> None:
        self.consts = consts

    def tensor_type(self, node: ast.expr, line: int, column: int) -> UnboundType | None:
        """The canonical type for a tensor annotation node, or None if it is not one."""
        shape: ast.expr | None = None
        dtype_items: list[ast.expr] = []
        if isinstance(node, ast.Call) and _is_tensor_ref(node.func):
            head = node.func
            if node.args:
                shape = node.args[0]
            if len(node.args) > 1:
                dtype_items.append(node.args[1])
            for kw in node.keywords:
                if kw.arg == "shape":
                    shape = kw.value
                elif kw.arg == "dtype":
                    dtype_items.append(kw.value)
        elif isinstance(node, ast.Subscript) and _is_tensor_ref(node.value):
            head = node.value
            items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
            for item in items:
                item = self.consts.resolve(item)
                if isinstance(item, ast.Dict):
                    for k, v in zip(item.keys, item.values):
                        if isinstance(k, ast.Constant) and k.value == "shape":
                            shape = v
                        elif isinstance(k, ast.Constant) and k.value == "dtype":
                            dtype_items.append(v)
                elif isinstance(item, (ast.List, ast.Tuple)) and shape is None:
                    shape = item
                elif isinstance(item, ast.Constant) and item.value is Ellipsis and shape is None:
                    shape = ast.List(elts=[item], ctx=ast.Load())
                elif isinstance(item, (ast.Name, ast.Attribute)):
                    dtype_items.append(item)
        else:
            return None
        name = _dotted(head)
        assert name is not None
        args: list[Type] = [TypeList(self._dims(shape, line, column), line=line, column=column)]
        for d in dtype_items:
            d = self.consts.resolve(d)
            dotted = _dotted(d)
            if dotted is not None:
                args.append(UnboundType(dotted, line=line, column=column))
            else:
                # A dtype we cannot name: keep a placeholder so the hook knows one was given.
                args.append(RawExpressionType(EXPR_PREFIX + ast.unparse(d), "builtins.str", line, column))
        return UnboundType(name, args, line=line, column=column)

    def _dims(self, shape: ast.expr | None, line: int, column: int) -> list[Type]:
        if shape is None:
            return []
        shape = self.consts.resolve(shape)
        if not isinstance(shape, (ast.List, ast.Tuple)):
            return [EllipsisType(line=line)]  # a shape we cannot see: unknown rank
        return [self._dim(e, line, column) for e in shape.elts]

    def _dim(self, node: ast.expr, line: int, column: int) -> Type:
        if isinstance(node, ast.Starred):
            return EllipsisType(line=line)
        value = self.consts.int_value(node)
        if value is not None:
            return RawExpressionType(value, "builtins.int", line, column)
        node = self.consts.resolve(node)
        if isinstance(node, ast.Constant) and node.value is Ellipsis:
            return EllipsisType(line=line)
        dotted = _dotted(node)
        if dotted is not None:
            return UnboundType(dotted, line=line, column=column)
        return RawExpressionType(EXPR_PREFIX + ast.unparse(node), "builtins.str", line, column)


def _annotation_nodes(tree: ast.Module) -> dict[tuple[int, int], ast.expr]:
    found: dict[tuple[int, int], ast.expr] = {}

    def add(node: ast.expr | None) -> None:
        if node is not None:
            found[(node.lineno, node.col_offset)] = node

    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = n.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
                if arg is not None:
                    add(arg.annotation)
            add(n.returns)
        elif isinstance(n, ast.AnnAssign):
            add(n.annotation)
    return found


def _interesting(t: Type | None) -> bool:
    if isinstance(t, RawExpressionType):
        return t.literal_value is None  # a call or other expression mypy could not read
    if isinstance(t, UnboundType):
        return t.name.rsplit(".", 1)[-1] in _TENSOR_NAMES
    return False


def _statements(node: object, depth: int = 0) -> Iterator[object]:
    """Every statement under a file or statement (mypy's compiled visitors cannot be subclassed)."""
    if depth > 200:
        return
    for attr in ("defs", "body", "else_body", "finally_body", "handlers", "func", "items"):
        child = getattr(node, attr, None)
        if child is None or isinstance(child, (str, bytes)):
            continue
        children = child if isinstance(child, list) else [child]
        for c in children:
            if c is None or not hasattr(c, "line"):
                continue
            if c.__class__.__name__ != "Block":
                yield c
            yield from _statements(c, depth + 1)


def _patch_func(o: FuncDef, new_type: Callable[[Type | None], Type | None]) -> None:
    for i, arg in enumerate(o.arguments):
        new = new_type(arg.type_annotation)
        if new is None:
            continue
        arg.type_annotation = new
        for sig in (o.type, o.unanalyzed_type):
            if isinstance(sig, CallableType) and i < len(sig.arg_types):
                sig.arg_types[i] = new
    for sig in (o.type, o.unanalyzed_type):
        if isinstance(sig, CallableType):
            ret = new_type(sig.ret_type)
            if ret is not None:
                sig.ret_type = ret


def _annotated(file: MypyFile) -> list[FuncDef | AssignmentStmt]:
    """Functions and assignments with a tensor annotation mypy could not read."""
    found: list[FuncDef | AssignmentStmt] = []
    for node in _statements(file):
        if isinstance(node, FuncDef) and isinstance(node.type, CallableType):
            if any(_interesting(t) for t in node.type.arg_types) or _interesting(node.type.ret_type):
                found.append(node)
        elif isinstance(node, AssignmentStmt) and _interesting(node.type):
            found.append(node)
    return found


_TILE_SETTERS: Final = ("set_vec_tile_shapes", "set_cube_tile_shapes")


def prepare_module(file: MypyFile) -> dict[str, int | tuple[int | None, ...]] | None:
    """Rewrite the module's tensor annotations in place; return its constants when the module
    sets tiles (the tile pass reads them). Files that mention neither are not re-read."""
    if file.is_stub or not file.path.endswith(".py"):
        return None
    try:
        with open(file.path, encoding="utf-8") as f:
            source = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    sets_tiles = any(name in source for name in _TILE_SETTERS)
    targets = _annotated(file) if "ensor" in source else []
    if not targets and not sets_tiles:
        return None
    try:
        tree = ast.parse(source, filename=file.path)
    except (SyntaxError, ValueError):
        return None
    consts = ModuleConstants(tree)
    if targets:
        _rewrite(targets, tree, consts)
    return consts.export() if sets_tiles else None


def _rewrite(targets: list[FuncDef | AssignmentStmt], tree: ast.Module, consts: ModuleConstants) -> None:
    canon = _Canonicalizer(consts)
    nodes = _annotation_nodes(tree)

    def new_type(t: Type | None) -> Type | None:
        if t is None or not _interesting(t):
            return None
        node = nodes.get((t.line, t.column))
        return canon.tensor_type(node, t.line, t.column) if node is not None else None

    for target in targets:
        if isinstance(target, FuncDef):
            _patch_func(target, new_type)
        else:
            new = new_type(target.type)
            if new is not None:
                target.type = new
                target.unanalyzed_type = new
