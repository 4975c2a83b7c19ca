"""docs/rules.md is the one home of the compiler rules, and the code cites only rules it has.

Code, tests and README cite a rule as ``rule: <name>`` (or ``rules: <a>, <b>``); each name must
be a ``### rule: <name>`` heading of docs/rules.md, and each heading there must say which
tests pin it and what 0.2.0 does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
# What the repository is made of (not build output, caches or virtualenvs).
SOURCES = ("README.md", "docs", "mypy_plugin", "pypto_stubs", "tests", "benchmarks", "scripts", "examples", ".ci")
SUFFIXES = {".py", ".pyi", ".md", ".yml", ".yaml", ".txt", ".toml", ".ini", ".cfg", ".sh"}

HEADING = re.compile(r"^### rule: (\S+)$", re.M)
# A rule name is lowercase kebab-case with at least one dash, so prose ("the op rules: what") is not a citation.
NAME = r"[a-z0-9]+(?:-[a-z0-9]+)+"
CITED = re.compile(rf"\brules?: ({NAME}(?:, {NAME})*)")


def repo_files() -> Iterator[Path]:
    for top in SOURCES:
        path = ROOT / top
        if path.is_file():
            yield path
        elif path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and (f.suffix in SUFFIXES or f.parent.name == ".ci") and "__pycache__" not in f.parts:
                    yield f


def documented() -> list[str]:
    return HEADING.findall(RULES.read_text(encoding="utf-8"))


def _sections() -> dict[str, str]:
    text = RULES.read_text(encoding="utf-8")
    parts = re.split(r"^### rule: ", text, flags=re.M)[1:]
    return {p.split("\n", 1)[0].strip(): p for p in parts}


def test_rule_names_are_unique_and_citable() -> None:
    names = documented()
    assert len(names) >= 30
    assert len(names) == len(set(names))
    assert all(re.fullmatch(NAME, n) for n in names), names


def test_every_rule_says_what_pins_it() -> None:
    for name, body in _sections().items():
        assert "Pinned by:" in body, name
        assert "0.2.0" in body, name


def test_every_cited_rule_is_documented() -> None:
    names = set(documented())
    unknown: list[str] = []
    for f in repo_files():
        if f == RULES:
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in CITED.finditer(line):
                for name in m.group(1).split(", "):
                    if name not in names:
                        unknown.append(f"{f.relative_to(ROOT)}:{n}: {name}")
    assert not unknown, "rules cited but not in docs/rules.md:\n" + "\n".join(unknown)


# --- references: the tests docs/rules.md names, and documents outside the repository ------

BACKTICKED = re.compile(r"`([^`]+)`")


def _pinned_refs() -> Iterator[tuple[str, Path, str | None]]:
    """(rule, file, case or test name) for every test named under "Pinned by:"."""
    for name, body in _sections().items():
        pinned = body.split("Pinned by:", 1)[1].split("\n\n", 1)[0]
        current: Path | None = None
        for item in BACKTICKED.findall(pinned):
            path_part, _, case = item.partition("::")
            if path_part:
                path = ROOT / path_part if "/" in path_part else (current.parent if current else ROOT) / path_part
                current = path
            assert current is not None, (name, item)
            yield name, current, case or None


def test_pinned_tests_exist() -> None:
    missing: list[str] = []
    for rule, path, case in _pinned_refs():
        if not path.exists():
            missing.append(f"{rule}: {path.relative_to(ROOT)}")
            continue
        if case is None or path.is_dir():
            continue
        text = path.read_text(encoding="utf-8")
        pattern = rf"^- case: {re.escape(case)}$" if path.suffix == ".yml" else rf"^def {re.escape(case)}\("
        if not re.search(pattern, text, re.M):
            missing.append(f"{rule}: {path.relative_to(ROOT)}::{case}")
    assert not missing, "tests named in docs/rules.md that do not exist:\n" + "\n".join(missing)


# Notebook case ids (a capital letter and two digits in parentheses) and paths of a notebook that is
# not in this repository. Spelled in pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join([
    r"pypto" + r"-facts",
    r"\.\./" + r"shared",
    r"facts ?" + "\u00a7",
    r"(?<![A-Za-z0-9])[ABMRTX]\d{2}(?![0-9A-Za-z])",
]))


def test_no_reference_to_documents_outside_the_repo() -> None:
    found: list[str] = []
    for f in repo_files():
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert not found, "references to documents outside the repo (cite docs/rules.md instead):\n" + "\n".join(found)


# --- links: every relative link of the README and docs/ reaches a file and, with #, a heading ---

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def _doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_relative_links_resolve() -> None:
    broken: list[str] = []
    count = 0
    for doc in _doc_files():
        text = FENCE.sub("", doc.read_text(encoding="utf-8"))
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            count += 1
            file_part, _, anchor = target.partition("#")
            dest = (doc.parent / file_part).resolve() if file_part else doc
            if not dest.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and (dest.suffix != ".md" or anchor not in _anchors(dest)):
                broken.append(f"{doc.relative_to(ROOT)}: {target} (no such heading)")
    assert count >= 10
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_every_doc_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {m.group(1).partition("#")[0] for m in LINK.finditer(readme)}
    missing = [f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")) if f"docs/{p.name}" not in linked]
    assert not missing, missing
