"""The language server (pygls): the open documents, a debounced check after each change, and the
requests; mypy runs on one worker thread (every engine call is queued there, in order)."""

from __future__ import annotations

import asyncio
import os
import sys
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ..versions import pypto_stubs_version
from .diagnostics import diagnostic, record_range, shown
from .engine import Engine
from .settings import Settings

T = TypeVar("T")


class PyptoServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pypto-lsp", pypto_stubs_version())
        self.settings = Settings()
        self.root = Path.cwd()
        self.engine: Engine | None = None  # made, used and dropped on the mypy thread only
        self._mypy = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pypto-lsp-mypy")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._dirty = False
        self._fatal: list[str] = []
        self.log_file: str | None = None
        self.shut_down = False  # the client asked to shut down (then exit is a clean one)

    # --- the mypy thread ------------------------------------------------------------
    async def on_mypy(self, fn: Callable[..., T], *args: Any) -> T:
        self._loop = asyncio.get_running_loop()
        return await self._loop.run_in_executor(self._mypy, fn, *args)

    def get_engine(self) -> Engine:
        if self.engine is None:
            self.engine = Engine(self.root, self.settings.mypy_args, self.say, self.warn)
        return self.engine

    def drop_engine(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def say(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        """A line for the client's log (window/logMessage) and the log file, from any thread."""
        line = f"pypto-lsp: {message}"
        if self.log_file is not None:
            with open(self.log_file, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        if self._loop is not None and not self._loop.is_closed():
            params = types.LogMessageParams(type=kind, message=line)
            self._loop.call_soon_threadsafe(self.window_log_message, params)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls's report of a failed handler: in the log with its traceback (and to the user)."""
        self.warn(f"{getattr(source, '__name__', source)}: " + "".join(traceback.format_exception(error)).rstrip())
        super().report_server_error(error, source)

    def warn(self, message: str) -> None:
        """What went wrong: also on stderr (editors keep the server's stderr in their log)."""
        stderr = sys.__stderr__  # not mypy's redirected stderr of the moment (engine._quiet)
        if stderr is not None:
            stderr.write(f"pypto-lsp: {message}\n")
            stderr.flush()
        self.say(message, types.MessageType.Warning)

    # --- checking -------------------------------------------------------------------
    def changed(self, delay_ms: int | None = None) -> None:
        """A document changed: check after the debounce delay (0: now)."""
        self._dirty = True
        loop = asyncio.get_running_loop()
        self._loop = loop
        if self._timer is not None:
            self._timer.cancel()
        delay = self.settings.debounce_ms if delay_ms is None else delay_ms
        self._timer = loop.call_later(delay / 1000, lambda: loop.create_task(self.check_now()))

    async def check_now(self) -> None:
        """Check the open documents if any changed since the last check, and publish."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._dirty:
            await self.on_mypy(lambda: None)  # after any check in flight
            return
        self._dirty = False
        snapshot = {doc.uri: (doc.version, doc.source) for doc in self.workspace.text_documents.values()
                    if _python_file(doc.uri, doc.language_id)}
        try:
            published = await self.on_mypy(self._check, snapshot)
        except Exception as err:  # a bug here must not silence the server: say it, go on
            self.warn("the check failed: " + "".join(traceback.format_exception(err)).rstrip())
            return
        for uri, (version, diags) in published.items():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diags))
        if self._refresh_hints():
            self.workspace_inlay_hint_refresh(None)

    def _check(self, snapshot: dict[str, tuple[int | None, str]]) -> dict[str, tuple[int | None, list[types.Diagnostic]]]:
        engine = self.get_engine()
        paths = {path_of(uri): uri for uri in snapshot}
        for path in engine.open_texts():
            if path not in paths:
                engine.set_text(path, None)
        for path, uri in paths.items():
            engine.set_text(path, snapshot[uri][1])
        found = engine.check()
        if engine.fatal and engine.fatal != self._fatal:
            self.show_error(" ".join(engine.fatal))
        self._fatal = engine.fatal
        codec = self.workspace.position_codec
        out = {}
        for path, uri in paths.items():
            version, text = snapshot[uri]
            lines = text.splitlines(keepends=True)
            kept, hidden = shown(found.get(path, []), lines, user_config=engine.user_config,
                                 show_all=self.settings.show_all)
            if hidden:
                self.say(f"{Path(path).name}: {hidden} other mypy error{'s' * (hidden != 1)} hidden (not about "
                         "PyPTO; no mypy config found); the showAll setting shows them")
            out[uri] = (version, [diagnostic(r, codec.range_to_client_units(lines, record_range(r, lines)),
                                             self.settings.codes_url) for r in kept])
        return out

    def show_error(self, message: str) -> None:
        if self._loop is not None:
            params = types.ShowMessageParams(type=types.MessageType.Error, message=f"pypto-lsp: {message}")
            self._loop.call_soon_threadsafe(self.window_show_message, params)

    def _refresh_hints(self) -> bool:
        workspace = self.client_capabilities.workspace
        hints = workspace.inlay_hint if workspace is not None else None
        return bool(hints is not None and hints.refresh_support)

    def path_and_lines(self, uri: str) -> tuple[str, list[str]]:
        doc = self.workspace.get_text_document(uri)
        return path_of(uri), doc.source.splitlines(keepends=True)

    def stop_mypy(self) -> None:
        self._mypy.shutdown(wait=False, cancel_futures=True)


def _python_file(uri: str, language: str | None) -> bool:
    """What mypy checks: Python files (an editor may send other documents too)."""
    return uri.startswith("file:") and (language == "python" or uri.endswith((".py", ".pyi")))


def path_of(uri: str) -> str:
    return os.path.normpath(to_fs_path(uri) or uri)
