"""Dates a question names, in five locales, resolved to inclusive windows on one clock.

The windows are the documented ones (README, "One clock"): "last week" is the
previous Monday–Sunday; "last month" the previous calendar month; "this year"
1 January to today; "last year" the previous calendar year; "since <month>
<year>" the 1st of that month to today; a month without a year the latest such
month that has already begun; "in the last N days" today minus N days to today;
"Q1 2026" its three months; "last quarter" the previous calendar quarter, "this
quarter" its 1st day to today; "between March and May 2026" the 1st of March to the
end of May.
A time of day ("in the morning", "午前") is a date constraint too, with hours
instead of a window: only a tool that takes hours can apply it (panoramas carry
their capture time; photos and findings only a day, so there it is disclosed).

Rules are data: a pattern per locale and the window it resolves to. Matching
runs on NFKC text with case ignored, so a phrase keeps its spelling for the
disclosure that quotes it.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from beacon.lexicon.day_parts import day_hours
from beacon.lexicon.months import MONTHS as WRITTEN_MONTHS

# The month names (months.py) as a question is matched: case-folded, like the text.
MONTHS: Mapping[str, tuple[str, ...]] = {
    locale: tuple(name.lower() for name in names) for locale, names in WRITTEN_MONTHS.items()
}
_MONTH_NUMBER: Mapping[str, int] = {
    name: number for names in MONTHS.values() for number, name in enumerate(names, start=1)
}
# Short English forms ("Apr 2026", "Sept"), never "may" alone: it is a verb.
_MONTH_NUMBER = {
    **_MONTH_NUMBER,
    **{name[:3]: n for name, n in _MONTH_NUMBER.items() if len(name) > 3 and name[:3] != "mar"},
    "sept": 9,
}
_MONTH_WORD = "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True))
MONTH_WORDS: tuple[str, ...] = tuple(_MONTH_NUMBER)  # every spelling a rule reads as a month
_YEAR = r"(?P<year>(?:19|20)\d{2})"
_N = r"(?P<n>\d{1,3})"


@dataclass(frozen=True, slots=True)
class Window:
    """An inclusive date range; ``None`` ends are open (a time of day has neither)."""

    start: date | None
    end: date | None


@dataclass(frozen=True, slots=True)
class DatePhrase:
    phrase: str  # as the question spells it
    start_at: int  # where it starts in the question (NFKC)
    window: Window
    time_of_day: bool = False
    # A time of day as inclusive "HH:MM" ends (night wraps past midnight: start > end).
    hours: tuple[str, str] | None = None

    @property
    def end_at(self) -> int:
        return self.start_at + len(self.phrase)


Resolver = Callable[[re.Match[str], date], Window | None]


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def whole_month(year: int, month: int) -> Window:
    return Window(date(year, month, 1), _month_end(year, month))


def latest_begun(month: int, today: date) -> int:
    """The year of the latest ``month`` that has already begun."""
    return today.year if month <= today.month else today.year - 1


def _last_week(_m: re.Match[str], today: date) -> Window:
    monday = today - timedelta(days=today.weekday())
    return Window(monday - timedelta(days=7), monday - timedelta(days=1))


def _this_week(_m: re.Match[str], today: date) -> Window:
    return Window(today - timedelta(days=today.weekday()), today)


def _last_month(_m: re.Match[str], today: date) -> Window:
    first = today.replace(day=1)
    previous = first - timedelta(days=1)
    return whole_month(previous.year, previous.month)


def _this_month(_m: re.Match[str], today: date) -> Window:
    return Window(today.replace(day=1), today)


def _this_year(_m: re.Match[str], today: date) -> Window:
    return Window(date(today.year, 1, 1), today)


def _last_year(_m: re.Match[str], today: date) -> Window:
    return Window(date(today.year - 1, 1, 1), date(today.year - 1, 12, 31))


def _whole_year(m: re.Match[str], _today: date) -> Window:
    year = int(m.group("year"))
    return Window(date(year, 1, 1), date(year, 12, 31))


def _today(_m: re.Match[str], today: date) -> Window:
    return Window(today, today)


def _yesterday(_m: re.Match[str], today: date) -> Window:
    return Window(today - timedelta(days=1), today - timedelta(days=1))


def _last_days(m: re.Match[str], today: date) -> Window | None:
    n = int(m.group("n"))
    return Window(today - timedelta(days=n), today) if n > 0 else None


def _last_weeks(m: re.Match[str], today: date) -> Window | None:
    n = int(m.group("n"))
    return Window(today - timedelta(days=7 * n), today) if n > 0 else None


def _month_of(m: re.Match[str], which: str = "") -> int | None:
    """The month a match names by word (group ``month``) or number (``mnum``); ``which``
    "2": a run's last month (``month2``, ``mnum2``)."""
    groups = m.groupdict()
    if groups.get(f"month{which}"):
        return _MONTH_NUMBER.get(groups[f"month{which}"].casefold())
    number = int(groups[f"mnum{which}"]) if groups.get(f"mnum{which}") else 0
    return number if 1 <= number <= 12 else None


def _named_month(m: re.Match[str], today: date) -> Window | None:
    month = _month_of(m)
    if month is None:
        return None
    year = int(m.group("year")) if m.groupdict().get("year") else latest_begun(month, today)
    return whole_month(year, month)


def _since_month(m: re.Match[str], today: date) -> Window | None:
    month = _month_of(m)
    if month is None:
        return None
    year = int(m.group("year")) if m.groupdict().get("year") else latest_begun(month, today)
    return Window(date(year, month, 1), today)


# A quarter's ordinal as the Latin locales write it ("the first quarter", "primer trimestre").
_QUARTER_WORDS: Mapping[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "last": 4,
    "primer": 1, "primero": 1, "segundo": 2, "tercer": 3, "tercero": 3, "cuarto": 4,
}  # fmt: skip
_QUARTER_WORD = "|".join(_QUARTER_WORDS)


def _quarter(m: re.Match[str], _today: date) -> Window | None:
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else _QUARTER_WORDS[groups["qw"].casefold()]
    year = int(m.group("year"))
    return Window(date(year, 3 * quarter - 2, 1), _month_end(year, 3 * quarter))


def _quarter_of(today: date, back: int) -> Window:
    index = (today.year * 4 + (today.month - 1) // 3) - back  # quarters since year 0
    year, quarter = divmod(index, 4)
    return Window(date(year, 3 * quarter + 1, 1), _month_end(year, 3 * quarter + 3))


def _last_quarter(_m: re.Match[str], today: date) -> Window:
    return _quarter_of(today, 1)


def _this_quarter(_m: re.Match[str], today: date) -> Window:
    window = _quarter_of(today, 0)
    return Window(window.start, today)


def _month_range(m: re.Match[str], _today: date) -> Window | None:
    """ "between March and May 2026": the first month's 1st to the last's end, one year."""
    first, last = _month_of(m), _month_of(m, "2")
    year = int(m.group("year"))
    if first is None or last is None or first > last:
        return None  # "from November to February" spans two years no phrase here names
    return Window(date(year, first, 1), _month_end(year, last))


def _iso(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _iso_range(m: re.Match[str], _today: date) -> Window | None:
    start, end = _iso(m.group("a")), _iso(m.group("b"))
    return Window(start, end) if start and end and start <= end else None


def _iso_since(m: re.Match[str], today: date) -> Window | None:
    start = _iso(m.group("a"))
    return Window(start, today) if start else None


def _iso_day(m: re.Match[str], _today: date) -> Window | None:
    day = _iso(m.group("a"))
    return Window(day, day) if day else None


def _no_window(_m: re.Match[str], _today: date) -> Window:
    return Window(None, None)


_ISO = r"\d{4}-\d{2}-\d{2}"
_NAMED = rf"(?P<month>{_MONTH_WORD})\.?"


def _each(resolver: Resolver, *patterns: str) -> tuple[tuple[str, Resolver], ...]:
    # One row per spelling: a regex may not name a group twice across alternatives.
    return tuple((pattern, resolver) for pattern in patterns)


# (pattern, resolver), every locale's spellings side by side. Longer phrases win an overlap.
RULES: tuple[tuple[str, Resolver], ...] = (
    *_each(
        _iso_range,
        rf"(?:between|from|zwischen|vom|von|entre|del|desde)\s+(?P<a>{_ISO})\s+"
        rf"(?:and|to|until|till|und|bis|zum|y|al|hasta|a)\s+(?P<b>{_ISO})",
        rf"(?P<a>{_ISO})\s*(?:–|~|〜|から|부터)\s*(?P<b>{_ISO})(?:\s*(?:まで|까지))?",
    ),
    *_each(
        _iso_since,
        rf"(?:since|after|seit|nach|desde|después\s+del?)\s+(?P<a>{_ISO})",
        rf"(?P<a>{_ISO})\s*(?:以降|이후)",
    ),
    *_each(_iso_day, rf"(?P<a>{_ISO})"),
    *_each(
        _last_days,
        rf"(?:(?:in|over|during|within)\s+the\s+)?(?:last|past|previous)\s+{_N}\s+days?",
        rf"(?:in\s+den\s+)?(?:letzten|vergangenen)\s+{_N}\s+tagen?",
        rf"(?:(?:en|durante)\s+)?(?:los\s+)?(?:últimos|ultimos|pasados)\s+{_N}\s+d[ií]as",
        rf"(?:최근|지난)\s*{_N}\s*일(?:\s*동안|간)?",
        rf"(?:過去|直近|最近)\s*{_N}\s*日(?:間)?",
    ),
    *_each(
        _last_weeks,
        rf"(?:(?:in|over|during)\s+the\s+)?(?:last|past)\s+{_N}\s+weeks?",
        rf"(?:in\s+den\s+)?(?:letzten|vergangenen)\s+{_N}\s+wochen",
        rf"(?:(?:en|durante)\s+)?(?:las\s+)?(?:últimas|ultimas)\s+{_N}\s+semanas",
        rf"(?:최근|지난)\s*{_N}\s*주(?:\s*동안|간)?",
        rf"(?:過去|直近)\s*{_N}\s*週間",
    ),
    *_each(
        _last_week,
        r"last\s+week|(?:the\s+)?previous\s+week",
        r"(?:in\s+der\s+)?(?:letzten|letzte|vergangenen|vorigen|vorige)\s+woche",
        r"(?:la\s+)?semana\s+pasada",
        r"지난\s*주|저번\s*주|先週",
    ),
    *_each(
        _this_week,
        r"this\s+week|(?:in\s+)?dieser\s+woche|diese\s+woche|esta\s+semana",
        r"이번\s*주|今週",
    ),
    *_each(
        _last_month,
        r"last\s+month|(?:the\s+)?previous\s+month",
        r"(?:im\s+)?(?:letzten|vergangenen|vorigen)\s+monat",
        r"(?:el\s+)?mes\s+pasado",
        r"지난\s*달|저번\s*달|先月",
    ),
    *_each(
        _this_month,
        r"this\s+month|(?:in\s+)?diesem\s+monat|diesen\s+monat|este\s+mes",
        r"이번\s*달|今月",
    ),
    *_each(
        _this_year,
        r"this\s+year|(?:in\s+)?diesem\s+jahr|dieses\s+jahr|este\s+año",
        r"올해|금년|今年",
    ),
    *_each(
        _last_year,
        r"last\s+year|(?:im\s+)?(?:letzten|vergangenen|vorigen)\s+jahr|letztes\s+jahr",
        r"(?:el\s+)?año\s+pasado",
        r"작년|지난\s*해|去年|昨年",
    ),
    # "in 2025", "im Jahr 2025", "en 2025", "2025년", "2025年": that calendar year. A month
    # after the year ("2025年6月") is the longer phrase, and wins.
    *_each(
        _whole_year,
        rf"(?:in|during|im(?:\s+jahr)?|en(?:\s+el\s+año)?|durante(?:\s+el\s+año)?)\s+{_YEAR}",
        rf"{_YEAR}\s*[년年](?!\s*\d)",
    ),
    # "Q1 2026", "the first quarter of 2026", "im 1. Quartal 2026", "el primer trimestre
    # de 2026", "2026년 1분기", "2026年第1四半期": three calendar months.
    *_each(
        _quarter,
        rf"(?:(?:in|during|im|en)\s+)?Q(?P<q>[1-4])\s*[/-]?\s*{_YEAR}",
        rf"(?:(?:in|during|im|en)\s+)?{_YEAR}\s*[/-]\s*Q(?P<q>[1-4])",
        rf"(?:(?:in|during)\s+)?the\s+(?P<qw>{_QUARTER_WORD})\s+quarter\s+(?:of\s+)?{_YEAR}",
        rf"(?:im\s+)?(?P<q>[1-4])\.\s*quartal\s+{_YEAR}",
        rf"(?:(?:en|durante)\s+)?el\s+(?P<qw>{_QUARTER_WORD})\s+trimestre\s+(?:de(?:l)?\s+)?{_YEAR}",
        rf"{_YEAR}\s*[년年]\s*(?:第\s*)?(?P<q>[1-4])\s*(?:분기|四半期)",
    ),
    *_each(
        _last_quarter,
        r"(?:in\s+|during\s+)?(?:the\s+)?(?:last|previous)\s+quarter",
        r"(?:im\s+)?(?:letzten|vergangenen|vorigen)\s+quartal|letztes\s+quartal",
        r"(?:en\s+)?el\s+trimestre\s+pasado|(?:en\s+)?el\s+(?:último|ultimo)\s+trimestre",
        r"지난\s*분기|저번\s*분기|前四半期|先四半期",
    ),
    *_each(
        _this_quarter,
        r"(?:in\s+)?this\s+quarter|(?:in\s+)?diesem\s+quartal|dieses\s+quartal",
        r"(?:en\s+)?este\s+trimestre",
        r"이번\s*분기|今四半期",
    ),
    # "between March and May 2026", "von März bis Mai 2026", "entre marzo y mayo de 2026",
    # "2026년 3월부터 5월까지", "2026年3月から5月まで": one year's run of months.
    *_each(
        _month_range,
        rf"(?:between|from|zwischen|von|entre|de)\s+{_NAMED}\s+(?:and|to|until|through|und|bis|y|a|hasta)"
        rf"\s+(?P<month2>{_MONTH_WORD})\.?\s+(?:de\s+|of\s+)?{_YEAR}",
        rf"{_YEAR}\s*[년年]\s*(?P<mnum>\d{{1,2}})\s*[월月]\s*(?:부터|から)\s*(?P<mnum2>\d{{1,2}})\s*[월月]"
        rf"(?:\s*(?:까지|まで))?",
    ),
    *_each(_today, r"today|heute|hoy", r"오늘|今日|本日"),
    *_each(_yesterday, r"yesterday|gestern|ayer", r"어제|昨日"),
    # "since April 2026", "seit April", "desde abril de 2026", "2026년 4월 이후", "4月以降"
    *_each(
        _since_month,
        rf"(?:since|seit|desde)\s+(?:(?:dem|el)\s+)?{_NAMED}(?:\s+(?:de\s+|of\s+)?{_YEAR})?",
        rf"(?:{_YEAR}\s*[년年]\s*)?(?P<mnum>\d{{1,2}})\s*[월月]\s*(?:이후|부터|以降|から)",
    ),
    *_each(
        _named_month,
        rf"(?:(?:in|during|im|en|durante)\s+)?{_NAMED}\s+(?:de\s+|of\s+)?{_YEAR}",
        rf"{_YEAR}\s*[년年]\s*(?P<mnum>\d{{1,2}})\s*[월月]",
        rf"(?:in|during|im|en|durante)\s+(?:(?:el\s+mes\s+de|dem\s+monat)\s+)?{_NAMED}",
        r"(?<!\d)(?P<mnum>\d{1,2})\s*(?:월|月)(?!\s*\d)",
    ),
    # A time of day: the date axis, applied by a tool that takes hours (day_hours).
    *_each(
        _no_window,
        r"in\s+the\s+(?:morning|afternoon|evening)|at\s+night"
        r"|(?:before|after)\s+\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)",
        r"morgens|vormittags?|nachmittags?|abends|nachts",
        r"por\s+la\s+(?:mañana|tarde|noche)|de\s+madrugada",
        r"오전|오후|아침|저녁|밤|午前|午後|夕方|夜間",
    ),
)
# Latin letters and digits may not run on past a phrase ("blast week", "17 days" in "117");
# Hangul, kana and kanji join their particles with no space, so they bound nothing.
_COMPILED = tuple(
    (re.compile(rf"(?<![A-Za-z0-9])(?:{pattern})(?![A-Za-z0-9])", re.IGNORECASE), resolver)
    for pattern, resolver in RULES
)


def read_dates(question: str, today: date) -> tuple[DatePhrase, ...]:
    """Every date phrase in ``question`` with its window, earliest first, none overlapping
    (the rules' reading alone: ``date_bounds.read_asked_dates`` adds what they miss)."""
    text = unicodedata.normalize("NFKC", question)
    found: list[DatePhrase] = []
    for pattern, resolver in _COMPILED:
        for match in pattern.finditer(text):
            window = resolver(match, today)
            if window is None:
                continue
            phrase = match.group(0).strip()
            start = match.start() + (len(match.group(0)) - len(match.group(0).lstrip()))
            of_day = resolver is _no_window
            hours = day_hours(phrase) if of_day else None
            found.append(DatePhrase(phrase, start, window, time_of_day=of_day, hours=hours))
    # Longest first at each place, then drop what overlaps a phrase already kept.
    kept: list[DatePhrase] = []
    for item in sorted(found, key=lambda d: (-len(d.phrase), d.start_at)):
        if all(item.end_at <= k.start_at or item.start_at >= k.end_at for k in kept):
            kept.append(item)
    return tuple(sorted(kept, key=lambda d: d.start_at))
