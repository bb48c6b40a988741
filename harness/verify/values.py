"""The non-count values a turn's frames carry, and where a sentence names them.

A number inside a card's id, title, level or date is that value's, not a
count: "ph-000223", "L3 north core walk #0003", "Level 7", "2025-09-12". A
level or a date is found in whatever dress a locale gives it ("7층", "Ebene 7",
"12. März 2025", "2025年9月12日") by reading the sentence's levels and dates and
comparing them with the evidence's, never by listing every spelling of each.
A value that is only a number protects nothing but itself written as an id
("#10", "ID 10"): bound to no field, it would otherwise license any count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from beacon.lexicon.months import MONTHS

Span = tuple[int, int]

_LEVEL_WORDS = r"level|lvl|floor|ebene|geschoss|stockwerk|etage|nivel|planta|piso|레벨|レベル"
_LEVEL = re.compile(
    rf"(?<!\w)(?:{_LEVEL_WORDS})\s*(?P<a>\d{{1,3}})(?!\d)"
    r"|(?<![\d.,])(?P<b>\d{1,3})\s*(?:층|階)"
    r"|(?<![\d.,])(?P<c>\d{1,3})\.\s*(?:Stock|Ebene|Etage|OG)\b",
    re.IGNORECASE,
)
_LEVEL_IN_VALUE = re.compile(rf"(?<!\w)(?:{_LEVEL_WORDS})\s*(\d{{1,3}})(?!\d)", re.IGNORECASE)

# The lexicon's month names (its word tables are shared; the judging is verify's own).
_MONTHS = {name.lower(): n for names in MONTHS.values() for n, name in enumerate(names, start=1)}
_MONTHS.update({name[:3]: n for name, n in list(_MONTHS.items()) if name.isascii()})
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_Y, _M, _D = r"(?P<y>\d{4})", r"(?P<m>\d{1,2})", r"(?P<d>\d{1,2})"
_DATE_SHAPES = (
    rf"{_Y}[-/]{_M}[-/]{_D}",
    rf"{_D}\.\s?{_M}\.\s?{_Y}",
    rf"{_M}/{_D}/{_Y}",
    rf"{_D}/{_M}/{_Y}",
    rf"(?P<mn>{_MONTH})\.?\s+{_D}(?:st|nd|rd|th)?(?:,?\s+{_Y})?",
    rf"{_D}(?:\.|\s+de)?\s+(?P<mn>{_MONTH})(?:,?\s+(?:de\s+)?{_Y})?",
    rf"(?:{_Y}\s*[년年]\s*)?{_M}\s*[월月]\s*{_D}\s*[일日]",
)
# A date may follow a Japanese particle ("で2024年…"), so only a digit may not precede it.
_DATES = [re.compile(rf"(?<![\d.]){shape}(?!\d)", re.IGNORECASE) for shape in _DATE_SHAPES]
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_ONLY_NUMBER = re.compile(r"[#№]?\s*[\d.,\s]+")


@dataclass(frozen=True, slots=True)
class Values:
    strings: tuple[str, ...] = ()  # ids, titles, level names, dates, project names
    levels: frozenset[int] = frozenset()  # level numbers structured fields name

    def level_numbers(self) -> set[int]:
        found = set(self.levels)
        for text in self.strings:
            found.update(int(m.group(1)) for m in _LEVEL_IN_VALUE.finditer(text))
        return found

    def dates(self) -> set[tuple[int, int, int]]:
        found = set()
        for text in self.strings:
            for m in _ISO.finditer(text):
                found.add((int(m.group(1)), int(m.group(2)), int(m.group(3))))
        return found

    def literals(self) -> list[str]:
        out = []
        for text in self.strings:
            text = text.strip()
            if not text:
                continue
            if _ONLY_NUMBER.fullmatch(text):
                digits = re.sub(r"\D", "", text)
                out += [f"{mark}{digits}" for mark in ("#", "ID ", "No. ", "Nr. ", "№")]
            else:
                out.append(text)
        return sorted(set(out), key=len, reverse=True)


def _spans_of(text: str, needles: Iterable[str]) -> list[Span]:
    lowered = text.lower()
    spans = []
    for needle in needles:
        start = lowered.find(needle.lower())
        while start != -1:
            spans.append((start, start + len(needle)))
            start = lowered.find(needle.lower(), start + 1)
    return spans


def _date_spans(text: str, dates: set[tuple[int, int, int]]) -> list[Span]:
    days = {(m, d) for _, m, d in dates}
    spans = []
    for shape in _DATES:
        for m in shape.finditer(text):
            parts = m.groupdict()
            month = _MONTHS.get((parts.get("mn") or "").lower()) or int(parts.get("m") or 0)
            day, year = int(parts["d"]), parts.get("y")
            if (int(year), month, day) in dates if year else (month, day) in days:
                spans.append(m.span())
    return spans


def protected_spans(text: str, values: Values) -> list[Span]:
    """Where ``text`` names a value of the evidence: numbers there are that value's."""
    spans = _spans_of(text, values.literals())
    levels = values.level_numbers()
    for m in _LEVEL.finditer(text):
        if int(m.group("a") or m.group("b") or m.group("c")) in levels:
            spans.append(m.span())
    spans += _date_spans(text, values.dates())
    return spans


def literal_spans(text: str, values: Values, min_words: int) -> list[Span]:
    """Where ``text`` quotes a value of at least ``min_words`` words (a title or a name)."""
    return _spans_of(text, [v for v in values.literals() if len(v.split()) >= min_words])
