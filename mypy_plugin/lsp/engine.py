"""mypy's fine-grained engine in this process, with the plugin, over the open documents.

One build of the open files (and what they import), then an update of the modules whose text
changed: unsaved text reaches mypy as ``--shadow-file`` copies (mypy parses them, and the
plugin's host-call evaluation reads them), written anew for each version. Files that are not
open are watched by their size, mtime and hash when a file is saved or the client says files
changed. Never ``--force-reload`` (it leaves the daemon with false ``no-redef`` and
``name-defined`` errors); when mypy's update fails (its ``KeyError: 'weakref'`` in
``find_reachable_changed_modules`` when the checked files change, or any other error), the
engine is built again from scratch, and the log says so.

Every method runs on the one thread that runs mypy.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import mypy.build
from mypy.build import BuildSource
from mypy.errors import CompileError
from mypy.find_sources import InvalidSourceList, create_source_list
from mypy.fscache import FileSystemCache
from mypy.fswatcher import FileSystemWatcher
from mypy.main import process_options
from mypy.modulefinder import compute_search_paths
from mypy.nodes import Expression, MypyFile
from mypy.options import Options
from mypy.server.update import FineGrainedBuildManager
from mypy.types import Type

from .. import insight
from .. import mypy_output as records
from ..cli import check_config
from .mypy_glue import module_at, quiet, tree_expressions, unreachable
from .texts import Texts

# As pypto-check's machine outputs: exact spans and codes, one line each.
_FLAGS = ["--show-column-numbers", "--show-error-end", "--show-error-codes", "--no-pretty", "--no-error-summary",
          "--hide-error-context", "--no-color-output"]
_PRUNE_AT = 50_000  # exported expression types kept before those of closed or old trees are dropped


class Engine:
    def __init__(self, root: Path, mypy_args: Sequence[str], log: Callable[[str], None],
                 warn: Callable[[str], None] | None = None) -> None:
        """``log``: what the engine does; ``warn``: what goes wrong (``log`` too by default)."""
        self.root = root
        self.log = log
        self.warn = warn or log
        self._scratch = tempfile.TemporaryDirectory(prefix="pypto-lsp-")
        self.scratch = self._scratch.name  # the shadow files are here
        config_args, self.user_config, warning = check_config(root, Path(self._scratch.name), mypy_args)
        if warning is not None:
            self.warn(warning)
        self._flags = [*config_args, *mypy_args, *_FLAGS]
        self.texts = Texts(Path(self._scratch.name))
        self._fgm: FineGrainedBuildManager | None = None
        self._options: Options | None = None
        self._sources: list[BuildSource] = []
        self._watcher: FileSystemWatcher | None = None
        self._disk_may_differ = False
        self._messages: list[str] = []
        self.fatal: list[str] = []  # why nothing could be checked (bad config, plugin error)
        self.generation = 0  # one more after each check that changed anything
        self.builds = 0
        self._kept_types = 0
        self.prune_at = _PRUNE_AT
        self._trial: dict[str, str | None] = {}  # the texts a trial replaced
        insight.recording(True)

    # --- what the client says -------------------------------------------------------
    def set_text(self, path: str, text: str | None) -> None:
        """An open document's text (None: closed; mypy then reads the file on disk)."""
        self.texts.set(path, text)

    def disk_changed(self) -> None:
        """A file was saved or changed on disk: compare the watched files at the next check."""
        self._disk_may_differ = True

    def is_current(self, path: str) -> bool:
        return self._fgm is not None and self.texts.is_current(path)

    # --- checking -------------------------------------------------------------------
    def check(self) -> dict[str, list[records.Record]]:
        """Bring mypy up to date with the open texts; the records of each open file."""
        if self._fgm is None:
            self._build()
        else:
            self._update()
        return self.records()

    def records(self) -> dict[str, list[records.Record]]:
        out: dict[str, list[records.Record]] = {path: [] for path in self.texts.open}
        for rec in records.parse("\n".join(self._messages)).records:
            path = os.path.abspath(rec.path)
            if path in out:
                out[path].append(rec)
        return out

    def _update(self) -> None:
        fgm = self._fgm
        assert fgm is not None
        dirty = self.texts.dirty()
        on_disk = self._disk_changes() if self._disk_may_differ else []
        if not dirty and not on_disk:
            return
        self._write_shadows(dirty)
        started = time.perf_counter()
        try:
            changed = [(self._module(p), p) for p in dirty if p in self.texts.open or self._in_build(p)] + on_disk
            closed = any(p not in self.texts.open for _m, p in changed)
            for path in dirty:
                insight.forget(path)
            with quiet(self.warn):
                self._messages = fgm.update(changed, [])
                # Then, with the new files' imports in the graph, what no open file reaches.
                removed = self._unused() if closed else []
                if removed:
                    self._messages = fgm.update([], removed)
        except Exception as err:  # mypy's engine is in an unknown state: start again
            self.warn(f"mypy's fine-grained update failed ({type(err).__name__}: {err}); rebuilding from scratch")
            self._build()
            return
        self._finished(dirty)
        self.log(f"updated {', '.join(m for m, _ in changed) or '-'}"
                 + (f", dropped {len(removed)} module(s) no open file imports ({removed[0][0]}...)" if removed else "")
                 + f" in {time.perf_counter() - started:.3f}s")

    def _unused(self) -> list[tuple[str, str]]:
        """After files were closed: the project's modules no open file reaches through its
        imports any more (closed files, what only they imported). They leave the build, as the mypy daemon
        drops what its sources no longer reach: mypy re-checks every function with an error at
        each update, so what stayed would cost every later keystroke."""
        assert self._fgm is not None
        self._sources = [s for s in self._sources if s.path in self.texts.open]
        return unreachable(self._fgm.graph, set(self.texts.open), str(self.root))

    def _build(self) -> None:
        started = time.perf_counter()
        self._fgm = None
        self.fatal = []
        self.builds += 1
        insight.recording(True)  # forgets what older builds recorded
        fscache = FileSystemCache()
        dirty = self.texts.dirty()
        self.texts.write(dirty)
        try:
            with quiet(self.warn) as said:
                options = self._make_options(fscache)
                sources = [self._source(p, options, fscache) for p in sorted(self.texts.open)]
                if not sources:
                    self._messages = []
                    return
                result = mypy.build.build(sources=sources, options=options, fscache=fscache)
        except CompileError as err:  # a blocking error (syntax): no engine until it is fixed
            self._messages = list(err.messages)
            self._finished(dirty)
            return
        except (SystemExit, InvalidSourceList) as err:  # a bad config or [pypto-stubs] section
            self.fatal = [line for line in said.getvalue().splitlines() if line.strip()] or [str(err)]
            self.warn("cannot check: " + " ".join(self.fatal))
            self._messages = []
            return
        except Exception as err:  # mypy or the plugin failed: say so, try again at the next change
            self.fatal = [f"mypy failed: {type(err).__name__}: {err}"]
            self.warn("cannot check: " + self.fatal[0])
            self._messages = []
            return
        self._options = options
        self._sources = sources
        self._fgm = FineGrainedBuildManager(result)
        self._messages = list(result.errors)
        self._watcher = FileSystemWatcher(fscache)
        self._watcher.add_watched_paths(self._disk_paths())
        self._watcher.find_changed()  # the state the build read
        self._disk_may_differ = False
        self._finished(dirty)
        self.log(f"built {len(result.graph)} modules in {time.perf_counter() - started:.3f}s")

    def _make_options(self, fscache: FileSystemCache) -> Options:
        _sources, options = process_options(list(self._flags), require_targets=False, server_options=True,
                                            fscache=fscache)
        # What the mypy daemon sets for its fine-grained engine.
        options.incremental = True
        options.fine_grained_incremental = True
        options.cache_dir = os.devnull
        options.local_partial_types = True
        options.num_workers = 0
        options.export_types = True  # the types of expressions, for hover and inlay hints
        # One list that every module's options share (they are copies of these): the plugin's
        # host-call evaluation reads the unsaved text from it.
        options.shadow_file = [[p, s] for p, s in self.texts.shadows.items()]
        return options

    def _source(self, path: str, options: Options, fscache: FileSystemCache) -> BuildSource:
        """``path`` as a source on mypy's command line: its module name and the folder its
        imports are found from."""
        try:
            found = create_source_list([path], options, fscache)
        except InvalidSourceList:
            found = []
        return found[0] if found else BuildSource(path, Path(path).stem, base_dir=os.path.dirname(path))

    def _in_build(self, path: str) -> bool:
        assert self._fgm is not None
        return module_at(self._fgm.graph, path) is not None

    def _module(self, path: str) -> str:
        """The module name mypy has for ``path`` (as its importers name it), or the name it
        gets as a new source (whose folder then joins the import search path)."""
        assert self._fgm is not None and self._options is not None
        module = module_at(self._fgm.graph, path)
        if module is not None:
            return module
        manager = self._fgm.manager
        source = self._source(path, self._options, manager.fscache)
        self._sources.append(source)
        manager.search_paths = compute_search_paths(self._sources, self._options, manager.data_dir)
        return source.module

    def _write_shadows(self, dirty: list[str]) -> None:
        self.texts.write(dirty)
        if self._fgm is None or self._options is None:
            return
        manager = self._fgm.manager
        manager.shadow_map.clear()
        manager.shadow_map.update(self.texts.shadows)
        manager.shadow_equivalence_map.clear()
        assert self._options.shadow_file is not None
        self._options.shadow_file[:] = [[p, s] for p, s in self.texts.shadows.items()]
        manager.fscache.flush()
        self._fgm.flush_cache()

    def _finished(self, dirty: list[str]) -> None:
        self.texts.checked(dirty)
        self.generation += 1
        self._prune_types()

    def _disk_paths(self) -> list[str]:
        if self._fgm is None:
            return []
        paths = (os.path.abspath(s.xpath) for s in self._fgm.graph.values() if s.xpath)
        return [p for p in paths if p not in self.texts.open and os.path.isfile(p)]

    def _disk_changes(self) -> list[tuple[str, str]]:
        """The modules whose file changed on disk since the last look (not the open ones)."""
        self._disk_may_differ = False
        if self._fgm is None or self._watcher is None:
            return []
        self._fgm.manager.fscache.flush()
        self._watcher.add_watched_paths(self._disk_paths())
        changed = [p for p in self._watcher.find_changed() if p not in self.texts.open]
        return [(self._module(p), p) for p in sorted(changed)]

    def _prune_types(self) -> None:
        """Keep the exported types of the open files' current trees only (each update adds the
        types of a new tree, and of the copies the plugin checks)."""
        if self._fgm is None:
            return
        types = self._fgm.manager.all_types
        if len(types) < max(self.prune_at, 2 * self._kept_types):
            return
        keep: set[Expression] = set()
        for path in self.texts.open:
            tree = self.tree(path)
            if tree is not None:
                keep |= tree_expressions(tree)
        for expr in [e for e in types if e not in keep]:
            del types[expr]
        self._kept_types = len(types)

    # --- what hover, inlay hints and code actions read -----------------------------
    def tree(self, path: str) -> MypyFile | None:
        module = module_at(self._fgm.graph, path) if self._fgm is not None else None
        return self._fgm.manager.modules.get(module) if self._fgm is not None and module is not None else None

    @property
    def modules(self) -> dict[str, MypyFile]:
        return self._fgm.manager.modules if self._fgm is not None else {}

    def exported_types(self) -> int:
        """How many expression types mypy keeps for hover and inlay hints (pruned as they grow)."""
        return len(self._fgm.manager.all_types) if self._fgm is not None else 0

    def type_of(self, expr: Expression) -> Type | None:
        return self._fgm.manager.all_types.get(expr) if self._fgm is not None else None

    def open_texts(self) -> dict[str, str]:
        return dict(self.texts.open)

    def current_output(self) -> str:
        """mypy's output for the open texts, as its command line prints it."""
        return "\n".join(self._messages)

    def trial(self, texts: Mapping[str, str]) -> str:
        """mypy's output with these texts in place of the files' (for the fixer); :meth:`restore`
        puts the open texts back."""
        if not self._trial:
            self._trial = dict(self.texts.open)
        for path, text in texts.items():
            self._trial.setdefault(path, self.texts.open.get(path))
            self.texts.set(path, text)
        self.check()
        return self.current_output()

    def restore(self) -> None:
        if not self._trial:
            return
        for path, text in self._trial.items():
            self.set_text(path, text)
        self._trial = {}
        self.check()

    def close(self) -> None:
        self._fgm = None
        insight.recording(False)
        self._scratch.cleanup()
