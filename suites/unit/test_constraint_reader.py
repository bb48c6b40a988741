"""The constraint reader finds what a question limits its set by, in five locales (which
of those a call's arguments carried: ``test_constraint_scope.py``).

Expected windows are written out by hand from the documented rules (README, "One
clock"), never computed by the module under test.
"""

from __future__ import annotations

from datetime import date

import pytest
from constraint_questions import PROJECTS, TODAY, axes
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication.constraints import (
    Constraint,
    judge_scope,
    read_constraints,
)
from beacon.lexicon.clock import ClockSettingError, today
from harness.gold_site import MONTH_NAMES  # the eval's own month names, typed by hand


@pytest.mark.parametrize(
    ("question", "window"),
    [
        ("How many photos were taken last week?", "2026-11-23..2026-11-29"),
        ("Wie viele Fotos gab es letzte Woche?", "2026-11-23..2026-11-29"),
        ("¿Cuántas fotos hubo la semana pasada?", "2026-11-23..2026-11-29"),
        ("지난주 사진은 몇 장인가요?", "2026-11-23..2026-11-29"),
        ("先週の写真は何枚ですか", "2026-11-23..2026-11-29"),
        ("Photos from last month", "2026-11-01..2026-11-30"),
        ("Befunde im letzten Monat", "2026-11-01..2026-11-30"),
        ("先月の指摘", "2026-11-01..2026-11-30"),
        ("findings this year", "2026-01-01..2026-12-01"),
        ("findings last year", "2025-01-01..2025-12-31"),
        ("photos in the last 7 days", "2026-11-24..2026-12-01"),
        ("Fotos in den letzten 30 Tagen", "2026-11-01..2026-12-01"),
        ("fotos en los últimos 10 días", "2026-11-21..2026-12-01"),
        ("최근 7일 사진", "2026-11-24..2026-12-01"),
        ("過去7日の写真", "2026-11-24..2026-12-01"),
        ("findings since April 2026", "2026-04-01..2026-12-01"),
        ("Befunde seit April", "2026-04-01..2026-12-01"),
        ("findings in December", "2026-12-01..2026-12-31"),  # begun today: this December
        ("findings in January", "2026-01-01..2026-01-31"),
        ("findings in November", "2026-11-01..2026-11-30"),
        ("hallazgos en abril de 2026", "2026-04-01..2026-04-30"),
        ("2026년 3월 지적 사항", "2026-03-01..2026-03-31"),
        ("2026年3月の指摘", "2026-03-01..2026-03-31"),
        ("between 2026-03-01 and 2026-03-15", "2026-03-01..2026-03-15"),
    ],
)
def test_a_date_in_any_locale_resolves_to_its_documented_window(question: str, window: str) -> None:
    assert axes(question).get("date") == window


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "How many photos were taken on level 2 of Harbor Tower last week?",
            {"project": "prj-harbor-tower", "level": "2", "date": "2026-11-23..2026-11-29"},
        ),
        (
            "How many findings did Dana Whitfield raise at Maple Clinic?",
            {"project": "prj-maple-clinic", "person": "Dana Whitfield"},
        ),
        (
            "Show me photos of guardrails on level 7 of Harbor Tower.",
            {"project": "prj-harbor-tower", "level": "7", "topic": "guardrail"},
        ),
        (
            "Zeig mir Fotos von fehlenden Schutzhelmen im Harbor Tower.",
            {"project": "prj-harbor-tower", "topic": "missing hard hats"},
        ),
        (
            "Wie viele offene Sicherheitsbefunde hat Keystone Concrete auf Ebene 3 "
            "von Harbor Tower?",
            {
                "project": "prj-harbor-tower",
                "company": "Keystone Concrete",
                "level": "3",
                "status": "open",
                "kind": "safety",
            },
        ),
        (
            "¿Cuántos hallazgos en revisión hay en el nivel 4 de Maple Clinic?",
            {"project": "prj-maple-clinic", "level": "4", "status": "in_review"},
        ),
        (
            "Harbor Tower 3층의 안전 지적 사항은 몇 건인가요?",
            {"project": "prj-harbor-tower", "level": "3", "kind": "safety"},
        ),
        (
            "Harbor Towerの5階の防水の指摘は何件？",
            {"project": "prj-harbor-tower", "level": "5", "category": "waterproofing"},
        ),
        ("Photos of water leaks in the morning", {"date": "time_of_day", "topic": "water leak"}),
        ("Panoramas captured in the morning", {"date": "06:00-11:59"}),
        ("Welche Firmen haben offene Befunde?", {"status": "open"}),
        # German joins the category to the noun: "Brandschutz" + "Mängel".
        (
            "Wie viele offene Brandschutzmängel gibt es auf Ebene 1 von Harbor Tower?",
            {
                "project": "prj-harbor-tower",
                "level": "1",
                "status": "open",
                "category": "fire safety",
            },
        ),
        (
            "Offene Abdichtungsmängel in Harbor Tower",
            {"project": "prj-harbor-tower", "status": "open", "category": "waterproofing"},
        ),
    ],
)
def test_every_constraint_of_a_question_is_read_on_its_axis(
    question: str, expected: dict[str, str]
) -> None:
    assert axes(question) == expected


LEVEL_TEMPLATES = {
    "en": "How many photos are on level {n} of {p}?",
    "de": "Wie viele Fotos gibt es auf Ebene {n} von {p}?",
    "es": "¿Cuántas fotos hay en el nivel {n} de {p}?",
    "ko": "{p} {n}층 사진은 몇 장인가요?",
    "ja": "{p}の{n}階の写真は何枚ですか",
}


@given(
    locale=st.sampled_from(sorted(LEVEL_TEMPLATES)),
    level=st.integers(min_value=1, max_value=199),
    project=st.sampled_from(PROJECTS),
)
def test_a_level_and_a_project_are_read_whatever_the_locale_and_number(
    locale: str, level: int, project: dict[str, str]
) -> None:
    question = LEVEL_TEMPLATES[locale].format(n=level, p=project["name"])
    found = axes(question)
    assert found["level"] == str(level) and found["project"] == project["id"]


@given(days=st.integers(min_value=1, max_value=365), locale=st.sampled_from(["en", "de", "es"]))
def test_in_the_last_n_days_is_today_minus_n_to_today(days: int, locale: str) -> None:
    template = {
        "en": "photos in the last {n} days",
        "de": "Fotos in den letzten {n} Tagen",
        "es": "fotos en los últimos {n} días",
    }[locale]
    start = date.fromordinal(TODAY.toordinal() - days)
    assert axes(template.format(n=days))["date"] == f"{start}..{TODAY}"


@pytest.mark.parametrize(
    ("phrase", "hours"),
    [
        ("after 3 pm", ("15:00", "23:59")),
        ("before 9 am", ("00:00", "08:59")),
        ("nachmittags", ("12:00", "17:59")),
        ("por la noche", ("22:00", "05:59")),
        ("오전", ("00:00", "11:59")),
        ("午後", ("12:00", "23:59")),
    ],
)
def test_a_time_of_day_in_any_locale_names_its_hours(phrase: str, hours: tuple[str, str]) -> None:
    (constraint,) = read_constraints(f"panoramas {phrase}", projects=[], today=TODAY)
    assert constraint.hours == hours and constraint.value == "-".join(hours)


def test_the_clock_is_the_utc_date_unless_one_setting_pins_it() -> None:
    assert today({"BEACON_TODAY": "2026-06-01"}) == date(2026, 6, 1)
    with pytest.raises(ClockSettingError, match="YYYY-MM-DD"):
        today({"BEACON_TODAY": "June"})


def test_a_project_row_without_a_name_or_id_names_nothing() -> None:
    rows = [{"id": "", "name": "Harbor Tower"}, {"id": "prj-x", "name": ""}]
    read = read_constraints("How many photos are in harbor tower?", projects=rows, today=TODAY)
    assert [c.axis for c in read if c.axis == "project"] == []


@pytest.mark.parametrize(
    "question",
    [
        "How many of Dana Whitfield's findings are open?",
        "Show Dana Whitfield Findings",  # a capitalised record word ends no name
    ],
)
def test_a_name_is_read_without_its_possessive_or_the_words_around_it(question: str) -> None:
    assert axes(question)["person"] == "Dana Whitfield"


def test_a_companys_possessive_names_the_company_and_leaves_no_word_behind() -> None:
    # "Keystone Concrete's" was read as a person, and its "s" as an unread word.
    read = read_constraints(
        "How many of Keystone Concrete's findings are safety?", projects=[], today=TODAY
    )
    assert {(c.axis, c.value) for c in read} == {
        ("company", "Keystone Concrete"),
        ("kind", "safety"),
    }


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("Show me photos of cracked tiles on level 2", "cracked tiles"),
        ("Fotos von Rissen im Beton", "rissen"),
        ("fotos de grietas", "grietas"),
    ],
)
def test_a_subject_no_topic_word_names_is_kept_as_the_topic(question: str, topic: str) -> None:
    read = read_constraints(question, projects=PROJECTS, today=TODAY)
    assert [c.value for c in read if c.axis == "topic" and not c.leftover][:1] == [topic]


@pytest.mark.parametrize(
    ("question", "value", "phrase"),
    [
        ("Photos of electrical hazards in Harbor Tower", "electrical", "electrical"),
        ("Photos of safety issues in Harbor Tower", "safety", "safety"),
        ("Documents about fire safety in Harbor Tower", "fire safety", "fire safety"),
        ("Documents on quality in Harbor Tower", "quality", "quality"),
    ],
)
def test_a_category_or_kind_word_in_a_photo_or_document_question_is_what_it_shows(
    question: str, value: str, phrase: str
) -> None:
    # A photo or a document has no category or kind: the word is its topic, whole.
    read = read_constraints(question, projects=PROJECTS, today=TODAY)
    assert [c for c in read[1:] if not c.leftover] == [Constraint("topic", value, phrase)]


def test_a_category_or_kind_word_in_a_findings_question_stays_on_its_axis() -> None:
    assert axes("Safety findings about electrical in Harbor Tower") == {
        "project": "prj-harbor-tower",
        "category": "electrical",
        "kind": "safety",
    }


def test_photos_of_nothing_but_function_words_have_no_topic() -> None:
    assert "topic" not in axes("Show me photos of the")
    assert "topic" not in axes("Show me photos, please")


def test_a_flag_is_no_level() -> None:
    constraints = (Constraint("level", "1", "level 1"),)
    assert not judge_scope(constraints, "list_annotations", {"level_number": True}).whole


# --- Every axis in every locale, over templates and values (hypothesis) ----------------
LOCALE_NAMES = ("en", "de", "es", "ko", "ja")
PERSON_TEMPLATES = {
    "en": "How many findings did {v} raise at {p}?",
    "de": "Wie viele Befunde hat {v} in {p} erfasst?",
    "es": "¿Cuántos hallazgos registró {v} en {p}?",
    "ko": "{p}에서 {v}가 작성한 지적 사항은 몇 건인가요?",
    "ja": "{p}で{v}が作成した指摘は何件ですか",
}
COMPANY_TEMPLATES = {
    "en": "How many findings does {v} have at {p}?",
    "de": "Wie viele Befunde hat {v} in {p}?",
    "es": "¿Cuántos hallazgos tiene {v} en {p}?",
    "ko": "{p}에서 {v}의 지적 사항은 몇 건인가요?",
    "ja": "{p}で{v}の指摘は何件ですか",
}
STATUS_WORDS = {
    "open": {"en": "open", "de": "offene", "es": "abiertos", "ko": "미해결", "ja": "未対応"},
    "closed": {"en": "closed", "de": "erledigte", "es": "cerrados", "ko": "해결된",
               "ja": "対応済み"},
    "in_review": {"en": "in-review", "de": "in Prüfung", "es": "en revisión", "ko": "검토 중",
                  "ja": "確認中"},
}  # fmt: skip
STATUS_TEMPLATES = {
    "en": "How many {v} findings are at {p}?",
    "de": "Wie viele {v} Befunde gibt es in {p}?",
    "es": "¿Cuántos hallazgos {v} hay en {p}?",
    "ko": "{p}의 {v} 지적 사항은 몇 건인가요?",
    "ja": "{p}の{v}の指摘は何件ですか",
}
CATEGORY_WORDS = {
    "electrical": {"en": "electrical", "de": "elektrische", "es": "eléctricos", "ko": "전기",
                   "ja": "電気"},
    "waterproofing": {"en": "waterproofing", "de": "Abdichtung", "es": "impermeabilización",
                      "ko": "방수", "ja": "防水"},
    "housekeeping": {"en": "housekeeping", "de": "Ordnung und Sauberkeit",
                     "es": "orden y limpieza", "ko": "정리 정돈", "ja": "整理整頓"},
}  # fmt: skip
TOPIC_WORDS = {
    "scaffolding": {"en": "scaffolding", "de": "Gerüsten", "es": "andamios", "ko": "비계",
                    "ja": "足場"},
    "rebar": {"en": "rebar", "de": "Bewehrung", "es": "armaduras", "ko": "철근", "ja": "鉄筋"},
    "guardrail": {"en": "guardrails", "de": "Geländern", "es": "barandillas", "ko": "안전 난간",
                  "ja": "手すり"},
}  # fmt: skip
TOPIC_TEMPLATES = {
    "en": "Show me photos of {v} at {p}",
    "de": "Zeig mir Fotos von {v} in {p}",
    "es": "Muestra fotos de {v} en {p}",
    "ko": "{p}의 {v} 사진을 보여 주세요",
    "ja": "{p}の{v}の写真を見せてください",
}
MONTH_TEMPLATES = {
    "en": "How many findings were raised at {p} in {m} {y}?",
    "de": "Wie viele Befunde wurden im {m} {y} in {p} erstellt?",
    "es": "¿Cuántos hallazgos se crearon en {m} de {y} en {p}?",
    "ko": "{p}에서 {y}년 {n}월에 생성된 지적 사항은 몇 건인가요?",
    "ja": "{p}で{y}年{n}月に作成された指摘は何件ですか",
}
MONTH_ENDS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # in 2025, not a leap year
locales = st.sampled_from(LOCALE_NAMES)
projects = st.sampled_from(PROJECTS)


@given(
    locale=locales,
    project=projects,
    name=st.sampled_from(["Dana Whitfield", "Marco Ruiz", "Ji-woo Park", "Lena Hoffmann"]),
)
def test_a_person_is_read_in_every_locale(locale: str, project: dict[str, str], name: str) -> None:
    found = axes(PERSON_TEMPLATES[locale].format(v=name, p=project["name"]))
    assert (found["person"], found["project"]) == (name, project["id"])


@given(
    locale=locales,
    project=projects,
    name=st.sampled_from(["Keystone Concrete", "Northline Electric", "Apex Scaffolding"]),
)
def test_a_company_is_read_in_every_locale(locale: str, project: dict[str, str], name: str) -> None:
    found = axes(COMPANY_TEMPLATES[locale].format(v=name, p=project["name"]))
    assert (found["company"], found["project"]) == (name, project["id"])


@given(locale=locales, project=projects, status=st.sampled_from(sorted(STATUS_WORDS)))
def test_a_status_is_read_in_every_locale(
    locale: str, project: dict[str, str], status: str
) -> None:
    question = STATUS_TEMPLATES[locale].format(v=STATUS_WORDS[status][locale], p=project["name"])
    assert axes(question)["status"] == status


@given(locale=locales, project=projects, category=st.sampled_from(sorted(CATEGORY_WORDS)))
def test_a_category_is_read_in_every_locale(
    locale: str, project: dict[str, str], category: str
) -> None:
    words = CATEGORY_WORDS[category][locale]
    assert axes(STATUS_TEMPLATES[locale].format(v=words, p=project["name"]))["category"] == category


@given(locale=locales, project=projects, topic=st.sampled_from(sorted(TOPIC_WORDS)))
def test_a_photo_topic_is_read_in_every_locale(
    locale: str, project: dict[str, str], topic: str
) -> None:
    question = TOPIC_TEMPLATES[locale].format(v=TOPIC_WORDS[topic][locale], p=project["name"])
    assert axes(question)["topic"] == topic


@given(locale=locales, project=projects, month=st.integers(min_value=1, max_value=12))
def test_a_named_month_and_year_is_that_whole_month_in_every_locale(
    locale: str, project: dict[str, str], month: int
) -> None:
    name = MONTH_NAMES.get(locale, MONTH_NAMES["en"])[month - 1]
    question = MONTH_TEMPLATES[locale].format(p=project["name"], m=name, y=2025, n=month)
    expected = f"2025-{month:02d}-01..2025-{month:02d}-{MONTH_ENDS[month - 1]:02d}"
    assert axes(question)["date"] == expected


def test_every_project_of_the_directory_a_question_names_is_a_side_of_the_project_axis() -> None:
    read = read_constraints(
        "How many open findings does Maple Clinic have compared to Harbor Tower?",
        projects=PROJECTS,
        today=TODAY,
    )
    assert [(c.axis, c.value) for c in read] == [
        ("project", "prj-maple-clinic"),
        ("project", "prj-harbor-tower"),
        ("status", "open"),
    ]


@pytest.mark.parametrize(
    ("question", "levels"),
    [
        ("Open findings on levels 3, 4 and 5 of Harbor Tower", ["3", "4", "5"]),
        ("Wie viele Befunde gibt es auf den Ebenen 3 und 4?", ["3", "4"]),
        ("¿Cuántos hallazgos hay en los niveles 2, 7 o 9?", ["2", "7", "9"]),
        ("How many findings are on levels 2 to 4?", ["unread"]),  # a range is no list
    ],
)
def test_a_list_of_levels_is_a_level_each(question: str, levels: list[str]) -> None:
    read = read_constraints(question, projects=PROJECTS, today=TODAY)
    assert [c.value for c in read if c.axis == "level"] == levels
