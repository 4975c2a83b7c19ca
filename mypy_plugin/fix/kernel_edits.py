"""The kernel-code edits: PyPTO spellings of torch members, the 32-byte reduce tile, a ones
vector's length, a jit kernel's return annotation. Each returns the fixed module or None."""

from __future__ import annotations

import re
from typing import Final

import libcst as cst

from .cst_tools import build_call, enclosing_function, names_in, replace, tile_in_force
from .findings import Finding
from .locate import Located, dotted, int_literal

# ---- pypto-no-method: the PyPTO spelling of a torch member ------------------------------------

_FREE_FUNCTIONS: Final = {"abs": "abs", "neg": "neg", "pow": "pow", "prod": "prod", "clamp": "clip"}
_CASTS: Final = {"float": "DT_FP32", "half": "DT_FP16"}
_RENAMED_METHODS: Final = {"max": "amax", "min": "amin"}
_NO_METHOD: Final = re.compile(r'^PyPTO tensors have no "\.(?P<name>\w+)(?:\(\))?"')
_RECEIVER: Final = re.compile(r"\(receiver: \[(?P<dims>[^\]]+)\] ")


def no_method(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    m = _NO_METHOD.match(f.message)
    if m is None:
        return None
    name = m["name"]
    if name == "ndim":
        attr = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Attribute) and n.attr.value == "ndim")
        if not isinstance(attr, cst.Attribute):
            return None
        return replace(loc, attr, attr.with_changes(attr=cst.Name("dim")))
    call = loc.at(f.line, f.column, lambda n: _is_member_call(n, name))
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
        return None
    receiver = call.func.value
    args = list(call.args)
    if any(a.star for a in args):
        return None
    positional = all(a.keyword is None for a in args)
    new: cst.BaseExpression
    if name in _FREE_FUNCTIONS and positional:
        if name == "abs" and args or name == "neg" and args:
            return None
        if name == "clamp" and not 2 <= _receiver_rank(f.message) <= 4:
            return None  # 0.2.0's clip: FC0000 "The shape.size() only support 2~4" (the compiler's check)
        new = build_call(f"{pypto}.{_FREE_FUNCTIONS[name]}", receiver, *(a.value for a in args))
    elif name in _CASTS and not args:
        new = build_call(f"{pypto}.cast", receiver, cst.parse_expression(f"{pypto}.{_CASTS[name]}"))
    elif name in ("cast", "to") and len(args) == 1 and positional and _is_dtype(args[0].value, pypto):
        new = build_call(f"{pypto}.cast", receiver, args[0].value)
    elif name in _RENAMED_METHODS and args and args[0].keyword is None:
        # torch's x.max(dim) is (values, indices); a subscripted or unpacked use is not amax.
        if isinstance(loc.parents.get(call), (cst.Subscript, cst.Tuple)):
            return None
        new = call.with_changes(func=call.func.with_changes(attr=cst.Name(_RENAMED_METHODS[name])))
    elif name == "square" and not args and isinstance(receiver, cst.Name):
        new = cst.BinaryOperation(
            receiver, cst.Multiply(), receiver, lpar=[cst.LeftParen()], rpar=[cst.RightParen()]
        )
        if isinstance(loc.parents.get(call), (cst.Arg, cst.Assign, cst.AnnAssign, cst.Return)):
            new = new.with_changes(lpar=[], rpar=[])
    else:
        return None
    return replace(loc, call, new)


def _receiver_rank(message: str) -> int:
    """The rank of the receiver the message names (``(receiver: [2, 16] DT_FP32)``), 0 unknown."""
    m = _RECEIVER.search(message)
    return 0 if m is None else len(m["dims"].split(","))


def _is_member_call(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == name


def _is_dtype(node: cst.BaseExpression, pypto: str) -> bool:
    text = dotted(node)
    return text is not None and text.startswith(f"{pypto}.DT_")


# ---- pypto-reduce-align: the tile entry becomes the next multiple of 32 bytes -----------------

_TILE_ENTRY: Final = re.compile(r"vec tile \([^)]*\) has (?P<value>\d+) at index (?P<index>\d+)")
_SUGGESTED: Final = re.compile(r"set that tile entry to a multiple of \d+ \(e\.g\. (?P<value>\d+)\)")


def reduce_align(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    entry = _TILE_ENTRY.search(f.message)
    suggested = next((m for m in map(_SUGGESTED.search, f.notes) if m), None)
    if entry is None or suggested is None:
        return None
    tile_call = tile_in_force(loc, f.line, f"{pypto}.set_vec_tile_shapes")
    if tile_call is None:
        return None
    index, value = int(entry["index"]), int(entry["value"])
    args = list(tile_call.args)
    if index >= len(args) or any(a.star or a.keyword for a in args):
        return None
    target: cst.BaseExpression | None = args[index].value
    if isinstance(target, cst.Name):
        # COL_TILE = 8 ... set_vec_tile_shapes(16, COL_TILE): change the constant, when it is
        # nothing but a tile entry (a dim too would change the kernel's shapes).
        target = _tile_constant(loc, target.value, f"{pypto}.set_vec_tile_shapes")
    if target is None or int_literal(target) != value:
        return None
    return replace(loc, target, cst.Integer(suggested["value"]))



def _tile_constant(loc: Located, name: str, setter: str) -> cst.BaseExpression | None:
    """The value of module constant ``name`` when it is bound once and only read as a setter argument."""
    values = [
        small.value
        for stmt in loc.module.body if isinstance(stmt, cst.SimpleStatementLine)
        for small in stmt.body
        if isinstance(small, cst.Assign) and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name
    ]
    uses = [n for n in loc.positions if isinstance(n, cst.Name) and n.value == name]
    for use in uses:
        parent = loc.parents.get(use)
        if isinstance(parent, cst.AssignTarget) and parent.target is use:
            continue
        call = loc.parents.get(parent) if isinstance(parent, cst.Arg) else None
        if not isinstance(call, cst.Call) or dotted(call.func) != setter:
            return None
    return values[0] if len(values) == 1 and len(uses) > 1 else None



# ---- pypto-matmul-k: a ones vector (built in the kernel or a parameter) gets the reduced length ----

_WANT: Final = re.compile(r"as a ones-vector reduction over the last axis of the input, mat2 must be \[(?P<dims>[\d, ]+)\]")


def matmul_k(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    want = _WANT.search(f.message)
    if want is None:
        return None
    dims = [int(d) for d in want["dims"].split(",")]
    call = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Call) and dotted(n.func) == f"{pypto}.matmul")
    if not isinstance(call, cst.Call):
        return None
    mat2 = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "mat2"), None)
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if mat2 is None and len(positional) >= 2:
        mat2 = positional[1].value
    if not isinstance(mat2, cst.Name):
        return None
    func = enclosing_function(loc, call)
    if func is None:
        return None
    size = _ones_shape(func, mat2.value, pypto)
    if not isinstance(size, (cst.List, cst.Tuple)) or len(size.elements) != len(dims):
        return None
    constants = _int_constants(loc)
    elements = [
        e if _int_value(e.value, constants) == d else e.with_changes(value=_spelled(d, e.value, constants))
        for e, d in zip(size.elements, dims)
    ]
    return replace(loc, size, size.with_changes(elements=elements))


def _ones_shape(func: cst.FunctionDef, name: str, pypto: str) -> cst.BaseExpression | None:
    """The shape list of the ones vector ``name``: the size of ``pypto.full/ones`` when the kernel
    builds it, or the shape of its annotation when it is a parameter (``pypto.Tensor([32, 1], ...)``
    or ``pypto.Tensor[[32, 1], ...]``). The host must then pass the longer vector, which the
    re-check of a calling module in the same file verifies."""
    param = next((p for p in _params(func) if p.name.value == name), None)
    if param is not None:
        annotation = param.annotation.annotation if param.annotation is not None else None
        if isinstance(annotation, cst.Call) and dotted(annotation.func) == f"{pypto}.Tensor":
            first = annotation.args[0] if annotation.args else None
            return first.value if first is not None and first.keyword is None and not first.star else None
        if isinstance(annotation, cst.Subscript) and dotted(annotation.value) == f"{pypto}.Tensor":
            index = annotation.slice[0].slice if annotation.slice else None
            return index.value if isinstance(index, cst.Index) else None
        return None
    builder = _single_assignment(func, name)
    if builder is None or dotted(builder.func) not in (f"{pypto}.full", f"{pypto}.ones"):
        return None
    return builder.args[0].value if builder.args and builder.args[0].keyword is None else None


def _params(func: cst.FunctionDef) -> list[cst.Param]:
    p = func.params
    return [*p.posonly_params, *p.params, *p.kwonly_params]


def _int_constants(loc: Located) -> dict[str, int]:
    """Module constants bound exactly once, to an int literal."""
    bound: dict[str, list[int | None]] = {}
    for stmt in loc.module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                for target in small.targets:
                    for name in names_in(target.target):
                        value = int_literal(small.value) if isinstance(target.target, cst.Name) else None
                        bound.setdefault(name, []).append(value)
    return {n: v[0] for n, v in bound.items() if len(v) == 1 and v[0] is not None}


def _int_value(node: cst.BaseExpression, constants: dict[str, int]) -> int | None:
    return constants.get(node.value) if isinstance(node, cst.Name) else int_literal(node)


def _spelled(value: int, old: cst.BaseExpression, constants: dict[str, int]) -> cst.BaseExpression:
    """``value`` as the constant the old entry names (``DIM // 2`` -> ``DIM``), else a literal."""
    named = sorted(n for n in names_in(old) if constants.get(n) == value)
    return cst.Name(named[0]) if len(named) == 1 else cst.Integer(str(value))


def _single_assignment(func: cst.FunctionDef, name: str) -> cst.Call | None:
    """The call ``name`` is bound to, when the function binds it exactly once, by ``name = call``."""
    values: list[cst.BaseExpression | None] = []

    class _Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == name:
                    values.append(node.value)
                elif name in names_in(target.target):
                    values.append(None)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if name in names_in(node.target):
                values.append(None)

        def visit_For(self, node: cst.For) -> None:
            if name in names_in(node.target):
                values.append(None)

        def visit_Param(self, node: cst.Param) -> None:
            if node.name.value == name:
                values.append(None)

    func.visit(_Visitor())
    return values[0] if len(values) == 1 and isinstance(values[0], cst.Call) else None


# ---- pypto-kernel-signature: a return annotation is removed -----------------------------------

_RETURN_ANNOTATION: Final = re.compile(r'^jit kernel "(?P<name>\w+)" has a return annotation')


def kernel_signature(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    m = _RETURN_ANNOTATION.match(f.message)
    if m is None:
        return None
    defs = [
        n for n, where in loc.positions.items()
        if isinstance(n, cst.FunctionDef) and n.name.value == m["name"] and n.returns is not None
        and where.start.line <= f.line <= where.end.line
    ]
    if len(defs) != 1:
        return None
    func = defs[0]
    assert isinstance(func, cst.FunctionDef)
    return replace(loc, func, func.with_changes(returns=None))
