"""beacon-rules narrates a count of one in the singular where the locale has one: the
anchor tells it the number's CLDR plural category (beacon/loop/anchors.py), never the
number. Expected sentences written by hand."""

from __future__ import annotations

import dataclasses

import pytest

from beacon.lexicon.plurals import plural_category
from stub_server.rules_copy import PHOTO_MATCHES, PHOTO_MATCHES_ONE, SHOWN, SHOWN_ONE, say_counted
from stub_server.rules_narrator import what_was_counted
from stub_server.rules_reading import read


@pytest.mark.parametrize(
    ("locale", "one", "many"),
    [
        ("en", "open finding", "open findings"),
        ("de", "Befund (offen)", "Befunde (offen)"),
        ("es", "hallazgo (abierto)", "hallazgos (abiertos)"),
        ("ja", "未対応の指摘", "未対応の指摘"),
    ],
)
def test_a_count_of_one_names_its_population_in_the_singular(
    locale: str, one: str, many: str
) -> None:
    base = dataclasses.replace(read("open findings", []), entity="findings", status="open")
    assert what_was_counted(base, locale, one=True) == one
    assert what_was_counted(base, locale, one=False) == many


@pytest.mark.parametrize(
    ("locale", "count", "sentence"),
    [
        ("en", 1, "Harbor Tower has {n} matching photo."),
        ("en", 2, "Harbor Tower has {n} matching photos."),
        ("de", 1, "Harbor Tower hat {n} passendes Foto."),
        ("es", 1, "Harbor Tower tiene {n} foto que coincide."),
        ("es", 21, "Harbor Tower tiene {n} fotos que coinciden."),
        ("ja", 1, "Harbor Towerで検索に一致する写真は{n}枚です。"),
    ],
)
def test_the_sentence_follows_the_plural_category_of_the_anchor(
    locale: str, count: int, sentence: str
) -> None:
    plural = plural_category(count, locale)
    said = say_counted(
        PHOTO_MATCHES, PHOTO_MATCHES_ONE, locale, plural, project="Harbor Tower", slot="{n}"
    )
    assert said == sentence


def test_one_shown_example_is_not_spoken_of_as_these() -> None:
    assert say_counted(SHOWN, SHOWN_ONE, "en", "one", slot="1") == "1 of them is shown as a card."
    assert say_counted(SHOWN, SHOWN_ONE, "en", "other", slot="10") == (
        "These 10 are shown as cards."
    )
