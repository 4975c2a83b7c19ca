"""``pypto-check PATH... [mypy options]``: mypy with the PyPTO plugin, config or not.

Uses the project's mypy config when it already enables the plugin; otherwise runs with a
generated config that does (and nothing else), so it works in a project with no mypy setup.
"""

from __future__ import annotations

import configparser
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from mypy import api

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_CONFIG_NAMES = ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg")
_PLUGIN = "mypy_plugin"
# Kernels have no return annotation (PyPTO forbids one), so also check untyped helpers.
_GENERATED = f"[mypy]\nplugins = {_PLUGIN}\ncheck_untyped_defs = True\n"


def _enables_plugin(path: Path) -> bool | None:
    """True/False if ``path`` is a mypy config (with/without our plugin); None if it is not one."""
    try:
        if path.suffix == ".toml":
            with path.open("rb") as f:
                section = tomllib.load(f).get("tool", {}).get("mypy")
            if not isinstance(section, dict):
                return None
            plugins = section.get("plugins", [])
            names = [plugins] if isinstance(plugins, str) else list(plugins)
        else:
            parser = configparser.ConfigParser()
            parser.read(path)
            if not parser.has_section("mypy"):
                return None
            names = parser.get("mypy", "plugins", fallback="").replace("\n", ",").split(",")
    except (OSError, ValueError, configparser.Error):
        return None
    return any(str(n).strip() == _PLUGIN for n in names)


def find_config(start: Path) -> tuple[Path | None, bool]:
    """The config mypy itself would pick in ``start`` or above, and whether it enables the plugin."""
    for folder in [start, *start.parents]:
        for name in _CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file():
                enabled = _enables_plugin(candidate)
                if enabled is not None:
                    return candidate, enabled
    return None, False


_USAGE = """usage: pypto-check [--output {text,json}] PATH... [mypy options]

Type-check PyPTO kernels with the pypto-stubs mypy plugin. Uses the project's mypy config
when it enables the plugin, else a config that only enables it.

  --output json   one JSON object for the run: {"errors": [{path, line, column, end_line,
                  end_column, severity, code, message, notes}], "status": N}, for CI annotations
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_USAGE)
        return 0 if args else 2
    output = "text"
    for flag in ("--output", "-o"):
        if flag in args:
            i = args.index(flag)
            if i + 1 >= len(args) or args[i + 1] not in ("text", "json"):
                sys.stderr.write("pypto-check: --output takes text or json\n")
                return 2
            output = args[i + 1]
            del args[i:i + 2]
    if output == "json":
        args = ["--show-column-numbers", "--show-error-end", "--no-pretty", "--no-error-summary", *args]
    run = _run_json if output == "json" else _run
    if "--config-file" in args:
        return run(args)
    config, enabled = find_config(Path.cwd())
    if config is not None and enabled:
        return run(["--config-file", str(config), *args])
    if config is not None:
        sys.stderr.write(
            f"pypto-check: {config} does not enable the plugin; checking with the plugin only. "
            f'Add plugins = ["{_PLUGIN}"] to it to combine both.\n'
        )
    with tempfile.TemporaryDirectory(prefix="pypto-check-") as tmp:
        generated = Path(tmp) / "mypy.ini"
        generated.write_text(_GENERATED, encoding="utf-8")
        return run(["--config-file", str(generated), *args])


def _run(args: list[str]) -> int:
    stdout, stderr, status = api.run(["--show-error-codes", *args])
    sys.stdout.write(stdout)
    sys.stderr.write(stderr)
    return status


# file:line:col:end_line:end_col: severity: message  [code]
_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+):(?P<end_line>\d+):(?P<end_column>\d+): "
    r"(?P<severity>error|note|warning): (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


def parse_output(text: str) -> list[dict[str, object]]:
    """mypy's lines as records; a note that follows an error on the same line belongs to it."""
    records: list[dict[str, object]] = []
    for raw in text.splitlines():
        m = _LINE.match(raw)
        if m is None:
            continue
        rec: dict[str, object] = {
            "path": m["path"],
            "line": int(m["line"]),
            "column": int(m["column"]),
            "end_line": int(m["end_line"]),
            "end_column": int(m["end_column"]),
            "severity": m["severity"],
            "code": m["code"],
            "message": m["message"],
            "notes": [],
        }
        last = records[-1] if records else None
        if (
            m["severity"] == "note"
            and last is not None
            and last["severity"] == "error"
            and (last["path"], last["line"]) == (rec["path"], rec["line"])
        ):
            notes = last["notes"]
            assert isinstance(notes, list)
            notes.append(m["message"])
            continue
        records.append(rec)
    return records


def _run_json(args: list[str]) -> int:
    stdout, stderr, status = api.run(["--show-error-codes", *args])
    sys.stdout.write(json.dumps({"errors": parse_output(stdout), "status": status}, indent=2) + "\n")
    sys.stderr.write(stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
