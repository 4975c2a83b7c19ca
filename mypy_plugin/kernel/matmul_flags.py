"""The matmul call that avoids a transposed operand: ``pypto.matmul(a, b.T, dt)``,
``a.matmul(b.T, dt)`` and ``a @ b.T`` become a call with ``a_trans`` / ``b_trans`` flipped
(read by the ``.T`` attribute hook through the tile pass, which sees every call in order)."""

from __future__ import annotations

from mypy.nodes import CallExpr, Expression, MemberExpr, NameExpr, OpExpr, RefExpr

from ..bridge.expr_text import expr_text


def transposed_operand_fixes(e: CallExpr | OpExpr) -> dict[int, str]:
    """``pypto.matmul(a, b.T, dt)`` / ``a.matmul(b.T, dt)`` / ``a @ b.T``: the fix is a flag."""
    fixes: dict[int, str] = {}
    out_args: list[Expression] = []  # the out dtype as written
    if isinstance(e, OpExpr):
        if e.op != "@":
            return fixes
        lhs, rhs, out, flags = e.left, e.right, "pypto.{dtype}", {"a_trans": False, "b_trans": False}
    else:
        callee = e.callee
        if isinstance(callee, RefExpr) and callee.fullname == "pypto.matmul" and len(e.args) >= 2:
            lhs, rhs = e.args[0], e.args[1]
            rest = e.args[2:]
        elif isinstance(callee, MemberExpr) and callee.name == "matmul" and e.args:
            lhs, rhs = callee.expr, e.args[0]
            rest = e.args[1:]
        else:
            return fixes
        out = "out_dtype"
        flags = {"a_trans": False, "b_trans": False}
        for arg, name in zip(rest, e.arg_names[len(e.args) - len(rest):]):
            if name in flags and isinstance(arg, NameExpr) and arg.fullname in ("builtins.True", "builtins.False"):
                flags[name] = arg.fullname == "builtins.True"
            elif name is None or name == "out_dtype":
                out_args.append(arg)
    transposed = [(operand, flag) for operand, flag in ((lhs, "a_trans"), (rhs, "b_trans"))
                  if isinstance(operand, MemberExpr) and operand.name == "T"]
    if not transposed:
        return fixes  # (most matmuls: no text to make)
    for arg in out_args:
        out = expr_text(arg) or out
    for operand, flag in transposed:
        new = dict(flags)
        new[flag] = not flags[flag]
        # The operands as written ((h * 2.0).T gives h * 2.0); one it cannot spell: no
        # matmul note (the attribute hook's own note names pypto.transpose and the flags).
        left = expr_text(lhs.expr if operand is lhs and isinstance(lhs, MemberExpr) else lhs)
        right = expr_text(rhs.expr if operand is rhs and isinstance(rhs, MemberExpr) else rhs)
        if left is None or right is None:
            continue
        extra = "".join(f", {k}=True" for k, v in new.items() if v)
        fixes[id(operand)] = f"pypto.matmul({left}, {right}, {out}{extra})"
    return fixes
