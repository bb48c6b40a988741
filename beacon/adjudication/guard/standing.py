"""What a turn's evidence lets the narration say: its sources and its non-count values.

The narration guard judges a sentence against this, not against the model's
good will. A *source* is one counted tool result, its ``Counted`` record (the one
its slots render from); a
*non-count value* is a string the evidence itself carries — a level name, a
date, an id, a title, a project name — whose digits are part of a name, not a
count. Levels and dates are also spelled the ways the five locales write them
("Level 3", "3층", "3階", "Ebene 3", "Nivel 3"; "2024-03-12", "March 12, 2024",
"12. März 2024", "2024년 3월 12일", "2024年3月12日"), because a model that names
a card's level or date in the reader's language is still naming that value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.folding import folded
from beacon.lexicon.levels import LEVEL_FORMS as LEVEL_FORMS
from beacon.lexicon.levels import LEVEL_MENTION as _LEVEL_MENTION
from beacon.lexicon.months import MONTHS as MONTHS
from beacon.wire.frames import Grade

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")


_BARE_NUMBER = re.compile(r"[#№]?\s*[\d.,\s\u00a0\u202f]+")


def id_forms(text: str) -> list[str]:
    digits = re.sub(r"\D", "", text)
    if not digits:
        return []
    return [f"#{digits}", f"ID {digits}", f"No. {digits}", f"Nr. {digits}", f"№{digits}"]


def level_forms(n: int) -> list[str]:
    return [form.format(n=n) for form in LEVEL_FORMS]


def date_forms(year: int, month: int, day: int) -> list[str]:
    """One date as the five locales write it (with and without its year)."""
    en, de, es = (MONTHS[lang][month - 1] for lang in ("en", "de", "es"))
    return [
        f"{year:04d}-{month:02d}-{day:02d}",
        f"{year:04d}/{month:02d}/{day:02d}",
        f"{day:02d}.{month:02d}.{year:04d}",
        f"{day}.{month}.{year}",
        f"{month}/{day}/{year}",
        f"{day}/{month}/{year}",
        f"{en} {day}, {year}",
        f"{day} {en} {year}",
        f"{en[:3]} {day}, {year}",
        f"{en} {day}",
        f"{day}. {de} {year}",
        f"{day}. {de}",
        f"{day} de {es} de {year}",
        f"{day} de {es}",
        f"{year}년 {month}월 {day}일",
        f"{month}월 {day}일",
        f"{year}年{month}月{day}日",
        f"{month}月{day}日",
    ]


@dataclass(frozen=True)
class Standing:
    """Everything the guard may rely on for one turn; built once, read per sentence.

    The protected forms (each level and date in every locale's dress) are made
    only when a sentence is suspect: an obedient narration never pays for them.
    What the sources allow is worked out once a turn, not once per numeral read.
    """

    sources: tuple[Counted, ...] = ()
    strings: tuple[str, ...] = ()  # non-count strings the evidence carries
    levels: frozenset[int] = frozenset()  # level numbers its structured fields name

    @cached_property
    def strict(self) -> bool:
        """An UNKNOWN source: no number of any kind may be uttered."""
        return any(s.grade is Grade.UNKNOWN for s in self.sources)

    # A source that left out something the question named (``unapplied``) is of another
    # set: its value, its completeness and its emptiness are that set's, never the
    # answer's ("Maple Clinic has 90 overdue findings" of a count that never read
    # "overdue"; "No findings were closed last week" of findings *raised* last week).

    @cached_property
    def complete(self) -> bool:
        """Every counted source is EXACT, complete and of the asked set: the answer is
        the whole set."""
        return bool(self.sources) and all(s.complete and not s.unapplied for s in self.sources)

    @cached_property
    def whole_population(self) -> bool:
        """Every counted source is on screen whole: a sentence about "the photos" is
        about what code and the reader both see, not about a sample of them."""
        return bool(self.sources) and all(s.wholly_shown and not s.unapplied for s in self.sources)

    @cached_property
    def exact_values(self) -> frozenset[int]:
        return frozenset(
            int(s.value)
            for s in self.sources
            if s.complete
            and not s.unapplied
            and s.value is not None
            and float(s.value).is_integer()
        )

    @cached_property
    def may_say_none(self) -> bool:
        """An accounted empty result of the asked set: "there are none" has standing."""
        return any(s.may_say_none and not s.unapplied for s in self.sources)

    def by_slot(self, slot: str) -> Counted | None:
        return next((s for s in self.sources if s.slot == slot), None)

    @cached_property
    def values(self) -> tuple[str, ...]:
        """The strings with the forms of the levels and dates they (and the levels) name."""
        numbers = set(self.levels)
        forms: list[str] = []
        for text in self.strings:
            # A value that is only a number is bound to no field a sentence can name:
            # it protects that number as an id ("#10", "ID 10"), never as a count.
            forms.extend(id_forms(text) if _BARE_NUMBER.fullmatch(text.strip()) else [text])
            numbers.update(int(m.group(1)) for m in _LEVEL_MENTION.finditer(text))
            for match in _ISO_DATE.finditer(text):
                year, month, day = (int(g) for g in match.groups())
                if 1 <= month <= 12 and 1 <= day <= 31:
                    forms.extend(date_forms(year, month, day))
        for n in sorted(numbers):
            forms.extend(level_forms(n))
        return tuple(dict.fromkeys(forms))

    @cached_property
    def forms(self) -> tuple[tuple[str, str], ...]:
        """Every protected value, longest first, beside its case-folded form."""
        forms = sorted({v for v in self.values if v.strip()}, key=len, reverse=True)
        return tuple((v, folded(v)) for v in forms)

    def pattern_for(self, text: str) -> re.Pattern[str] | None:
        """The alternation of the protected values, longest first, that can match in
        ``text``. One alternation of all of them matched the same but cost a compile
        of every value each turn — 3-10 ms for a turn's 200-370 values, measured with
        the expressions' cache cleared, as a real turn's new values find it (a bench
        that asks the same questions hits that cache and never sees it). A value whose
        folded form is not in the folded text cannot match there under IGNORECASE."""
        in_text = folded(text)
        present = tuple(v for v, f in self.forms if f in in_text)
        return _alternation(present) if present else None


@lru_cache(maxsize=256)
def _alternation(forms: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(v) for v in forms), re.IGNORECASE)


def build_standing(
    sources: Iterable[Counted], values: Iterable[str] = (), levels: Iterable[int] = ()
) -> Standing:
    """The turn's standing from its sources, the strings its evidence carries and the
    level numbers it names; dates and levels inside those strings get their forms too."""
    strings = tuple(dict.fromkeys(v for v in values if isinstance(v, str) and v))
    return Standing(tuple(sources), strings, frozenset(levels))


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value (what a frame or an argument carries)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)
