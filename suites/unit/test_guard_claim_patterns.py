"""The guard's word classes, compiled for speed, match exactly what each word, on its
own, matches (issue 32: the guard's time was mostly these scans).

The expectation is built here, the plain way: every fragment of a class as a whole
word of its own (a Latin fragment between word boundaries, a Hangul or kana one as
it is), one alternative after another in the class's order. The claims module's
patterns must find the same spans in every sentence of the guard corpus and in
sentences made of the classes' own words, in any case and glued to other words.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import yaml

from beacon.adjudication.guard import claims
from beacon.adjudication.guard.standing import strings_in
from beacon.lexicon import grammar

CORPUS = Path(__file__).with_name("guard_corpus")
CLASSES: dict[str, Iterable[str]] = {
    "_NEGATOR": [f for fs in grammar.NEGATORS.values() for f in fs],
    "_NEGATIVE_PRONOUN": [f for fs in grammar.NEGATIVE_PRONOUNS.values() for f in fs],
    "_NEGATIVE_INDEFINITE": [f for fs in grammar.NEGATIVE_INDEFINITES.values() for f in fs],
    "_COVERAGE": [f for fs in grammar.COVERAGE.values() for f in fs],
    "_POLARITY": [f for fs in grammar.POLARITY.values() for f in fs],
    "_UNIVERSAL": [f for fs in grammar.UNIVERSALS.values() for f in fs],
    "_TOTAL": [f for fs in grammar.TOTALS.values() for f in fs],
    "_PROPORTION": [f for fs in grammar.PROPORTIONS.values() for f in fs],
    "_EMPTY": [f for fs in grammar.EMPTY.values() for f in fs],
    "_RESULT": list(grammar.RESULT_NOUNS),
    "_SEARCH": [f for fs in grammar.SEARCH_VERBS.values() for f in fs],
    "_SEARCH_NOUN": [f for fs in grammar.SEARCH_NOUNS.values() for f in fs],
    "_DEICTIC": [f for fs in grammar.DEICTICS.values() for f in fs],
    "_ADDITIVE": [f for fs in grammar.ADDITIVES.values() for f in fs],
    "_PRONOUN": [f for fs in grammar.PRONOUNS.values() for f in fs],
}


def one_by_one(fragments: Iterable[str]) -> re.Pattern[str]:
    def word(fragment: str) -> str:
        if fragment[:1].isascii() and not fragment.startswith("^"):
            return rf"(?<!\w)(?:{fragment})(?!\w)"
        return f"(?:{fragment})"

    return re.compile("|".join(word(f) for f in fragments), re.IGNORECASE)


def _spelled(fragment: str) -> str:
    """A fragment's text with its regex syntax dropped: "couldn'?t" → "couldnt"."""
    return re.sub(r"\\[wsdb]|[\\\[\](){}?*+|^$.]", "", fragment)


def sentences() -> list[str]:
    found = {s for name in ("hostile.yaml", "legit.yaml") for s in strings_in(_load(name))}
    words = [_spelled(f) for fragments in CLASSES.values() for f in fragments]
    filler = ["photos", "the", "no", "Fotos", "사진", "写真", "not", "3", "x", "über", ",", "。"]
    pick = random.Random(32)
    for _ in range(1200):
        parts = [pick.choice(words if pick.random() < 0.6 else filler) for _ in range(6)]
        text = pick.choice((" ", "", "-")).join(parts)
        found.update((text, text.upper(), text.title()))
    return sorted(found)


def _load(name: str) -> Any:
    return yaml.safe_load((CORPUS / name).read_text(encoding="utf-8"))


SENTENCES = sentences()


def test_the_sentences_cover_the_corpus_and_every_class() -> None:
    assert len(SENTENCES) > 4000
    for name, fragments in CLASSES.items():
        plain = one_by_one(fragments)
        assert sum(1 for s in SENTENCES if plain.search(s)) > 100, name


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_word_class_finds_the_spans_its_words_find_one_by_one(name: str) -> None:
    compiled: re.Pattern[str] = getattr(claims, name)
    plain = one_by_one(CLASSES[name])
    differ = [
        s
        for s in SENTENCES
        if [m.span() for m in compiled.finditer(s)] != [m.span() for m in plain.finditer(s)]
    ]
    assert differ == []
