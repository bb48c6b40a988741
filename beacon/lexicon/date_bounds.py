"""The dates a question limits its set by that no window stands for (issue 1: the
counted set must be the asked set).

The rules (dates.py) read windows: "March 2026", "last week". A bound before one
makes it a window's edge, not the window — "before March 2026" is not March 2026 —
and a day before a month makes it one day ("3. März 2026"); other dates no rule
reads ("after March 3, 2026", "2026-03-03 bis heute", "3月3日") are still dates the
question names, and so is another event's date ("closed last week": a tool's window is
when a record was made). Each becomes a phrase with no window: no tool call can be shown to
carry it, so the scope judge leaves it unapplied and no count stands as the answer.
Reading one wrongly costs a disclosure; missing one would cost a wrong "exactly".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from beacon.lexicon.dates import MONTH_WORDS, MONTHS, DatePhrase, read_dates


@dataclass(frozen=True, slots=True)
class UnreadDate:
    """A date the question limits its set by that no window stands for."""

    phrase: str  # as the question spells it, with its bound
    start_at: int  # where it starts in the question (NFKC)

    @property
    def end_at(self) -> int:
        return self.start_at + len(self.phrase)


AskedDate = DatePhrase | UnreadDate

# A date's edge, not its window: the word before a phrase the rules read ("before March
# 2026" is not March 2026) or, in Korean and Japanese, after it ("3月まで"). "since" and
# its kin are the rules' own (a window to today); a time of day's "before 9 am" too.
_BOUND_WORD = (
    r"(?:before|after|until|till|by|prior\s+to|earlier\s+than|later\s+than"
    r"|vor|nach|bis|ab|antes\s+de|después\s+de|despues\s+de|hasta|a\s+partir\s+de)"
)
# Another event's date: a tool's window is a record's making (a finding raised, a photo
# taken), so "closed last week" or "fällig im März" names a date no window here stands
# for. The event's word stands before the phrase or after it (German, Korean, Japanese).
_EVENT_WORD = (
    r"(?:closed|resolved|fixed|updated|modified|changed|completed|verified|approved|due"
    r"|reopened|re-opened|deleted|assigned|geschlossen|erledigt|behoben|aktualisiert"
    r"|geändert|abgeschlossen|fällig|cerrad[oa]s?|resuelt[oa]s?|corregid[oa]s?"
    r"|actualizad[oa]s?|modificad[oa]s?|completad[oa]s?|vencen|vencid[oa]s?)"
)
_EVENT_BEFORE = re.compile(rf"(?<![A-Za-z]){_EVENT_WORD}\s+$", re.IGNORECASE)
_EVENT_AFTER = re.compile(
    rf"\s+{_EVENT_WORD}(?![A-Za-z])"  # German puts its verb last: "letzte Woche geschlossen"
    r"|\s*(?:に|에)?\s*(?:解決|完了|更新|変更|期限|クローズ|해결|완료|업데이트|변경|마감|종료)",
    re.IGNORECASE,
)
_ARTICLE = r"(?:(?:the|dem|der|el|la)\s+)?"
_BOUND_BEFORE = re.compile(rf"(?<![A-Za-z]){_BOUND_WORD}\s+{_ARTICLE}$", re.IGNORECASE)
_BOUND_AFTER = re.compile(r"\s*(?:以前|より前|まで|以後|より後|前|後|이전|이후|까지|전|후)")
# Dates no rule reads, still in the text once the read ones are set aside: a month
# named with a day ("March 3, 2026", "3. März", "3 de marzo"), or after a bound; a
# numeric date; a year after a preposition; a day of a month in Korean or Japanese.
# English "may" is a month only beside a number (it is a verb too).
_LATIN_MONTHS = "|".join(
    sorted(
        {m for locale, names in MONTHS.items() for m in names if m != "may"}
        | {m for m in MONTH_WORDS if m.isascii() and m != "may"},
        key=len,
        reverse=True,
    )
)
_MONTH_ANY = rf"(?:{_LATIN_MONTHS}|may(?=\s*\d))\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th|\.)?"
_STARTS_MONTH = re.compile(_MONTH_ANY, re.IGNORECASE)
_DAY_BEFORE = re.compile(rf"(?<![0-9]){_DAY}\s+(?:de\s+|of\s+)?$", re.IGNORECASE)
_UNREAD = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    rf"(?:{_BOUND_WORD}\s+{_ARTICLE})?"
    rf"(?:(?:{_DAY}\s+(?:de\s+|of\s+)?{_MONTH_ANY}|{_MONTH_ANY}\s+{_DAY})"
    r"(?:,?\s+(?:de\s+)?(?:19|20)\d{2})?"
    rf"|{_BOUND_WORD}\s+{_ARTICLE}{_MONTH_ANY})"
    r"|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./](?:\d{4}|\d{2})"
    rf"|(?:in|during|from|since|{_BOUND_WORD}|im|seit|en|desde|durante)\s+(?:19|20)\d{{2}}"
    r")(?![A-Za-z0-9])"
    r"|\d{1,2}\s*[月월]\s*\d{1,2}\s*[日일]",
    re.IGNORECASE,
)


def read_asked_dates(question: str, today: date) -> tuple[AskedDate, ...]:
    """The rules' date phrases, each a bound or a day made windowless, and the dates
    no rule read (windowless too), earliest first."""
    text = unicodedata.normalize("NFKC", question)
    kept: list[AskedDate] = [_bounded(text, item) for item in read_dates(question, today)]
    kept += _unread(text, kept)
    return tuple(sorted(kept, key=lambda d: d.start_at))


def _bounded(text: str, item: DatePhrase) -> AskedDate:
    """``item`` with no window when a bound makes it a window's edge, or a day before
    its month makes it one day ("3. März 2026" is no month), spelled with them."""
    if item.time_of_day:
        return item
    start = item.start_at
    day = _DAY_BEFORE.search(text, 0, start) if _STARTS_MONTH.match(item.phrase) else None
    if day is not None:
        start = day.start()
    before = _BOUND_BEFORE.search(text, 0, start)
    if before is not None:
        start = before.start()
    event = _EVENT_BEFORE.search(text, 0, start)
    if event is not None:
        start = event.start()
    if start != item.start_at:
        return UnreadDate(text[start : item.end_at], start)
    after = _BOUND_AFTER.match(text, item.end_at) or _EVENT_AFTER.match(text, item.end_at)
    if after is not None:
        return UnreadDate(text[item.start_at : after.end()].strip(), item.start_at)
    return item


def _unread(text: str, kept: list[AskedDate]) -> list[AskedDate]:
    """The dates no rule read, in the text the read ones leave."""
    masked = list(text)
    for item in kept:
        masked[item.start_at : item.end_at] = " " * len(item.phrase)
    return [UnreadDate(m.group(0), m.start()) for m in _UNREAD.finditer("".join(masked))]
