"""A question's words are read against a table with one search (issue 32: a search per
pattern was most of a question's reading), and it finds what a search per pattern
finds: the key whose pattern matches earliest, at one place the first key and pattern
in the table's order, with that pattern's span.

The expectation is the plain way, written here: every pattern of the table searched
on its own, as a whole word when it is Latin, the earliest kept.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

import pytest

from beacon.adjudication.leftover import fold_keep
from beacon.lexicon.words import (
    CATEGORIES,
    KINDS,
    RECORDS,
    STATUSES,
    TOPICS,
    first_match,
    fold,
)

TABLES: dict[str, Mapping[str, tuple[str, ...]]] = {
    "records": RECORDS,
    "statuses": STATUSES,
    "kinds": KINDS,
    "categories": CATEGORIES,
    "topics": TOPICS,
}


def one_by_one(table: Mapping[str, tuple[str, ...]], text: str) -> tuple[str, int, int] | None:
    best: tuple[str, int, int] | None = None
    for key, patterns in table.items():
        for pattern in patterns:
            word = rf"(?<!\w)(?:{pattern})(?!\w)" if pattern[:1].isascii() else pattern
            match = re.search(word, text)
            if match and (best is None or match.start() < best[1]):
                best = (key, match.start(), match.end())
    return best


def _spelled(pattern: str) -> str:
    """A pattern's text with its regex syntax dropped ("offene[nrsm]?" → "offenenrsm")."""
    return re.sub(r"\\[wsdb]|[\\\[\](){}?*+|^$.]", "", pattern)


def questions(table: Mapping[str, tuple[str, ...]]) -> list[str]:
    words = [_spelled(p) for patterns in table.values() for p in patterns]
    words += [w for patterns in table.values() for p in patterns if (w := p.split("(")[0])]
    filler = ["how many", "photos", "level 3", "in", "의", "の", "x", "-", "open", "über"]
    pick = random.Random(32)
    made = {f"{a} {b}" for a in words for b in words[:: max(1, len(words) // 12)]}
    for _ in range(1500):
        parts = [pick.choice(words if pick.random() < 0.6 else filler) for _ in range(5)]
        made.add(pick.choice((" ", "", "-")).join(parts))
    return sorted(fold(t) for t in made)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_one_search_finds_what_a_search_per_pattern_finds(name: str) -> None:
    table = TABLES[name]
    texts = questions(table)
    differ = []
    matched = 0
    for text in texts:
        hit = first_match(table, text)
        got = (hit[0], hit[1].start(), hit[1].end()) if hit else None
        expected = one_by_one(table, text)
        matched += expected is not None
        if got != expected:
            differ.append((text, got, expected))
    assert differ == []
    assert matched > len(texts) // 2


def test_at_one_place_the_first_key_in_the_table_wins() -> None:
    table = {"short": ("open",), "long": ("open items",), "later": ("items",)}
    hit = first_match(table, "the open items")
    assert hit is not None and (hit[0], hit[1].group()) == ("short", "open")
    hit = first_match({"long": ("open items",), "short": ("open",)}, "the open items")
    assert hit is not None and (hit[0], hit[1].group()) == ("long", "open items")


def test_a_pattern_with_groups_of_its_own_still_names_its_key() -> None:
    table = {"a": ("(x)(y)z",), "b": ("(?:q)(r)",), "c": ("w",)}
    for text, key in (("xyz", "a"), ("qr", "b"), ("w", "c"), ("qr xyz", "b")):
        hit = first_match(table, text)
        assert hit is not None and hit[0] == key, text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Open Findings", "open findings"),
        ("OFFENE Mängel in der Straße", "offene mängel in der straße"),
        ("İstanbul ﬁndings", "İstanbul ﬁndings"),
        ("ΟΔΟΣ Σ", "οδοσ σ"),
    ],
)
def test_a_question_folded_in_place_keeps_every_character_where_it_was(
    text: str, kept: str
) -> None:
    # A character that folds to more than one (ß → ss, İ → i̇, ﬁ → fi) stays as it is:
    # the spans read in the folded text are the question's own.
    assert fold_keep(text) == kept
    assert len(fold_keep(text)) == len(text)
