"""Integers and bools read from mypy's expressions and types: literals, Final constants, + - * // % on them;
and which kind of Python number an argument is."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import VAR_NO_INFO, Expression, FloatExpr, IntExpr, MemberExpr, NameExpr, OpExpr, UnaryExpr, Var
from mypy.types import Instance, LiteralType, Type, get_proper_type

from ..knowledge.arith import fold


def int_of_type(t: Type | None) -> int | None:
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, LiteralType) and type(p.value) is int:
        return p.value
    if isinstance(p, Instance) and p.last_known_value is not None and type(p.last_known_value.value) is int:
        return p.last_known_value.value
    return None



def number_kind(e: Expression | None, t: Type | None) -> str | None:
    """"int" (mypy's int: an int at runtime), "float" (a float literal), "number" (mypy's float,
    which an int also is), or None (not a Python number, a bool, a union, unknown)."""
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, LiteralType):
        p = p.fallback
    name = p.type.fullname if isinstance(p, Instance) else None
    if name == "builtins.int":
        return "int"
    if name != "builtins.float":
        return None
    literal = e.expr if isinstance(e, UnaryExpr) and e.op in ("-", "+") else e
    return "float" if isinstance(literal, FloatExpr) else "number"

# How a node's attribute is read: ``getattr``, or a reader that records what a cached result
# depends on (the tile pass: a constant's ``final_value`` changes in the daemon).
Read = Callable[[object, str], object]

# ``pypto-check --coverage`` (``calls/coverage.py`` turns it on): the module constants a dim or a
# tile needed and mypy keeps no value of, by the fullname of the function that read them. An int
# constant's value is part of its module's interface only when it is Final, or when the source
# rewrite declared it (an UPPER_CASE constant bound once in a module that mentions pypto); reading
# any other one would make warm and daemon runs differ from cold ones (docs/architecture.md).
UNREAD: dict[str, set[str]] | None = None


def note_unread(var: Var, reader: str | None) -> None:
    """``var`` (a module-level int whose value mypy does not keep) was needed by ``reader``."""
    if UNREAD is None or reader is None or var.final_value is not None or "." not in var.fullname:
        return
    if var.info is not VAR_NO_INFO:
        return  # a class attribute
    declared = get_proper_type(var.type) if var.type is not None else None
    if isinstance(declared, Instance) and declared.type.fullname == "builtins.int" and declared.last_known_value is None:
        UNREAD.setdefault(reader, set()).add(var.fullname)


# What a local name holds, where a hook knows more than mypy's type (``n = x.shape[1]``).
LocalInt = Callable[[NameExpr], "int | None"]


def int_of_expr(e: Expression | None, read: Read = getattr, depth: int = 0, reader: str | None = None,
                local: LocalInt | None = None) -> int | None:
    """Int literals, Final and module constants, and + - * // % and unary minus on them (``-(COLS // 2)``);
    ``reader``: the function that needs the value (for :func:`note_unread`); ``local``: the value
    of a local name the caller knows."""
    if e is None or depth > 16:
        return None
    if isinstance(e, IntExpr):
        return e.value
    if isinstance(e, UnaryExpr) and e.op == "-":
        inner = int_of_expr(e.expr, read, depth + 1, reader, local)
        return None if inner is None else -inner
    if local is not None and isinstance(e, NameExpr):
        known_here = local(e)
        if known_here is not None:
            return known_here
    if isinstance(e, (NameExpr, MemberExpr)) and isinstance(e.node, Var):
        # Final constants, and module constants whose declared type holds their value (the
        # source rewrite's ``ROWS: _PyptoStubsConst[8] = 8``, rewrite_markers.py).
        final = read(e.node, "final_value")
        if isinstance(final, int) and not isinstance(final, bool):
            return final
        declared = read(e.node, "type")
        known = int_of_type(declared) if isinstance(declared, Type) else None
        if known is not None:
            return known
        note_unread(e.node, reader)
    if isinstance(e, OpExpr):
        a, b = int_of_expr(e.left, read, depth + 1, reader, local), int_of_expr(e.right, read, depth + 1, reader, local)
        return None if a is None or b is None else fold(e.op, a, b)
    return None


def bool_of_expr(e: Expression | None) -> bool | None:
    if isinstance(e, NameExpr) and e.fullname in ("builtins.True", "builtins.False"):
        return e.fullname == "builtins.True"
    if isinstance(e, (NameExpr, MemberExpr)) and isinstance(e.node, Var):
        v = e.node.final_value
        if isinstance(v, bool):
            return v
    return None
