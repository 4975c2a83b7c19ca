"""Traced calls: an op of the table (its rule, then its checks with the tiles in force), the two
tile setters, ``pypto.Tensor(...)``, a few builtins, and helpers (entered with the caller's
tiles and values, :meth:`CallTracer.enter`). A call of anything else gives an unknown value;
one that may run code we do not trace (an unknown callee) may set tiles: they become unknown."""

from __future__ import annotations

import ast
from typing import Final

from ..knowledge.checks.registry import Call, Env, op_checks, recovered, run_checks
from ..knowledge.frontend import FUNCTION
from ..knowledge import member_findings
from ..knowledge.members import MISSING
from ..knowledge.ops import ANY, OPS, SCALAR, Op, Result
from ..knowledge.tiles import UNKNOWN as UNKNOWN_TILE
from ..knowledge.tiles import CubeTile, TileState, VecTile
from ..knowledge.values import TensorVal
from .arguments import Actual, TraceArgs, formals
from .expressions import ExpressionTracer
from .state import OpRecord
from .modules import TracedModule
from .repeated_lists import repeated_list
from .values import (
    NONE, UNKNOWN, Class, DType, Func, Method, ModuleRef, Num, Range, Ref, Seq, SymDim, Value, dim_of, is_int,
)

SET_VEC: Final = "pypto.set_vec_tile_shapes"
SET_CUBE: Final = "pypto.set_cube_tile_shapes"
_CONSTRUCTORS: Final = ("pypto.Tensor", "pypto.tensor")
_LOOPS: Final = ("pypto.loop", "pypto.loop_unroll")
_SCALAR_FUNCTIONS: Final = ("pypto.max", "pypto.min", "pypto.ceildiv", "pypto.is_loop_begin", "pypto.is_loop_end",
                             "pypto.cond")


def _texts(node: ast.expr) -> tuple[str, str]:
    """An expression as written: bare, and as an operand (parenthesized unless it is atomic)."""
    bare = ast.unparse(node)
    return bare, bare if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) else f"({bare})"


def as_value(result: Result) -> Value:
    if isinstance(result, TensorVal):
        return result
    if isinstance(result, tuple):
        return Seq(tuple(as_value(r) for r in result), False)
    if result is SCALAR:
        return Num("symbolic")
    return UNKNOWN if result is None or result is ANY else UNKNOWN


class CallTracer(ExpressionTracer):
    # id(node) -> (the value is written whole into an output, that output's dtype)
    into: dict[int, tuple[bool, str | None]]

    def has_op(self, name: str) -> bool:
        return name in OPS

    # --- ops ------------------------------------------------------------------------
    def apply(self, op: str, method: bool, actuals: list[Actual], node: ast.AST,
              keys: list[object] | None = None) -> Value:
        row = OPS.get(op)
        if row is None:
            return UNKNOWN
        if op == "concat" and actuals:
            actuals = [repeated_list(actuals[0], self.expr), *actuals[1:]]
        args = TraceArgs(formals(op, method), actuals, self.module.text, keys)
        label = row.method_label if method else row.function_label
        result, err = row.infer(args)
        if err is not None:
            self.report(node, err, label)
        if not op_checks(row):
            self._record(node, row, label, args, result, False, None)
            return as_value(result)
        moved, out_dtype = self.into.get(id(node), (False, None))
        vec_set = self.vec_set

        def checks(vec_set_in_kernel: bool) -> list[object]:
            env = Env(self.tiles.vec, self.tiles.cube, self.shared.options.reduce_align_rule,
                      self.shared.options.reduce_align_fallback, vec_set_in_kernel,
                      self.shared.options.dynamic_dim_rule)
            return list(run_checks(row, Call(row.name, row.kind, label, args, env, result,
                                             row.tile == "copy" and moved, frozenset(), out_dtype)))

        problems = checks(True if vec_set is None else vec_set)
        for p in problems:
            self.report(node, p, label)  # type: ignore[arg-type]
        self._record(node, row, label, args, result, moved, out_dtype)
        if vec_set is None and row.tile == "copy" and not self.silent:
            # Whether the kernel sets a vec tile anywhere is known once its body is traced.
            tiles, first = self.tiles, {repr(p) for p in problems}

            def later(vec_set_in_kernel: bool, tiles: TileState = tiles) -> None:
                saved, self.tiles = self.tiles, tiles
                try:
                    for p in checks(vec_set_in_kernel):
                        if repr(p) not in first:
                            self.report(node, p, label)  # type: ignore[arg-type]
                finally:
                    self.tiles = saved
            self.shared.deferred.append(later)
        return as_value(recovered(problems, result))  # type: ignore[arg-type]

    def _record(self, node: ast.AST, row: Op, label: str, args: TraceArgs, result: Result, moved: bool,
                out_dtype: str | None) -> None:
        if self.shared.ops is None or self.silent:
            return
        env = Env(self.tiles.vec, self.tiles.cube, self.shared.options.reduce_align_rule,
                  self.shared.options.reduce_align_fallback, True if self.vec_set is None else self.vec_set,
                  self.shared.options.dynamic_dim_rule)
        call = Call(row.name, row.kind, label, args, env, result, row.tile == "copy" and moved, frozenset(), out_dtype)
        self.shared.ops.append(OpRecord(self.module.path, getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
                                        call, tuple(args.operand_values()), result))

    # --- calls ----------------------------------------------------------------------
    def _e_Call(self, node: ast.Call) -> Value:
        func = node.func
        if isinstance(func, ast.Attribute):
            receiver = self.expr(func.value)
            if isinstance(receiver, TensorVal):
                return self.tensor_method(receiver, func.attr, func.value, node)
            callee = self.attribute(receiver, func.attr, func)
            self.seen(func, callee)
        else:
            callee = self.expr(func)
        actuals = self.actuals(node)
        return self.call(callee, actuals, node)

    def actuals(self, node: ast.Call) -> list[Actual]:
        out: list[Actual] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                out.append(Actual(self.expr(a.value), a.value, starred=True))
            else:
                out.append(Actual(self.expr(a), a))
        for k in node.keywords:
            v = self.expr(k.value)
            if k.arg is not None:
                out.append(Actual(v, k.value, keyword=k.arg))
        return out

    def tensor_method(self, receiver: TensorVal, name: str, receiver_node: ast.expr, node: ast.Call) -> Value:
        actuals = [Actual(receiver, receiver_node), *self.actuals(node)]
        if name == "move" and len(actuals) == 2:
            self.write(receiver, receiver_node, None, actuals[1].value, node)
            return NONE
        missing = MISSING.get(name)
        if missing is not None:  # its own module reports it where it knows the receiver is a tensor
            self.report(node, member_findings.no_method(name, member_findings.describe(receiver), *_texts(receiver_node)))
            if missing.torch is None:
                return UNKNOWN
            args = TraceArgs(((None, "pos"), *((p, "arg") for p in missing.params)), actuals, self.module.text)
            try:
                return as_value(missing.torch(args))
            except Exception:  # a Finding: the torch call is wrong too: unknown
                return UNKNOWN
        if name in OPS:
            return self.apply(name, True, actuals, node)
        return UNKNOWN

    def call(self, callee: Value, actuals: list[Actual], node: ast.Call) -> Value:
        if isinstance(callee, Ref):
            return self.library_call(callee.fullname, actuals, node)
        if isinstance(callee, Func):
            return self.helper_call(callee, actuals, node)
        if isinstance(callee, Method):
            return self.helper_call(callee.func, [Actual(callee.self_, None), *actuals], node)
        if isinstance(callee, Class):
            return self.construct(callee, actuals)
        if isinstance(callee, (ModuleRef, TensorVal)) or callee is UNKNOWN:
            self.tiles = TileState(UNKNOWN_TILE, UNKNOWN_TILE)  # code we do not see may set tiles
        return UNKNOWN

    def library_call(self, name: str, actuals: list[Actual], node: ast.Call) -> Value:
        if name.startswith("builtins."):
            return _builtin(name[len("builtins."):], [a.value for a in actuals if a.keyword is None and not a.starred])
        if name == SET_VEC:
            self.tiles = TileState(_vec(actuals), self.tiles.cube)
            return NONE
        if name == SET_CUBE:
            self.tiles = TileState(self.tiles.vec, _cube(actuals))
            return NONE
        if name in _CONSTRUCTORS:
            return _constructor(actuals)
        if name in _LOOPS:
            return Range(Num("symbolic"), symbolic=True)
        if name in _SCALAR_FUNCTIONS:
            return Num("symbolic")
        short = name[len("pypto."):] if name.startswith("pypto.") else ""
        if short in OPS and not short.startswith("__"):
            return self.apply(short, False, actuals, node)
        return UNKNOWN

    # --- helpers --------------------------------------------------------------------
    def helper_call(self, func: Func, actuals: list[Actual], node: ast.Call) -> Value:
        module = self.load(func.module)
        fdef = module.functions.get(func.qualname) if module is not None else None
        if module is None or fdef is None or not self.is_helper(module, fdef):
            self.tiles = TileState(UNKNOWN_TILE, UNKNOWN_TILE)
            return UNKNOWN
        params = self.bind(module, fdef, actuals)
        if params is None:
            self.tiles = TileState(UNKNOWN_TILE, UNKNOWN_TILE)
            return UNKNOWN
        return self.enter(module, fdef, params, node)

    def is_helper(self, module: TracedModule, fdef: ast.FunctionDef) -> bool:
        """A plain function, or one decorated ``@pypto.frontend.function`` alone; not one that
        defines functions (a kernel factory, a closure maker)."""
        if len(fdef.decorator_list) > 1:
            return False
        if fdef.decorator_list:
            d = fdef.decorator_list[0]
            if not isinstance(self.constant_expr(module, d), Ref) or self.constant_expr(module, d) != Ref(FUNCTION):
                return False
        return not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
                       for s in fdef.body for n in ast.walk(s))

    def bind(self, module: TracedModule, fdef: ast.FunctionDef, actuals: list[Actual]) -> dict[str, Value] | None:
        """The values of a helper's parameters at this call, as Python binds them (None: the call
        does not fit the definition; Python would raise)."""
        a = fdef.args
        positional = [*a.posonlyargs, *a.args]
        values: dict[str, Value] = {}
        extra: list[Value] = []
        spread = False
        items: list[Value] = []
        for act in actuals:
            if act.keyword is not None:
                continue
            if act.starred:
                if isinstance(act.value, Seq):
                    items.extend(act.value.items)
                else:
                    spread = True
                    break
            else:
                items.append(act.value)
        for p, v in zip(positional, items):
            values[p.arg] = v
        extra = items[len(positional):]
        if extra and a.vararg is None:
            return None
        for act in actuals:
            if act.keyword is not None:
                if act.keyword in values:
                    return None
                values[act.keyword] = act.value
        defaults = dict(zip([p.arg for p in positional][len(positional) - len(a.defaults):], a.defaults))
        defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        for p in [*positional, *a.kwonlyargs]:
            if p.arg not in values:
                if spread:
                    values[p.arg] = UNKNOWN
                elif p.arg in defaults:
                    values[p.arg] = self.constant_expr(module, defaults[p.arg])
                else:
                    return None
        if a.vararg is not None:
            values[a.vararg.arg] = UNKNOWN if spread else Seq(tuple(extra), False)
        if a.kwarg is not None:
            values[a.kwarg.arg] = UNKNOWN
        return values

    def enter(self, module: TracedModule, fdef: ast.FunctionDef, params: dict[str, Value], node: ast.Call) -> Value:
        raise NotImplementedError


def _builtin(name: str, args: list[Value]) -> Value:
    if name == "range":
        if 1 <= len(args) <= 3 and all(is_int(a) for a in args):
            r = range(*args)  # type: ignore[arg-type]
            if len(r) <= 64:
                return Range(Num("int"), tuple(r))
        return Range(Num("int"))
    if name == "len" and len(args) == 1:
        v = args[0]
        if isinstance(v, Seq):
            return len(v.items)
        if isinstance(v, TensorVal) and v.shape and isinstance(v.shape[0], int):
            return v.shape[0]
        return Num("int")
    if name in ("min", "max") and args:
        items = list(args[0].items) if len(args) == 1 and isinstance(args[0], Seq) else args
        if items and all(is_int(i) for i in items):
            return (min if name == "min" else max)(items)  # type: ignore[type-var]
        if items and all(isinstance(i, (int, float, Num, SymDim)) for i in items):
            return Num("symbolic") if any(isinstance(i, (SymDim,)) or isinstance(i, Num) and i.kind == "symbolic"
                                          for i in items) else Num("number")
        return UNKNOWN
    if name == "int" and len(args) == 1:
        v = args[0]
        return int(v) if type(v) in (int, float, bool) else Num("int") if isinstance(v, (Num, SymDim)) else UNKNOWN  # type: ignore[arg-type]
    if name == "float" and len(args) == 1:
        v = args[0]
        return float(v) if type(v) in (int, float) else Num("float") if isinstance(v, Num) else UNKNOWN  # type: ignore[arg-type]
    if name in ("list", "tuple") and len(args) == 1 and isinstance(args[0], Seq):
        return Seq(args[0].items, name == "list")
    if name == "abs" and len(args) == 1 and is_int(args[0]):
        return abs(args[0])  # type: ignore[arg-type]
    return UNKNOWN


def _vec(actuals: list[Actual]) -> VecTile:
    dims: list[int | None] = []
    for a in actuals:
        if a.keyword is not None:
            return UNKNOWN_TILE
        if a.starred:
            if not isinstance(a.value, Seq):
                return UNKNOWN_TILE
            dims.extend(i if is_int(i) else None for i in a.value.items)  # type: ignore[misc]
        else:
            dims.append(a.value if is_int(a.value) else None)  # type: ignore[arg-type]
    return tuple(dims)


def _cube(actuals: list[Actual]) -> CubeTile:
    parts = [a for a in actuals if a.keyword is None]
    if len(parts) < 3 or any(a.starred for a in parts[:3]):
        return UNKNOWN_TILE
    out: list[tuple[int | None, ...]] = []
    for a in parts[:3]:
        if not isinstance(a.value, Seq):
            return UNKNOWN_TILE
        out.append(tuple(i if is_int(i) else None for i in a.value.items))  # type: ignore[misc]
    return tuple(out)


def _constructor(actuals: list[Actual]) -> Value:
    """``pypto.Tensor([8, 64], pypto.DT_FP32)`` as a value: a tensor of that shape."""
    shape = next((a for a in actuals if a.keyword == "shape"), None) or next(
        (a for a in actuals if a.keyword is None and not a.starred), None)
    given = [a for a in actuals if a.keyword is None and not a.starred]
    dtype = next((a for a in actuals if a.keyword == "dtype"), None) or (given[1] if len(given) > 1 else None)
    dims = None
    if shape is not None and isinstance(shape.value, Seq):
        written = shape.node.elts if isinstance(shape.node, (ast.List, ast.Tuple)) else []
        names = [e.id if isinstance(e, ast.Name) else None for e in written]
        dims = tuple(dim_of(v, names[i] if i < len(names) else None) for i, v in enumerate(shape.value.items))
    if dtype is not None:
        dt = dtype.value.name if isinstance(dtype.value, DType) else None
    else:
        dt = "DT_FP32" if dims else None
    return TensorVal(dims if dims else None, dt)

