"""A sentence's protected values are found as one alternation of every value of the
turn would find them, though only the values its text can hold are compiled.

The expectation is that whole alternation, built here from the values (longest
first, case-insensitive), never read from the guard.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication.guard.standing import build_standing

# Letters with case pairs and IGNORECASE's odd ones (ı/I/i, ſ/s, ß, ς/σ/Σ, µ/μ),
# digits and words a count could be read in, CJK, spaces and punctuation.
ALPHABET = "aAbBıIiſsSßẞςσΣµμKk3７0 -.#층階Ebene Nivel"
VALUES = st.lists(st.text(ALPHABET, min_size=1, max_size=12), max_size=12)


def _whole_alternation(values: list[str]) -> re.Pattern[str] | None:
    forms = sorted({v for v in values if v.strip()}, key=len, reverse=True)
    if not forms:
        return None
    return re.compile("|".join(re.escape(v) for v in forms), re.IGNORECASE)


def _spans(pattern: re.Pattern[str] | None, text: str) -> list[tuple[int, int]]:
    return [] if pattern is None else [m.span() for m in pattern.finditer(text)]


@given(VALUES, st.lists(st.text(ALPHABET, max_size=8), max_size=6), st.data())
def test_the_spans_are_those_of_one_alternation_of_every_value(
    values: list[str], noise: list[str], data: st.DataObject
) -> None:
    standing = build_standing([], values)
    # A sentence made of some values, each in a random case, between noise.
    picked = data.draw(st.lists(st.sampled_from(values), max_size=4)) if values else []
    cased = [data.draw(st.sampled_from([v, v.upper(), v.lower(), v.swapcase()])) for v in picked]
    text = " ".join(part for pair in zip(noise, cased, strict=False) for part in pair) + " ".join(
        cased
    )

    expected = _spans(_whole_alternation(list(standing.values)), text)
    assert _spans(standing.pattern_for(text), text) == expected


def test_a_dotless_i_in_the_text_still_finds_its_value() -> None:
    standing = build_standing([], ["Kizilay Tower 3"])
    text = "It is in Kızılay Tower 3."  # IGNORECASE takes ı for i
    assert _spans(standing.pattern_for(text), text) == [(9, 24)]


def test_a_sentence_naming_no_value_compiles_nothing() -> None:
    standing = build_standing([], ["Level 7", "Harbor Tower"])
    assert standing.pattern_for("There are 12 of them.") is None
