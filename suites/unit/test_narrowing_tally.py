"""The date axis is tallied by month from each distinct ``YYYY-MM`` prefix (issue 32:
reading 3000 rows' dates one by one was most of the narrowing's cost). Whatever the
rows carry, the tally is the one a row-by-row reading gives: the first date field
holding text, its month read off the whole value.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from beacon.loop.narrowing_state import _FROM_CARD, _FROM_RECORD

# The record fields a date is read from, first found first (this test's own list).
DATE_FIELDS = ("created_at", "captured_at", "taken_at", "issued_on", "date")
MONTH = re.compile(r"^(\d{4})-(\d{2})")

DIGITS = st.sampled_from("0123456789١٢٣٤٥")  # Arabic-Indic digits are digits too
DATE_LIKE = st.builds(
    lambda y, m, rest: y + "-" + m + rest,
    st.text(DIGITS, min_size=3, max_size=5),
    st.text(DIGITS, min_size=1, max_size=3),
    st.sampled_from(["", "-01", "-17T12:44:00Z", " noon", "x"]),
)
VALUE = st.one_of(
    DATE_LIKE,
    st.text(max_size=10),
    st.none(),
    st.integers(),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
)


def month_of(value: object) -> tuple[int, int] | None:
    if isinstance(value, str) and (m := MONTH.match(value)) and 1 <= int(m.group(2)) <= 12:
        return int(m.group(1)), int(m.group(2))
    return None


def expected(rows: list[dict[str, Any]], fields: tuple[str, ...]) -> Counter[Any]:
    found: Counter[Any] = Counter()
    for row in rows:
        date = next((row[f] for f in fields if isinstance(row.get(f), str)), None)
        if (month := month_of(date)) is not None:
            found[month] += 1
    return found


ROWS = st.lists(
    st.dictionaries(st.sampled_from((*DATE_FIELDS, "level_number")), VALUE, max_size=4),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(rows=ROWS)
def test_the_month_tally_of_records_is_their_row_by_row_reading(rows: list[dict[str, Any]]) -> None:
    assert _FROM_RECORD["date_range"](rows) == expected(rows, DATE_FIELDS)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.dictionaries(st.just("date"), VALUE, max_size=1), max_size=40))
def test_the_month_tally_of_cards_is_their_row_by_row_reading(rows: list[dict[str, Any]]) -> None:
    assert _FROM_CARD["date_range"](rows) == expected(rows, ("date",))


def test_months_of_many_days_are_counted_together() -> None:
    rows = [
        {"captured_at": "2025-11-17T12:44:00Z"},
        {"captured_at": "2025-11-02"},
        {"created_at": "2025-13-01", "captured_at": "2025-10-01"},  # first text wins: no month
        {"created_at": 20251101, "captured_at": "2025-10-31"},  # a number is not a date
        {"date": "2025-1"},
    ]
    assert _FROM_RECORD["date_range"](rows) == Counter({(2025, 11): 2, (2025, 10): 1})
