"""A level (storey) as the five locales write it around its number.

``LEVEL_FORMS``: the spellings the narration guard protects once the evidence names a
level ("Level 3", "3층", "3階", "Ebene 3", "Nivel 3"), so a model that names a card's
level in the reader's language still names that value; ``level_numbers``: the levels
a structured value names. ``MENTION_WORDS``: the words
before a number that make an evidence string name a level (Korean and Japanese put
the counter after the number: those are forms, not mentions). The question reader's
wider pattern (it also reads "floor", "Geschoss", "3. Stock") is ``words.LEVEL``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from beacon.lexicon.words import bounded

LEVEL_FORMS_BY_LOCALE: Mapping[str, tuple[str, ...]] = {
    "en": ("Level {n}", "L{n}"),
    "ko": ("{n}층", "{n} 층", "레벨 {n}"),
    "ja": ("{n}階", "{n} 階", "レベル{n}"),
    "de": ("Ebene {n}", "Geschoss {n}", "Stockwerk {n}", "{n}. Stock", "{n}. Ebene"),
    "es": ("Nivel {n}", "Planta {n}", "Piso {n}"),
}
LEVEL_FORMS: tuple[str, ...] = tuple(
    form for forms in LEVEL_FORMS_BY_LOCALE.values() for form in forms
)

MENTION_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("level", "lvl"),
    "de": ("ebene",),
    "es": ("nivel", "planta", "piso"),
}
LEVEL_MENTION = re.compile(
    r"\b(?:" + "|".join(w for words in MENTION_WORDS.values() for w in words) + r")\s*(\d{1,3})\b",
    re.IGNORECASE,
)

LEVEL_FIELD = "level_number"

# "this level", "diese Ebene", "이 층", "この階": the level the host's view shows (its
# ``view_context.level_number``), a constraint like a level named by its number.
THIS_LEVEL_BY_LOCALE: Mapping[str, tuple[str, ...]] = {
    "en": (r"(?:this|the\s+current)\s+(?:level|floor|storey)",),
    "de": (r"(?:dies|diese[mnrs]?|aktuelle[mnrs]?)\s+(?:ebene|etage|geschoss|stockwerk)",),
    "es": (r"(?:este|esta|el\s+actual|la\s+actual)\s+(?:nivel|planta|piso)",),
    "ko": (r"이\s*층", r"현재\s*층"),
    "ja": (r"この階", r"このフロア", r"現在の階"),
}
THIS_LEVEL = re.compile(
    "|".join(bounded(p) for patterns in THIS_LEVEL_BY_LOCALE.values() for p in patterns),
    re.IGNORECASE,
)


def level_numbers(value: Any) -> Iterator[int]:
    """Level numbers named by structured fields (``level_number: 3``), at any depth of a
    JSON-like value: the one walk the guard's standing and verify's judge both read."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == LEVEL_FIELD and isinstance(item, int) and not isinstance(item, bool):
                yield item
            else:
                yield from level_numbers(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from level_numbers(item)


# German writes a storey as an ordinal ("3. Stock", "2. OG"): after its dot the sentence
# goes on. With the month names, the words the sentence splitter reads that way.
GERMAN_AFTER_ORDINAL: tuple[str, ...] = ("Stock", "Etage", "Ebene", "OG", "UG")
