"""One edit per fixable code: the finding and its module in, the fixed module out (or None).

An edit only rewrites what it can prove from the text (a literal it replaces, a flag it adds);
anything else returns None and the finding stays for the user. Every edit keeps the line count,
so findings of other lines keep their positions. Whether the result is accepted is decided by
re-checking it (:mod:`.apply`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

import libcst as cst

from .findings import Finding
from .locate import Located, dotted, int_literal

Edit = Callable[[Located, Finding, str], "cst.Module | None"]

_SPACE: Final = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


# ---- shared pieces -------------------------------------------------------------------------

def _with_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """``call`` with ``name=value`` appended on the same line (a trailing comma moves after it)."""
    args = list(call.args)
    if not args:
        return call.with_changes(args=[cst.Arg(value, keyword=cst.Name(name), equal=_EQUAL)])
    last = args[-1]
    args[-1] = last.with_changes(comma=_SPACE)
    args.append(cst.Arg(value, keyword=cst.Name(name), equal=_EQUAL, comma=last.comma))
    return call.with_changes(args=args)


_EQUAL: Final = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def _call(func: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(
        func=cst.parse_expression(func),
        args=[cst.Arg(a, comma=_SPACE if i < len(args) - 1 else cst.MaybeSentinel.DEFAULT) for i, a in enumerate(args)],
    )


def _replace(loc: Located, old: cst.CSTNode, new: cst.CSTNode) -> cst.Module:
    replaced = loc.module.deep_replace(old, new)
    assert isinstance(replaced, cst.Module)  # only the module node itself is never replaced
    return replaced


def _enclosing_function(loc: Located, node: cst.CSTNode) -> cst.FunctionDef | None:
    return next((a for a in loc.ancestors(node) if isinstance(a, cst.FunctionDef)), None)


# ---- pypto-transpose: `.T` on a matmul operand becomes a_trans / b_trans ----------------------

def transpose(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    node = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Attribute) and n.attr.value == "T")
    if not isinstance(node, cst.Attribute):
        return None
    arg = loc.parents.get(node)
    call = loc.parents.get(arg) if arg is not None else None
    if not isinstance(arg, cst.Arg) or not isinstance(call, cst.Call) or dotted(call.func) != f"{pypto}.matmul":
        return None
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if arg.keyword is not None:
        flag = {"input": "a_trans", "mat2": "b_trans"}.get(arg.keyword.value)
    else:
        flag = {0: "a_trans", 1: "b_trans"}.get(positional.index(arg)) if arg in positional else None
    if flag is None:
        return None
    current = next((a for a in call.args if a.keyword is not None and a.keyword.value == flag), None)
    fixed_arg = arg.with_changes(value=node.value)
    args = [fixed_arg if a is arg else a for a in call.args]
    if current is None:
        new_call = _with_keyword(call.with_changes(args=args), flag, cst.Name("True"))
    elif isinstance(current.value, cst.Name) and current.value.value in ("True", "False"):
        flipped = "False" if current.value.value == "True" else "True"
        args = [a.with_changes(value=cst.Name(flipped)) if a is current else a for a in args]
        new_call = call.with_changes(args=args)
    else:
        return None  # a flag computed at run time: flipping it is the user's call
    return _replace(loc, call, new_call)


# ---- pypto-no-method: the PyPTO spelling of a torch member ------------------------------------

_FREE_FUNCTIONS: Final = {"abs": "abs", "neg": "neg", "pow": "pow", "prod": "prod", "clamp": "clip"}
_CASTS: Final = {"float": "DT_FP32", "half": "DT_FP16"}
_RENAMED_METHODS: Final = {"max": "amax", "min": "amin"}
_NO_METHOD: Final = re.compile(r'^PyPTO tensors have no "\.(?P<name>\w+)(?:\(\))?"')


def no_method(loc: Located, f: Finding, pypto: str) -> cst.Module | None:
    m = _NO_METHOD.match(f.message)
    if m is None:
        return None
    name = m["name"]
    if name == "ndim":
        attr = loc.at(f.line, f.column, lambda n: isinstance(n, cst.Attribute) and n.attr.value == "ndim")
        if not isinstance(attr, cst.Attribute):
            return None
        return _replace(loc, attr, attr.with_changes(attr=cst.Name("dim")))
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
        new = _call(f"{pypto}.{_FREE_FUNCTIONS[name]}", receiver, *(a.value for a in args))
    elif name in _CASTS and not args:
        new = _call(f"{pypto}.cast", receiver, cst.parse_expression(f"{pypto}.{_CASTS[name]}"))
    elif name in ("cast", "to") and len(args) == 1 and positional and _is_dtype(args[0].value, pypto):
        new = _call(f"{pypto}.cast", receiver, args[0].value)
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
    return _replace(loc, call, new)


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
    tile_call = _tile_in_force(loc, f.line, f"{pypto}.set_vec_tile_shapes")
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
    return _replace(loc, target, cst.Integer(suggested["value"]))


def _tile_in_force(loc: Located, line: int, setter: str) -> cst.Call | None:
    """The ``setter(...)`` call that sets the tile for ``line``: the nearest earlier statement of
    the same function, walking out of blocks; None when a branch, loop or nested block before it
    also sets tiles (which call wins depends on the path)."""
    node: cst.CSTNode | None = next(
        (n for n, where in loc.positions.items()
         if isinstance(n, cst.SimpleStatementLine) and where.start.line <= line <= where.end.line),
        None,
    )
    while node is not None:
        block = loc.parents.get(node)
        if isinstance(block, (cst.IndentedBlock, cst.Module)) and isinstance(node, cst.BaseStatement):
            body = list(block.body)
            for earlier in reversed(body[:body.index(node)]):
                found = _setter_calls(earlier, setter)
                if len(found) > 1 or found and not isinstance(earlier, cst.SimpleStatementLine):
                    return None
                if found:
                    return found[0]
        if block is None or isinstance(block, cst.FunctionDef):
            return None  # tiles set by the caller or another function: not this function's text
        node = block
    return None


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


def _setter_calls(stmt: cst.CSTNode, setter: str) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Visitor(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if dotted(node.func) == setter:
                found.append(node)

    stmt.visit(_Visitor())
    return found


# ---- pypto-matmul-k: a ones vector built in the kernel gets the reduced axis' length ----------

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
    func = _enclosing_function(loc, call)
    if func is None:
        return None
    builder = _single_assignment(func, mat2.value)
    if builder is None or dotted(builder.func) not in (f"{pypto}.full", f"{pypto}.ones"):
        return None
    size = builder.args[0].value if builder.args and builder.args[0].keyword is None else None
    if not isinstance(size, (cst.List, cst.Tuple)) or len(size.elements) != len(dims):
        return None
    elements = [
        e if int_literal(e.value) == d else e.with_changes(value=cst.Integer(str(d)))
        for e, d in zip(size.elements, dims)
    ]
    return _replace(loc, size, size.with_changes(elements=elements))


def _single_assignment(func: cst.FunctionDef, name: str) -> cst.Call | None:
    """The call ``name`` is bound to, when the function binds it exactly once, by ``name = call``."""
    values: list[cst.BaseExpression | None] = []

    class _Visitor(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == name:
                    values.append(node.value)
                elif name in _names(target.target):
                    values.append(None)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if name in _names(node.target):
                values.append(None)

        def visit_For(self, node: cst.For) -> None:
            if name in _names(node.target):
                values.append(None)

        def visit_Param(self, node: cst.Param) -> None:
            if node.name.value == name:
                values.append(None)

    func.visit(_Visitor())
    return values[0] if len(values) == 1 and isinstance(values[0], cst.Call) else None


def _names(node: cst.CSTNode) -> set[str]:
    names: set[str] = set()

    class _Visitor(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            names.add(n.value)

    node.visit(_Visitor())
    return names


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
    return _replace(loc, func, func.with_changes(returns=None))


EDITS: Final[dict[str, Edit]] = {
    "pypto-transpose": transpose,
    "pypto-no-method": no_method,
    "pypto-reduce-align": reduce_align,
    "pypto-matmul-k": matmul_k,
    "pypto-kernel-signature": kernel_signature,
}
