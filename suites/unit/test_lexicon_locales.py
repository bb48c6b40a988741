"""Every table of locale data lives in ``beacon/lexicon``, and every one has the five locales.

The test walks the whole package — each module, each public table, each table nested in
a table — so a new module or table is checked the day it is written, not the day
someone adds it to a list. Tables with fewer locales are listed below with the reason.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import beacon.lexicon

# SPEC §4's five locales, written here by hand (not read from the code under test).
LOCALES = frozenset({"en", "ko", "ja", "de", "es"})
LATIN = frozenset({"en", "de", "es"})
# Tables that hold fewer locales on purpose, and why.
PARTIAL: Mapping[str, frozenset[str]] = {
    # Korean and Japanese have no month names: they write the number (3월, 3月).
    "months.MONTHS": LATIN,
    "dates.MONTHS": LATIN,
    # Korean and Japanese put the level word after the number (3층, 3階): those are
    # forms (levels.LEVEL_FORMS_BY_LOCALE, all five), not words before a number.
    "levels.MENTION_WORDS": LATIN,
    # Only Korean and Japanese put a counter after a number (사진 3장, 写真3枚).
    "narration.COUNTERS": frozenset({"ko", "ja"}),
    # The script decides Korean and Japanese; words and letters tell the Latin three apart,
    # and English is the one without letters of its own.
    "detection.WORDS": LATIN,
    "detection.LETTERS": frozenset({"de", "es"}),
    # text2num's three languages; Korean and Japanese numerals are the KO_* and JA_* tables.
    "numerals.SMALL_WORDS": LATIN,
    "numerals.STEMS": LATIN,
    # Korean and Japanese end and join clauses with particles and verb endings, not words.
    "grammar.CLAUSE_BREAKERS": LATIN,
    "grammar.CONJUNCTIONS": LATIN,
    "grammar.PREPOSITIONS": LATIN,
    # Whole words in Latin script; Korean and Japanese join particles and endings to
    # their words (and Japanese writes no spaces): their form is pieces and particles.
    "shape.FORM_WORDS": LATIN,
    "shape.FORM_PIECES": frozenset({"ko", "ja"}),
    "shape.PARTICLES": frozenset({"ko", "ja"}),
}
# Tables whose locales hold their own words rather than shared keys, and why.
OWN_WORDS: Mapping[str, str] = {
    "narration.COUNTERS": "a counter per noun where the language has one; GENERIC covers the rest",
    "numerals.SMALL_WORDS": "each language's small count words, not keys shared by the locales",
}
# A table keyed by CLDR plural category ("one", "other") legitimately differs by locale.
PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


def lexicon_modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"beacon.lexicon.{info.name}")
        for info in pkgutil.iter_modules(beacon.lexicon.__path__)
    ]


def own_names(module: ModuleType) -> set[str]:
    """Public names the module itself assigns (an imported table is checked at home)."""
    source = Path(str(module.__file__)).read_text("utf-8")
    names: set[str] = set()
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {name for name in names if not name.startswith("_")}


def locale_tables(value: Any, path: str) -> Iterator[tuple[str, Mapping[Any, Any]]]:
    """Every mapping keyed by locales, at any depth of a table."""
    if not isinstance(value, Mapping):
        return
    if LOCALES & {k for k in value if isinstance(k, str)}:
        yield path, value
        return
    for key, inner in value.items():
        yield from locale_tables(inner, f"{path}[{key}]")


def all_tables() -> dict[str, tuple[str, Mapping[Any, Any]]]:
    """path → (the top table's name, the locale-keyed table)."""
    found = {}
    for module in lexicon_modules():
        short = module.__name__.rsplit(".", 1)[1]
        for name in sorted(own_names(module)):
            top = f"{short}.{name}"
            for path, table in locale_tables(getattr(module, name), top):
                found[path] = (top, table)
    return found


TABLES = all_tables()


def test_the_walk_finds_the_locale_tables_of_the_whole_package() -> None:
    modules = {path.split(".")[0] for path in TABLES}
    # Each of these holds locale words; the walk must reach them without being told where.
    assert {"copy", "narration", "denials", "phrases", "months", "levels", "numerals"} <= modules
    assert len(TABLES) >= 80, len(TABLES)


@pytest.mark.parametrize("path", sorted(TABLES))
def test_every_locale_table_has_every_locale(path: str) -> None:
    top, table = TABLES[path]
    assert set(table) == PARTIAL.get(top, LOCALES), path


@pytest.mark.parametrize("path", sorted(TABLES))
def test_every_key_is_in_every_locale(path: str) -> None:
    """A locale's inner table (grade → phrase, status → word) has the keys the others have."""
    top, table = TABLES[path]
    inner = [set(v) for v in table.values() if isinstance(v, Mapping)]
    if top in OWN_WORDS or not inner or all(keys <= PLURAL_CATEGORIES for keys in inner):
        return
    assert all(keys == inner[0] for keys in inner), (path, inner)


def test_every_listed_exception_is_still_a_table() -> None:
    tops = {top for top, _ in TABLES.values()}
    listed = set(PARTIAL) | set(OWN_WORDS)
    assert listed <= tops, sorted(listed - tops)


def test_the_walk_reaches_the_modules_named_here_by_hand() -> None:
    """The walk finds modules by itself; these, named by hand, must be among them (a
    package marker or a broken import would otherwise hide a module from every check)."""
    from beacon.lexicon import (
        dates,
        detection,
        grammar,
        levels,
        locales,
        months,
        numerals,
        phrases,
    )

    walked = {m.__name__ for m in lexicon_modules()}
    named = {dates, detection, grammar, levels, locales, months, numerals, phrases}
    assert {m.__name__ for m in named} <= walked
