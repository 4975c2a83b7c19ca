"""The text mypy reads for each file: an open document's (unsaved) text through a shadow file, a
new one for each version (the plugin's host-call evaluation caches by the file it reads), and the
file on disk for the rest."""

from __future__ import annotations

from pathlib import Path


class Texts:
    def __init__(self, scratch: Path) -> None:
        self._scratch = scratch
        self.open: dict[str, str] = {}  # open documents: absolute path -> text
        self.shadows: dict[str, str] = {}  # absolute path -> the file that holds its text
        self._checked: dict[str, str] = {}  # the text mypy last checked, for the paths it has a shadow of
        self._stale: list[str] = []
        self._written = 0

    def set(self, path: str, text: str | None) -> None:
        """An open document's text (None: closed; mypy then reads the file on disk)."""
        if text is None:
            self.open.pop(path, None)
        else:
            self.open[path] = text

    def dirty(self) -> list[str]:
        """The files whose text changed (or that were opened or closed) since they were checked."""
        paths = set(self.open) | set(self.shadows)
        return sorted(p for p in paths if p not in self._checked or self._checked[p] != self.open.get(p))

    def is_current(self, path: str) -> bool:
        return path in self._checked and self._checked[path] == self.open.get(path)

    def write(self, dirty: list[str]) -> None:
        """A shadow file for each dirty open document; closed ones lose theirs."""
        for path in dirty:
            old = self.shadows.pop(path, None)
            if old is not None:
                self._stale.append(old)
            text = self.open.get(path)
            if text is not None:
                self._written += 1
                shadow = self._scratch / f"{self._written}-{Path(path).name}"
                shadow.write_bytes(text.encode("utf-8"))
                self.shadows[path] = str(shadow)

    def checked(self, dirty: list[str]) -> None:
        """mypy has read the dirty files: their old shadows can go."""
        for path in dirty:
            text = self.open.get(path)
            if text is None:
                self._checked.pop(path, None)
            else:
                self._checked[path] = text
        for old in self._stale:
            Path(old).unlink(missing_ok=True)
        self._stale = []
