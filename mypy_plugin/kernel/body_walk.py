"""The one walker over function bodies: each node's sub-expressions in evaluation order, every
statement of a body, every expression under a node, and the names a comprehension binds.

Every flow pass and check reads bodies through these (tiles, moves, returns, tile setters,
decorated functions), so a construct one of them sees (a comprehension, a dict display, a
walrus) all of them see. Lambda bodies are not walked: they run when called. The walks use
explicit stacks: ``t + t + ... + t`` nests thousands deep.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Final

from mypy.nodes import (
    BytesExpr,
    ComplexExpr,
    EllipsisExpr,
    FloatExpr,
    IntExpr,
    StrExpr,
    AssertStmt,
    AssertTypeExpr,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    CallExpr,
    CastExpr,
    ClassDef,
    ComparisonExpr,
    ConditionalExpr,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    IfStmt,
    Import,
    ImportFrom,
    IndexExpr,
    ListComprehension,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    RaiseStmt,
    ReturnStmt,
    RevealExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    TypeApplication,
    UnaryExpr,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)


def _generator(g: GeneratorExpr | DictionaryComprehension) -> list[Expression | None]:
    """Each ``for`` clause's iterable, then its conditions; the element last (it runs per item)."""
    out: list[Expression | None] = []
    for seq, conds in zip(g.sequences, g.condlists):
        out.append(seq)
        out.extend(conds)
    if isinstance(g, GeneratorExpr):
        out.append(g.left_expr)
    else:
        out.extend((g.key, g.value))
    return out


# What each node class evaluates, in order: attributes holding an expression or a list of them.
# A class not listed has no sub-expressions here (names, literals, lambdas, nested definitions).
# The right side of an assignment runs first; a compound statement's head only (its blocks are
# ``statements``' job). Dict displays and comprehensions are in ``child_exprs``.
_ATTRIBUTES: Final[dict[type, tuple[str, ...]]] = {
    CallExpr: ("callee", "args"),
    MemberExpr: ("expr",),
    IndexExpr: ("base", "index"),
    OpExpr: ("left", "right"),
    ComparisonExpr: ("operands",),
    UnaryExpr: ("expr",),
    SliceExpr: ("begin_index", "end_index", "stride"),
    TupleExpr: ("items",),
    ListExpr: ("items",),
    SetExpr: ("items",),
    StarExpr: ("expr",),
    ConditionalExpr: ("cond", "if_expr", "else_expr"),
    AssignmentExpr: ("value", "target"),
    ListComprehension: ("generator",),
    SetComprehension: ("generator",),
    CastExpr: ("expr",),
    AssertTypeExpr: ("expr",),
    RevealExpr: ("expr",),
    AwaitExpr: ("expr",),
    YieldExpr: ("expr",),
    YieldFromExpr: ("expr",),
    TypeApplication: ("expr",),
    ExpressionStmt: ("expr",),
    AssignmentStmt: ("rvalue", "lvalues"),
    OperatorAssignmentStmt: ("rvalue", "lvalue"),
    ReturnStmt: ("expr",),
    AssertStmt: ("expr", "msg"),
    DelStmt: ("expr",),
    RaiseStmt: ("expr", "from_expr"),
    IfStmt: ("expr",),
    WhileStmt: ("expr",),
    ForStmt: ("expr", "index"),
    WithStmt: ("expr", "target"),
    TryStmt: ("types", "vars"),
    MatchStmt: ("subject", "guards"),
    # names and literals: nothing under them
    NameExpr: (), IntExpr: (), StrExpr: (), FloatExpr: (), BytesExpr: (), ComplexExpr: (), EllipsisExpr: (),
}


def child_exprs(n: Node) -> list[Expression]:
    """The expressions ``n`` evaluates directly, in evaluation order."""
    names = _ATTRIBUTES.get(type(n))  # (the hot path: most nodes are listed, or a name or literal)
    if names is None:
        if isinstance(n, (GeneratorExpr, DictionaryComprehension)):
            found: list[object] = list(_generator(n))
        elif isinstance(n, DictExpr):
            found = [e for pair in n.items for e in pair]
        else:
            return []
    elif not names:
        return []
    else:
        found = []
        for name in names:
            v = getattr(n, name)
            if type(v) is list:
                found.extend(v)
            else:
                found.append(v)
    return [e for e in found if isinstance(e, Expression)]


def blocks(s: Statement) -> list[Block]:
    """The blocks of a compound statement, in source order (not those of nested definitions)."""
    if isinstance(s, Block):
        return [s]
    if isinstance(s, IfStmt):
        return [*s.body, *([s.else_body] if s.else_body else [])]
    if isinstance(s, (ForStmt, WhileStmt)):
        return [s.body, *([s.else_body] if s.else_body else [])]
    if isinstance(s, WithStmt):
        return [s.body]
    if isinstance(s, TryStmt):
        return [b for b in (s.body, *s.handlers, s.else_body, s.finally_body) if b is not None]
    if isinstance(s, MatchStmt):
        return list(s.bodies)
    return []


# (id(a body's list of statements), into_definitions) -> (that list, its statements): a kernel's
# body is walked by about ten passes and checks (tiles, buffers, shape lists, scopes, dims, moves
# ...); kept for the bodies walked last (a bound, as copies come and go), the list held to tell a
# reused id. mypy never changes a body's lists once it is analyzed (a daemon's edit gives new ones).
_STATEMENTS: dict[tuple[int, bool], tuple[list[Statement], tuple[Statement, ...]]] = {}
_MAX_BODIES: Final = 512


def statements(stmts: Iterable[Statement], *, into_definitions: bool = False) -> Iterator[Statement]:
    """Every statement of a body in source order, nested blocks included. Nested functions and
    classes are yielded but not entered unless ``into_definitions`` (the frontend compiles a
    kernel wherever it is defined)."""
    if type(stmts) is not list:
        return _statements(stmts, into_definitions)
    key = (id(stmts), into_definitions)
    found = _STATEMENTS.get(key)
    if found is None or found[0] is not stmts:
        if len(_STATEMENTS) >= _MAX_BODIES:
            _STATEMENTS.clear()
        found = _STATEMENTS[key] = (stmts, tuple(_statements(stmts, into_definitions)))
    return iter(found[1])


def _statements(stmts: Iterable[Statement], into_definitions: bool) -> Iterator[Statement]:
    stack = list(reversed(list(stmts)))
    while stack:
        s = stack.pop()
        yield s
        inner: list[Statement] = []
        if into_definitions and isinstance(s, (Decorator, FuncDef)):
            inner = (s.func if isinstance(s, Decorator) else s).body.body
        elif into_definitions and isinstance(s, ClassDef):
            inner = s.defs.body
        else:
            for b in blocks(s):
                inner.extend(b.body)
        stack.extend(reversed(inner))


# id(statement) -> (the statement, its expressions): a function's statements are walked by several
# passes (tile values, shape lists, index names, loop bindings, dims), each at many hooks; kept for
# the statements walked last (a bound, as copies come and go), the statement held to tell a reused id.
_EXPRESSIONS: dict[int, tuple[Statement, tuple[Expression, ...]]] = {}
_MAX_STATEMENTS: Final = 1024


def expressions(root: Node) -> Iterator[Expression]:
    """Every expression under ``root`` (a statement or an expression; itself included if an
    expression), in source order, without entering blocks or lambdas."""
    if not isinstance(root, Statement):
        return _expressions(root)
    found = _EXPRESSIONS.get(id(root))
    if found is None or found[0] is not root:
        if len(_EXPRESSIONS) >= _MAX_STATEMENTS:
            _EXPRESSIONS.clear()
        found = _EXPRESSIONS[id(root)] = (root, tuple(_expressions(root)))
    return iter(found[1])


def forget_expressions(body: Block) -> None:
    """Drop what :func:`expressions` keeps for ``body``'s statements (a copy checked and gone:
    kept, its whole tree would stay alive until the bound clears it)."""
    for s in statements(body.body):
        _EXPRESSIONS.pop(id(s), None)
    for into_definitions in (False, True):
        _STATEMENTS.pop((id(body.body), into_definitions), None)


def _expressions(root: Node) -> Iterator[Expression]:
    stack: list[Node] = [root]
    while stack:
        n = stack.pop()
        if isinstance(n, Expression):
            yield n
        stack.extend(reversed(child_exprs(n)))


def body_expressions(stmts: Iterable[Statement]) -> Iterator[Expression]:
    """Every expression evaluated in a body (nested blocks included, nested definitions not)."""
    for s in statements(stmts):
        yield from expressions(s)


def generator_of(n: Node) -> GeneratorExpr | DictionaryComprehension | None:
    """The ``for`` clauses of a comprehension (a list/set comprehension wraps a generator); None
    for anything else."""
    g = n.generator if isinstance(n, (ListComprehension, SetComprehension)) else n
    return g if isinstance(g, (GeneratorExpr, DictionaryComprehension)) else None


def comprehension_names(n: Node) -> frozenset[str]:
    """The names a comprehension binds (its ``for`` targets), which shadow outer names inside it."""
    g = generator_of(n)
    if g is None:
        return frozenset()
    return frozenset(e.name for index in g.indices for e in expressions(index) if isinstance(e, NameExpr))


# (id(body), id(fact)) -> (the body, the answer): hooks ask these at every call, a body is walked
# once per fact (the body is kept to tell a reused id from the same body).
_FACTS: dict[tuple[int, int], tuple[Block, bool]] = {}


def body_has(func: FuncItem, fact: Callable[[Statement], bool]) -> bool:
    """Does any statement of ``func``'s body (nested blocks, not nested functions) satisfy ``fact``?"""
    key = (id(func.body), id(fact))
    found = _FACTS.get(key)
    if found is None or found[0] is not func.body:
        if len(_FACTS) > 4096:
            _FACTS.clear()
        found = _FACTS[key] = (func.body, any(fact(s) for s in statements(func.body.body)))
    return found[1]


def assignment_counts(func: FuncItem, augmented: bool = True) -> Mapping[str, int]:
    """How often each name is bound in ``func``'s body (assignments, augmented ones unless
    ``augmented`` is False, for and with targets, walrus). Kept per body: a copy is asked for at
    each call of the function, and an edit gives the function a new body; a copy's body counts
    as its original's (names are the same)."""
    found = _SAME.get(id(func.body))
    body = found[1] if found is not None and found[0] is func.body else func.body
    return _assignment_counts(body, augmented)


def names_bound_besides(s: Statement) -> list[str]:
    """Names ``s`` binds that :func:`assignment_counts` does not count: an import's, an except
    handler's (not in ``s``'s nested blocks)."""
    if isinstance(s, Import):
        return [(alias or name).split(".")[0] for name, alias in s.ids]
    if isinstance(s, ImportFrom):
        return [alias or name for name, alias in s.names]
    if isinstance(s, TryStmt):
        return [v.name for v in s.vars if v is not None]
    return []


# id(a copy's body) -> (that body, the original's): while the copy is checked (kernel/copies.py)
_SAME: dict[int, tuple[Block, Block]] = {}


def same_body(copy: Block, original: Block | None) -> None:
    """``copy`` is a statement-for-statement copy of ``original`` (None: no longer)."""
    if original is None:
        _SAME.pop(id(copy), None)
    else:
        _SAME[id(copy)] = (copy, original)


@functools.lru_cache(maxsize=512)
def _assignment_counts(body: Block, augmented: bool) -> Mapping[str, int]:
    counts: dict[str, int] = {}
    for s in statements(body.body):
        targets: list[Expression] = []
        if isinstance(s, AssignmentStmt):
            targets.extend(s.lvalues)
        elif isinstance(s, OperatorAssignmentStmt) and augmented:
            targets.append(s.lvalue)
        elif isinstance(s, ForStmt):
            targets.append(s.index)
        elif isinstance(s, WithStmt):
            targets.extend(t for t in s.target if t is not None)
        targets.extend(w.target for w in expressions(s) if isinstance(w, AssignmentExpr))
        while targets:
            t = targets.pop()
            if isinstance(t, NameExpr):
                counts[t.name] = counts.get(t.name, 0) + 1
            elif isinstance(t, (TupleExpr, ListExpr)):
                targets.extend(t.items)
            elif isinstance(t, StarExpr):
                targets.append(t.expr)
    return MappingProxyType(counts)
