"""The forms a graded count may take in published prose, per SPEC §3's count-grade table.

Our own copy on purpose: verify judges any server that speaks the wire against
what the SPEC permits, so it must not read the permitted forms from the code it
would then be grading. A count renders as its grade's phrase ("at least 173",
"genau 7.961", "최소 173", "ちょうど7,961"), its displayed subset as the bare
number (``{{shown:…}}``) or as the SHOWN phrase ("these 10"); an UNKNOWN count
has no form at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from beacon.wire.frames import Grade

LOCALES: tuple[str, ...] = ("en", "de", "es", "ko", "ja")
PHRASES: Mapping[str, Mapping[Grade, tuple[str, ...]]] = {
    "en": {
        Grade.EXACT: ("exactly {n}",),
        Grade.LOWER_BOUND: ("at least {n}",),
        Grade.SHOWN: ("these {n}",),
    },
    "de": {
        Grade.EXACT: ("genau {n}",),
        Grade.LOWER_BOUND: ("mindestens {n}",),
        Grade.SHOWN: ("diese {n}",),
    },
    "es": {
        Grade.EXACT: ("exactamente {n}",),
        Grade.LOWER_BOUND: ("al menos {n}",),
        Grade.SHOWN: ("estos {n}", "estas {n}"),
    },
    "ko": {
        Grade.EXACT: ("정확히 {n}",),
        Grade.LOWER_BOUND: ("최소 {n}",),
        Grade.SHOWN: ("이 {n}",),
    },
    "ja": {
        Grade.EXACT: ("ちょうど{n}",),
        Grade.LOWER_BOUND: ("少なくとも{n}",),
        Grade.SHOWN: ("これら{n}", "この{n}"),
    },
}
GROUP_MARK: Mapping[str, str] = {"en": ",", "ko": ",", "ja": ",", "de": ".", "es": "."}


@dataclass(frozen=True, slots=True)
class Count:
    """One counted source as verify reads it from a ``references`` frame."""

    slot: str
    grade: Grade
    total: int | None
    displayed: int = 0
    has_more: bool = True
    may_say_none: bool = False  # an accounted empty result: "there are none" stands
    source: str = ""

    @property
    def exact_and_complete(self) -> bool:
        return self.grade == "EXACT" and not self.has_more and self.total is not None

    @property
    def whole_on_screen(self) -> bool:
        return self.exact_and_complete and self.total is not None and self.displayed >= self.total


@dataclass(frozen=True, slots=True)
class Form:
    """A stretch of a sentence that is a rendered count: ``kind`` count or shown."""

    kind: str
    count: Count
    start: int
    end: int


def grouped(value: int, locale: str) -> str:
    return f"{value:,}".replace(",", GROUP_MARK.get(locale, ","))


def phrase(grade: Grade, value: int, locale: str) -> str:
    """The first phrase ``grade`` permits in ``locale``, with the number in its grouping."""
    return PHRASES[locale][grade][0].format(n=grouped(value, locale))


def render(kind: str, count: Count, locale: str) -> str | None:
    """What ``{{kind:slot}}`` becomes; None when the grade permits no number."""
    if count.grade == "UNKNOWN":
        return None
    if kind == "shown":
        return grouped(count.displayed, locale)
    return None if count.total is None else phrase(count.grade, count.total, locale)


_SLOT = re.compile(r"\{\{(count|shown):([A-Za-z0-9_-]{1,32})\}\}")


def render_slots(text: str, counts: Iterable[Count], locale: str) -> str | None:
    """``text`` with every slot rendered; None when a slot names no count or forbids a number."""
    by_slot = {c.slot: c for c in counts}
    out, pos = [], 0
    for m in _SLOT.finditer(text):
        count = by_slot.get(m.group(2))
        rendered = None if count is None else render(m.group(1), count, locale)
        if rendered is None:
            return None
        out += [text[pos : m.start()], rendered]
        pos = m.end()
    return "".join(out) + text[pos:]


def _pattern(template: str, number: str, locale: str) -> str:
    head, _, tail = template.partition("{n}")
    lead = r"\s+".join(re.escape(word) for word in head.split())
    gap = r"\s+" if head.endswith(" ") else r"\s*"
    # Japanese needs no word boundary (the phrase follows a particle); Korean does ("사진이 10장"
    # is a particle, not the SHOWN phrase "이 10").
    start = "" if locale == "ja" else r"(?<!\w)"
    return start + lead + gap + re.escape(number) + re.escape(tail) + r"(?!\d)(?![.,]\d)"


def form_patterns(counts: Iterable[Count]) -> list[tuple[re.Pattern[str], str, Count]]:
    """(pattern, kind, count) for every phrase a count's grade permits, in any locale
    (a model does not always answer in the turn's locale), longest first."""
    forms: list[tuple[str, str, Count]] = []
    for count in counts:
        if count.grade == "UNKNOWN":
            continue
        wanted = [
            ("count", count.grade, count.total),
            ("shown", Grade.SHOWN, count.displayed or None),
        ]
        for kind, grade, value in wanted:
            if value is None:
                continue
            for locale in LOCALES:
                for template in PHRASES[locale][grade]:
                    for number in dict.fromkeys([grouped(value, locale), str(value)]):
                        forms.append((_pattern(template, number, locale), kind, count))
    forms.sort(key=lambda f: len(f[0]), reverse=True)
    return [(re.compile(p, re.IGNORECASE), kind, count) for p, kind, count in forms]


def find_forms(text: str, counts: Iterable[Count]) -> list[Form]:
    """The rendered count phrases in ``text``, none overlapping another."""
    found: list[Form] = []
    for pattern, kind, count in form_patterns(counts):
        for m in pattern.finditer(text):
            if not any(m.start() < f.end and f.start < m.end() for f in found):
                found.append(Form(kind, count, m.start(), m.end()))
    return sorted(found, key=lambda f: f.start)
