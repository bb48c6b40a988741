"""A date the question limits its set by that no window stands for is read as such,
never as a window of another set: "before March 2026" is not March 2026, "3. März
2026" is no month, and "after March 3, 2026" — which no rule reads — is still a date.
Each is spelled as the question spells it, for the disclosure that quotes it."""

from __future__ import annotations

from datetime import date

import pytest

from beacon.lexicon.date_bounds import UnreadDate, read_asked_dates
from beacon.lexicon.dates import DatePhrase, Window

TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("How many open findings were raised before March 2026?", "before March 2026"),
        ("How many findings were raised after March 3, 2026?", "after March 3, 2026"),
        ("Open findings until 2025 in Harbor Tower", "until 2025"),
        ("Photos taken prior to April 2026", "prior to April 2026"),
        ("Findings on 3 March 2026", "3 March 2026"),
        ("Findings from 3/14/2026", "3/14/2026"),
        ("level 3 findings May 5", "May 5"),
        ("Wie viele Befunde wurden nach dem 3. März 2026 erfasst?", "nach dem 3. März 2026"),
        ("Befunde vor April 2026", "vor April 2026"),
        ("¿Cuántos hallazgos hay antes de marzo de 2026?", "antes de marzo de 2026"),
        ("hallazgos del 3 de marzo de 2026", "3 de marzo de 2026"),
        ("3月まで の指摘", "3月まで"),
        ("3月3日の写真", "3月3日"),
        ("2026년 3월 이전 지적", "2026년 3월 이전"),
        # Another event's date: a tool's window is when a record was made.
        ("How many findings were closed last week?", "closed last week"),
        ("Findings resolved in March 2026", "resolved in March 2026"),
        ("Wie viele Befunde wurden letzte Woche geschlossen?", "letzte Woche geschlossen"),
        ("Befunde, die im März fällig sind", "im März fällig"),
        ("¿Cuántos hallazgos cerrados la semana pasada?", "cerrados la semana pasada"),
        ("先週解決された指摘", "先週解決"),
        ("지난주에 해결된 지적", "지난주에 해결"),
    ],
)
def test_a_date_no_window_stands_for_is_read_as_such_in_the_questions_words(
    question: str, phrase: str
) -> None:
    assert read_asked_dates(question, TODAY) == (UnreadDate(phrase, question.index(phrase)),)


@pytest.mark.parametrize(
    ("question", "phrase", "window"),
    [
        ("Findings in March 2026", "in March 2026", Window(date(2026, 3, 1), date(2026, 3, 31))),
        ("Fotos im März 2026", "im März 2026", Window(date(2026, 3, 1), date(2026, 3, 31))),
        (
            "Photos since April 2026",
            "since April 2026",
            Window(date(2026, 4, 1), date(2026, 12, 1)),
        ),
        (
            "findings by Dana Whitfield on level 3 last week",
            "last week",
            Window(date(2026, 11, 23), date(2026, 11, 29)),
        ),
        # A year after a preposition, or with its 년/年 and no month: that calendar year.
        ("Findings raised in 2025", "in 2025", Window(date(2025, 1, 1), date(2025, 12, 31))),
        ("Befunde im Jahr 2025", "im Jahr 2025", Window(date(2025, 1, 1), date(2025, 12, 31))),
        ("2025년 지적 사항", "2025년", Window(date(2025, 1, 1), date(2025, 12, 31))),
        ("2025年の指摘", "2025年", Window(date(2025, 1, 1), date(2025, 12, 31))),
        # A quarter is three calendar months; the last quarter the one before today's.
        ("Findings raised in Q1 2026", "in Q1 2026", Window(date(2026, 1, 1), date(2026, 3, 31))),
        ("Findings in 2025-Q4", "in 2025-Q4", Window(date(2025, 10, 1), date(2025, 12, 31))),
        (
            "Findings from the second quarter of 2026",
            "the second quarter of 2026",
            Window(date(2026, 4, 1), date(2026, 6, 30)),
        ),
        (
            "Befunde im 3. Quartal 2026",
            "im 3. Quartal 2026",
            Window(date(2026, 7, 1), date(2026, 9, 30)),
        ),
        (
            "Hallazgos en el primer trimestre de 2026",
            "en el primer trimestre de 2026",
            Window(date(2026, 1, 1), date(2026, 3, 31)),
        ),
        ("2026년 2분기 지적 사항", "2026년 2분기", Window(date(2026, 4, 1), date(2026, 6, 30))),
        ("2026年第1四半期の指摘", "2026年第1四半期", Window(date(2026, 1, 1), date(2026, 3, 31))),
        (
            "Findings raised last quarter",
            "last quarter",
            Window(date(2026, 7, 1), date(2026, 9, 30)),
        ),
        (
            "Befunde im letzten Quartal",
            "im letzten Quartal",
            Window(date(2026, 7, 1), date(2026, 9, 30)),
        ),
        ("지난 분기 지적", "지난 분기", Window(date(2026, 7, 1), date(2026, 9, 30))),
        ("Findings this quarter", "this quarter", Window(date(2026, 10, 1), date(2026, 12, 1))),
        # A run of months in one year: the first's 1st to the last's end.
        (
            "Findings raised between March and May 2026",
            "between March and May 2026",
            Window(date(2026, 3, 1), date(2026, 5, 31)),
        ),
        (
            "Befunde von März bis Mai 2026",
            "von März bis Mai 2026",
            Window(date(2026, 3, 1), date(2026, 5, 31)),
        ),
        (
            "hallazgos entre marzo y mayo de 2026",
            "entre marzo y mayo de 2026",
            Window(date(2026, 3, 1), date(2026, 5, 31)),
        ),
        (
            "2026년 3월부터 5월까지 지적",
            "2026년 3월부터 5월까지",
            Window(date(2026, 3, 1), date(2026, 5, 31)),
        ),
        (
            "2026年3月から5月までの指摘",
            "2026年3月から5月まで",
            Window(date(2026, 3, 1), date(2026, 5, 31)),
        ),
        # The making of a record is the window's own event.
        (
            "Wie viele Befunde wurden letzte Woche erstellt?",
            "letzte Woche",
            Window(date(2026, 11, 23), date(2026, 11, 29)),
        ),
        ("先週作成された指摘", "先週", Window(date(2026, 11, 23), date(2026, 11, 29))),
    ],
)
def test_a_window_a_rule_reads_whole_stays_that_window(
    question: str, phrase: str, window: Window
) -> None:
    assert read_asked_dates(question, TODAY) == (
        DatePhrase(phrase, question.index(phrase), window),
    )


def test_a_run_of_months_across_a_new_year_is_no_window_of_one_year() -> None:
    # "from November to February 2026" names two years' months: it is not read as
    # November to February of one year (an empty, backwards window).
    read = read_asked_dates("Findings from November to February 2026", TODAY)
    assert all(
        getattr(r, "window", None) != Window(date(2026, 11, 1), date(2026, 2, 28)) for r in read
    )
    assert not any(isinstance(r, DatePhrase) and r.window.start == date(2026, 11, 1) for r in read)


def test_a_time_of_day_keeps_its_bound_and_its_hours() -> None:
    (read,) = read_asked_dates("Panoramas captured before 9 am", TODAY)
    assert isinstance(read, DatePhrase) and read.hours == ("00:00", "08:59")


@pytest.mark.parametrize("question", ["What may be open?", "Photos by Dana in Harbor Tower"])
def test_a_question_naming_no_date_has_none(question: str) -> None:
    assert read_asked_dates(question, TODAY) == ()
