"""What the server answers: document sync, hover, inlay hints, code actions, settings, commands."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from ..fix import FIXABLE
from . import actions
from .diagnostics import SOURCE
from .hover import hover_text, tensor_at
from .inlay import hints
from .server import PyptoServer, path_of

RESTART = "pypto.restart"
FIX_ALL_TITLE = "Fix every PyPTO finding that has one fix (pypto-check --fix)"


def make_server() -> PyptoServer:
    ls = PyptoServer()

    @ls.feature(types.INITIALIZE)
    def initialize(ls: PyptoServer, params: types.InitializeParams) -> None:
        folders = params.workspace_folders or []
        root = to_fs_path(folders[0].uri) if folders else (to_fs_path(params.root_uri) if params.root_uri else None)
        if root and os.path.isdir(root):
            ls.root = Path(root)
            os.chdir(root)  # mypy reads its config and prints paths relative to the working directory
        _merge_settings(ls, params.initialization_options)

    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PyptoServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.changed(0)

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PyptoServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed()

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: PyptoServer, params: types.DidSaveTextDocumentParams) -> None:
        await ls.on_mypy(lambda: ls.get_engine().disk_changed())
        ls.changed(0)

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PyptoServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                            diagnostics=[]))
        ls.changed(0)

    @ls.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_files(ls: PyptoServer, params: types.DidChangeWatchedFilesParams) -> None:
        await ls.on_mypy(lambda: ls.engine.disk_changed() if ls.engine is not None else None)
        ls.changed(0)

    @ls.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: PyptoServer, params: types.DidChangeConfigurationParams) -> None:
        before = ls.settings.mypy_args
        _merge_settings(ls, params.settings)
        if ls.settings.mypy_args != before:
            await ls.on_mypy(ls.drop_engine)
        ls.changed(0)

    @ls.command(RESTART)
    async def restart(ls: PyptoServer, *args: Any) -> None:
        ls.say("restarting mypy's engine (the restart command)")
        await ls.on_mypy(ls.drop_engine)
        ls.changed(0)

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: PyptoServer, params: types.HoverParams) -> types.Hover | None:
        path, lines = ls.path_and_lines(params.text_document.uri)
        pos = ls.workspace.position_codec.position_from_client_units(lines, params.position)
        await ls.check_now()
        return await ls.on_mypy(_hover, ls, path, lines, pos.line + 1, pos.character)

    @ls.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    async def inlay_hint(ls: PyptoServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        path, lines = ls.path_and_lines(params.text_document.uri)
        await ls.check_now()
        return await ls.on_mypy(_inlay, ls, path, lines, params.range.start.line + 1, params.range.end.line + 1)

    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND], resolve_provider=True))
    async def code_action(ls: PyptoServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        path, lines = ls.path_and_lines(uri)
        only = params.context.only
        out: list[types.CodeAction] = []
        await ls.check_now()
        if only is None or any(k in (types.CodeActionKind.QuickFix, "quickfix") for k in only):
            for diag in params.context.diagnostics:
                if diag.source != SOURCE or diag.code not in FIXABLE:
                    continue
                start = ls.workspace.position_codec.position_from_client_units(lines, diag.range.start)
                target = types.Diagnostic(range=types.Range(types.Position(start.line, start.character),
                                                            types.Position(start.line, start.character)),
                                          message=diag.message, code=diag.code)
                edit = await ls.on_mypy(_fix_edit, ls, uri, path, actions.finding_of(target))
                if edit is not None:
                    title = f"Fix {diag.code}: {_note(diag.message)}"
                    out.append(types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                                                edit=edit, is_preferred=True))
        if only is None or any(actions.FIX_ALL_KIND.startswith(str(k)) for k in only):
            out.append(types.CodeAction(title=FIX_ALL_TITLE, kind=actions.FIX_ALL_KIND,
                                        data={"uri": uri}))
        return out

    @ls.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(ls: PyptoServer, action: types.CodeAction) -> types.CodeAction:
        data = action.data
        if action.kind == actions.FIX_ALL_KIND and isinstance(data, dict) and isinstance(data.get("uri"), str):
            await ls.check_now()
            action.edit = await ls.on_mypy(_fix_edit, ls, data["uri"], path_of(data["uri"]), None)
            if action.edit is None:
                action.edit = types.WorkspaceEdit(changes={})
        return action

    @ls.feature(types.SHUTDOWN)
    def shutdown(ls: PyptoServer, params: None) -> None:
        ls.shut_down = True
        ls.stop_mypy()

    @ls.feature(types.EXIT)
    def exit(ls: PyptoServer, params: None) -> None:
        # Now, not after the interpreter has freed mypy's whole heap (seconds for a large build).
        if ls.engine is not None:
            shutil.rmtree(ls.engine.scratch, ignore_errors=True)  # the shadow files
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0 if ls.shut_down else 1)

    return ls


def _merge_settings(ls: PyptoServer, data: object) -> None:
    ls.settings, problems = ls.settings.merged(data)
    for problem in problems:
        ls.warn(problem)


def _note(message: str) -> str:
    """The fix a finding's note gives (its last line), for the action's title."""
    lines = message.splitlines()
    return lines[-1] if len(lines) > 1 else "the one fix"


def _hover(ls: PyptoServer, path: str, lines: list[str], line: int, column: int) -> types.Hover | None:
    engine = ls.get_engine()
    tree = engine.tree(path)
    if tree is None or not engine.is_current(path):
        return None
    found = tensor_at(engine, tree, line, column)
    if found is None:
        return None
    node = found.node
    rng = types.Range(types.Position(node.line - 1, node.column),
                      types.Position((node.end_line or node.line) - 1, node.end_column or node.column))
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                    value=hover_text(engine, path, tree, found)),
                       range=ls.workspace.position_codec.range_to_client_units(lines, rng))


def _inlay(ls: PyptoServer, path: str, lines: list[str], first: int, last: int) -> list[types.InlayHint]:
    engine = ls.get_engine()
    tree = engine.tree(path)
    if tree is None or not engine.is_current(path):
        return []
    codec = ls.workspace.position_codec
    return [types.InlayHint(position=codec.position_to_client_units(lines, types.Position(h.line - 1, h.column)),
                            label=h.label, kind=types.InlayHintKind.Type, tooltip=h.tooltip, padding_left=True)
            for h in hints(engine, path, tree, ls.settings.unknown_hints, first, last)]


def _fix_edit(ls: PyptoServer, uri: str, path: str, pick: Any) -> types.WorkspaceEdit | None:
    outcome = actions.fix(ls.get_engine(), path, pick)
    changes = {}
    for printed, (before, after) in outcome.texts.items():
        target = os.path.abspath(printed)
        changes[uri if target == path else Path(target).as_uri()] = actions.text_edits(before, after)
    return types.WorkspaceEdit(changes=changes) if changes else None
