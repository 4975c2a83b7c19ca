"""The edits that turn each PyPTO tensor annotation into the subscript form mypy reads."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Final

from .edit_proof import CONSTANT, IMPORT
from .annotation_items import TUPLE_SHAPE, PyptoNames, foreign, status_tuple
from .local_aliases import EnclosingAliases
from .local_constants import LocalConstant
from ..ast_fields import SIMPLE_STATEMENTS, dotted
from ..knowledge.frontend import names_jit
from .module_constants import ModuleConstants
from .reparse_guard import ALIAS_PREFIX
from .source_text import EditError, SourceText

EXPR_PREFIX: Final = "="  # marks a dim kept as source text (never a valid type string)
# ``ROWS: _PyptoStubsConst[8] = 8``: a module constant typed as an int that knows its value
# (not Final: other modules may still assign it; see rewrite_markers.py).
CONST_ALIAS: Final = ALIAS_PREFIX + "Const"
CONST_TUPLE_ALIAS: Final = ALIAS_PREFIX + "ConstTuple"
CONST_MARKER: Final = "ForwardRef"  # the typing name both aliases import (rewrite_markers.py says why)
ANY_ALIAS: Final = ALIAS_PREFIX + "Any"  # also "a dtype we cannot see" inside a tensor annotation
_POSITIONAL_KEYWORDS: Final = frozenset({"shape", "dtype", "format"})
UNKNOWN_SHAPE: Final = "..."  # Tensor[..., DT]: any shape


def _safe_dim(node: ast.expr) -> bool:
    """Dims mypy's type parser reads as they are (anything else may become ``Arg(...)``)."""
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, (bytes, complex))
    if isinstance(node, (ast.Name, ast.Attribute)):
        return dotted(node) is not None
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and (
        isinstance(node.operand, ast.Constant) and type(node.operand.value) is int
    )


class AnnotationRewriter:
    def __init__(self, src: SourceText, consts: ModuleConstants, names: PyptoNames) -> None:
        self.src = src
        self.consts = consts
        self.names = names
        self.imports: list[str] = []  # typing names the rewritten source needs
        self.params: frozenset[str] = frozenset()
        self.enclosing: EnclosingAliases | None = None  # the functions around the annotated def
        self.def_line = 0  # the line of that def (a factory's alias counts when bound before it)
        self.inline_locals = True
        self.spans: list[tuple[int, int]] = []  # the annotations edited (for edit_proof)

    def _alias(self, name: str) -> ast.expr | None:
        if self.enclosing is not None:
            local, value = self.enclosing.lookup(name, self.def_line)
            if local:
                if isinstance(value, ast.Attribute) and self._foreign(value):
                    return None  # ``d = cfg.head_dim``: an object's attribute, kept as the name
                return value if self.inline_locals else None
        return None if name in self.params else self.consts.alias(name)

    def need_marker(self, alias: str) -> None:
        """A name typed by ``rewrite_markers.py`` (all import the same typing class)."""
        self._need(CONST_MARKER, alias)

    def _need(self, name: str, alias: str) -> None:
        entry = f"{name} as {alias}"
        if entry not in self.imports:
            self.imports.append(entry)

    def _replace(self, node: ast.expr, text: str) -> None:
        self.src.replace(self.src.start(node), self.src.end(node), text)

    def _unknown_item(self, node: ast.expr) -> None:
        """An item we cannot read: "some dtype" for the type hook, nothing mypy's parser trips on."""
        self._replace(node, ANY_ALIAS)
        self._need("Any", ANY_ALIAS)

    # --- annotations ---------------------------------------------------------------
    def annotation(self, site: AnnotationSite) -> None:
        node = site.node
        edits = len(self.src.edits)
        self.enclosing, self.def_line, self.inline_locals = site.enclosing, site.def_line, site.inline_locals
        self._annotation(node, site.params)
        if len(self.src.edits) > edits:
            self.spans.append((self.src.start(node), self.src.end(node)))

    def _annotation(self, node: ast.expr, enclosing_params: frozenset[str]) -> None:
        self.params = enclosing_params  # a module alias shadowed by one of these is not inlined
        if isinstance(node, ast.Call) and self.names.is_tensor(node.func):
            self._call(node)
        elif isinstance(node, ast.Subscript) and self.names.is_tensor(node.value):
            self._subscript(node)
        elif isinstance(node, ast.Name) and node.id in enclosing_params:
            # ``s: dtype`` in a kernel factory: a value (a closure parameter) used as an
            # annotation. Real kernels do this for scalar parameters; read it as Any.
            self._replace(node, ANY_ALIAS)
            self._need("Any", ANY_ALIAS)

    def _call(self, node: ast.Call) -> None:
        src = self.src
        end = src.end(node)
        paren = src.open_paren_after(src.end(node.func), end)
        src.expect(end - 1, b")")
        if (
            not node.args and not node.keywords
            or any(isinstance(a, ast.Starred) for a in node.args)
            or any(k.arg is None for k in node.keywords)
        ):
            # Tensor() / *args / **kwargs: some tensor (the frontend reads the runtime one).
            if b"\n" in src.data[paren:end] or b"\r" in src.data[paren:end]:
                # Over several lines the bare name needs parentheses to stay one expression.
                src.insert(src.start(node), "(")
                src.blank(paren, end - 1)
            else:
                src.blank(paren, end)
            return
        shape = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "shape"), None)
        src.replace(paren, paren + 1, "[")
        src.replace(end - 1, end, f", {TUPLE_SHAPE!r}]" if self._status_tuple(shape) else "]")
        for i, arg in enumerate(node.args):
            if i == 0:
                self._shape(arg)
            else:
                self._item(arg)
        for kw in node.keywords:
            # ``name=`` up to its ``=`` only: a parenthesized value keeps its parentheses.
            src.blank(src.start(kw), src.data.index(b"=", src.start(kw)) + 1)
            if kw.arg == "shape":
                self._shape(kw.value)
            elif kw.arg in _POSITIONAL_KEYWORDS:
                self._item(kw.value)
            else:  # name=, data_ptr=, device=, ori_shape=: nothing the checker reads
                self._replace(kw.value, "None")

    def _subscript(self, node: ast.Subscript) -> None:
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if items and self._status_tuple(items[0]):
            end = self.src.end(node)
            self.src.expect(end - 1, b"]")
            self.src.insert(end - 1, f", {TUPLE_SHAPE!r}")
        for i, item in enumerate(items):
            if isinstance(item, ast.Dict):
                self._dict(item, first=i == 0)
            elif i == 0:
                self._shape(item)
            else:
                self._item(item)

    def _dict(self, node: ast.Dict, first: bool) -> None:
        """``{'shape': S, 'dtype': D}`` -> `` S, D``; ``{}`` or ``{**SPEC}``: unknown."""
        src = self.src
        if not node.keys or any(k is None for k in node.keys):
            if first:
                self._replace(node, UNKNOWN_SHAPE)
            else:
                self._unknown_item(node)
            return
        start, end = src.start(node), src.end(node)
        src.expect(start, b"{")
        src.expect(end - 1, b"}")
        src.blank(start, start + 1)
        src.blank(end - 1, end)
        for key, value in zip(node.keys, node.values):
            assert key is not None
            src.blank(src.start(key), src.colon_after(src.end(key)) + 1)  # 'shape':
            if isinstance(key, ast.Constant) and key.value == "shape":
                self._shape(value)
            else:
                self._item(value)

    def _shape(self, node: ast.expr) -> None:
        src = self.src
        if isinstance(node, ast.Name):
            alias = self._alias(node.id)
            if isinstance(alias, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in alias.elts):
                self._replace(node, "[" + ", ".join(self._dim_text(e) for e in alias.elts) + "]")
            return
        if isinstance(node, (ast.List, ast.Tuple)) and any(isinstance(e, ast.Starred) for e in node.elts):
            self._replace(node, UNKNOWN_SHAPE)  # [*S, 8]: the rank is not known
            return
        if isinstance(node, ast.Tuple):
            start, end = src.start(node), src.end(node)
            if src.data[start:start + 1] != b"(" or src.data[end - 1:end] != b")":
                return  # Tensor[8, 64]: items, not a shape
            src.replace(start, start + 1, "[")
            src.replace(end - 1, end, "]")
        if isinstance(node, (ast.List, ast.Tuple)):
            for e in node.elts:
                text = self._dim_text(e)
                if text != src.text(e):
                    self._replace(e, text)
        elif self._foreign(node):
            self._replace(node, self._text_item(node))  # cfg.shape: read by the type hook (or unknown)
        elif not _safe_dim(node):
            self._replace(node, UNKNOWN_SHAPE)  # Tensor(x.shape, DT): a shape we cannot see

    def _dim_text(self, node: ast.expr) -> str:
        """One line mypy's type parser reads: the dim itself, its folded value, or a string."""
        if isinstance(node, ast.Name):
            alias = self._alias(node.id)
            if isinstance(alias, ast.Attribute) and dotted(alias) is not None:  # _BH = pypto.DYNAMIC
                return self.src.one_line(alias)
        if self._foreign(node):
            return self._text_item(node)
        if _safe_dim(node):
            return self.src.one_line(node)
        value = self.consts.int_value(node)
        if value is not None:
            return str(value)
        # repr: a valid one-line literal whatever the text holds (quotes, backslashes).
        return repr(EXPR_PREFIX + ast.unparse(node))

    def _item(self, node: ast.expr) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # A tensor name ("x"): mypy would read it as a forward reference to a type named x.
            self._replace(node, "0")
            return
        if isinstance(node, ast.Name):
            alias = self._alias(node.id)
            if isinstance(alias, ast.Attribute) and dotted(alias) is not None:  # HALF = pypto.DT_FP16
                self._replace(node, self.src.one_line(alias))
            return
        if self._foreign(node):
            self._replace(node, self._text_item(node))
        elif not _safe_dim(node):
            self._unknown_item(node)

    def _status_tuple(self, node: ast.expr | None) -> bool:
        if isinstance(node, ast.Name):
            alias = self._alias(node.id)
            node = alias if isinstance(alias, ast.Tuple) else node
        return status_tuple(node, self.names, self._alias)

    def _foreign(self, node: ast.expr) -> bool:
        return foreign(node, self.names)

    @staticmethod
    def _text_item(node: ast.expr) -> str:
        # repr: a valid one-line literal whatever the text holds (quotes, backslashes).
        return repr(EXPR_PREFIX + ast.unparse(node))

    # --- module constants and the helper import ---------------------------------------
    def annotate_constants(self) -> None:
        """``ROWS = 8`` -> ``ROWS: _PyptoStubsConst[8] = 8``, ``VEC = (8, 4)`` ->
        ``VEC: _PyptoStubsConstTuple[8, 4] = (8, 4)``: the folded value becomes the declared type."""
        for stmt in self.consts.final_candidates():
            value = stmt.value
            items = value.elts if isinstance(value, ast.Tuple) else [value]
            ints = [self.consts.int_value(item) for item in items]
            if not ints or any(v is None for v in ints):
                continue
            self._declare(stmt, [v for v in ints if v is not None], isinstance(value, ast.Tuple))

    def annotate_local_constants(self, found: list[LocalConstant]) -> None:
        """The same for int constants bound once in a function (``D = 3072`` in a kernel)."""
        for c in found:
            self._declare(c.stmt, list(c.values), c.is_tuple)

    def _declare(self, stmt: ast.Assign, ints: list[int], is_tuple: bool) -> None:
        alias = CONST_TUPLE_ALIAS if is_tuple else CONST_ALIAS
        self.src.insert(self.src.end(stmt.targets[0]), f": {alias}[{', '.join(map(str, ints))}]", CONSTANT)
        self._need(CONST_MARKER, alias)

    def add_imports(self, tree: ast.Module, trailer: str = "") -> None:
        """``; from typing import ...`` (then ``trailer``) after a simple module-level statement:
        no line moves."""
        if not self.imports:
            return
        anchor = _anchor(tree)
        if anchor is None:
            raise EditError("no simple module-level statement to append the helper import to")
        self.src.insert(self.src.end(anchor), f"; from typing import {', '.join(self.imports)}{trailer}", IMPORT)


def _anchor(tree: ast.Module) -> ast.stmt | None:
    """The first simple statement run at module level, after any ``from __future__`` import
    (those must come first); a ``try:``/``with`` body counts, an ``if`` body may be unreachable."""
    body = tree.body
    futures = [i for i, s in enumerate(body) if isinstance(s, ast.ImportFrom) and s.module == "__future__"]
    after = body[futures[-1] if futures else 0:]
    first_import = next((s for s in after if isinstance(s, (ast.Import, ast.ImportFrom))), None)
    if first_import is not None and not futures:
        return first_import  # where a reader looks for imports
    pending: list[ast.stmt] = list(after)
    while pending:
        stmt = pending.pop(0)
        if isinstance(stmt, (ast.Try, ast.With)):
            pending[:0] = stmt.body
        elif not isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.AsyncWith, ast.FunctionDef,
                                   ast.AsyncFunctionDef, ast.ClassDef)) and type(stmt).__name__ not in ("Match", "TryStar"):
            return stmt
    return None


@dataclass(frozen=True)
class AnnotationSite:
    node: ast.expr  # the annotation
    params: frozenset[str]  # the parameters of the functions around it
    enclosing: EnclosingAliases | None  # the function whose body holds the annotated def
    def_line: int  # the line of that def (or of the annotated assignment)
    # False under a bare ``@pypto.frontend.jit``: its annotations cannot see the factory's names
    # at the first call (rule: jit-annotation-names), and the check that says so reads them as written.
    inline_locals: bool = True


def annotation_sites(tree: ast.Module) -> list[AnnotationSite]:
    """Every annotation, with the parameter names of the functions enclosing it. Annotations
    only sit on statements, so only statements are visited (not expressions)."""
    found: list[AnnotationSite] = []
    _visit_sites(tree.body, frozenset(), None, found)
    return found


def _visit_sites(stmts: list[ast.stmt], params: frozenset[str], enclosing: EnclosingAliases | None,
                 found: list[AnnotationSite]) -> None:
    # (module-level recursion: a nested function calling itself is a reference cycle that would
    # keep the sites, and the annotations they hold, alive until the next garbage collection)
    for child in stmts:
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = child.args
            args = [x for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None]
            inline = not any(names_jit(d) and not isinstance(d, ast.Call) for d in child.decorator_list)
            found.extend(AnnotationSite(x.annotation, params, enclosing, child.lineno, inline)
                         for x in args if x.annotation is not None)
            if child.returns is not None:
                found.append(AnnotationSite(child.returns, params, enclosing, child.lineno, inline))
            _visit_sites(child.body, params | {x.arg for x in args}, EnclosingAliases(child, enclosing), found)
        elif isinstance(child, ast.AnnAssign):
            found.append(AnnotationSite(child.annotation, params, None, child.lineno))
        elif type(child) not in SIMPLE_STATEMENTS:  # blocks of if/for/while/with/try/class, except*, match
            for field in ("body", "orelse", "finalbody"):
                _visit_sites(getattr(child, field, []), params, enclosing, found)
            for block in (*getattr(child, "handlers", []), *getattr(child, "cases", [])):
                _visit_sites(block.body, params, enclosing, found)
