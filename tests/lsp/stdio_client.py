"""A small LSP client over stdio for the end-to-end tests and the benchmark: starts ``pypto-lsp``
as an editor does, frames JSON-RPC messages, answers the server's requests, keeps what it
publishes. Synchronous: each request waits for its answer (with a timeout)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

TIMEOUT = 60.0


class Client:
    def __init__(self, root: Path, command: Sequence[str] | None = None, *, settings: dict[str, Any] | None = None,
                 env: dict[str, str] | None = None, capabilities: dict[str, Any] | None = None) -> None:
        self.root = root
        cmd = list(command or [sys.executable, "-m", "mypy_plugin.lsp"])
        self.process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        cwd=root, env={**os.environ, **(env or {})})
        assert self.process.stdin is not None and self.process.stdout is not None
        self._out: BinaryIO = self.process.stdin
        self._id = 0
        self._answers: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self.notifications: list[dict[str, Any]] = []
        self.server_requests: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        caps = capabilities if capabilities is not None else {
            "textDocument": {"publishDiagnostics": {"versionSupport": True},
                             "codeAction": {"resolveSupport": {"properties": ["edit"]}},
                             "inlayHint": {}, "hover": {"contentFormat": ["markdown"]}},
            "workspace": {"inlayHint": {"refreshSupport": True}, "configuration": False},
        }
        self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": caps,
                                    "initializationOptions": settings or {}})
        self.notify("initialized", {})
        self.versions: dict[str, int] = {}
        self.opened: dict[str, int] = {}  # uri -> how many notifications came before its last didOpen

    # --- framing --------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        with self._lock:
            self._out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self._out.flush()

    def _read(self, stream: BinaryIO) -> None:
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:  # the server asks: answer null
                self.server_requests.append(message)
                self._send({"id": message["id"], "result": None})
            elif "id" in message:
                self._answers.setdefault(message["id"], queue.Queue()).put(message)
            else:
                with self._changed:
                    self.notifications.append(message)
                    self._changed.notify_all()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line.decode("utf-8", "replace").rstrip("\n"))

    def request(self, method: str, params: Any, timeout: float = TIMEOUT) -> Any:
        self._id += 1
        number = self._id
        answers = self._answers.setdefault(number, queue.Queue())
        self._send({"id": number, "method": method, "params": params})
        answer = answers.get(timeout=timeout)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    # --- documents ------------------------------------------------------------------
    def uri(self, path: Path) -> str:
        return path.resolve().as_uri()

    def open(self, path: Path, text: str | None = None, language: str = "python") -> str:
        uri = self.uri(path)
        self.versions[uri] = 1
        self.opened[uri] = len(self.notifications)
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": 1,
            "text": path.read_text(encoding="utf-8") if text is None else text}})
        return uri

    def change(self, uri: str, text: str) -> int:
        self.versions[uri] += 1
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": self.versions[uri]},
                                               "contentChanges": [{"text": text}]})
        return self.versions[uri]

    def close(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """The diagnostics the server last published for ``uri`` (at ``version``) since it was opened."""
        after = self.opened.get(uri, 0)

        def found() -> list[dict[str, Any]] | None:
            for n in reversed(self.notifications[after:]):
                p = n.get("params", {})
                if n.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri and (
                        version is None or p.get("version") == version):
                    return list(p["diagnostics"])
            return None
        return self.wait_for(found, timeout)

    def wait_for(self, found: Callable[[], Any], timeout: float = TIMEOUT) -> Any:
        end = time.monotonic() + timeout
        with self._changed:
            while True:
                got = found()
                if got is not None:
                    return got
                left = end - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise TimeoutError("no answer; server stderr:\n" + "\n".join(self.stderr[-40:]))
                self._changed.wait(left)

    def hover(self, uri: str, line: int, character: int) -> Any:
        return self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": character}})

    def inlay_hints(self, uri: str, first: int = 0, last: int = 10_000) -> list[dict[str, Any]]:
        return list(self.request("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": first, "character": 0}, "end": {"line": last, "character": 0}}}) or [])

    def code_actions(self, uri: str, diagnostics: list[dict[str, Any]], only: list[str] | None = None) -> list[Any]:
        rng = diagnostics[0]["range"] if diagnostics else {"start": {"line": 0, "character": 0},
                                                           "end": {"line": 0, "character": 0}}
        context: dict[str, Any] = {"diagnostics": diagnostics}
        if only is not None:
            context["only"] = only
        return list(self.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": rng,
                                                             "context": context}) or [])

    def shutdown(self) -> int:
        try:
            self.request("shutdown", None, timeout=30)
            self.notify("exit", None)
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
