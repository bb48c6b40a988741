"""Every axis of a question read in every locale, over templates and values (hypothesis).

The templates and words are written out by hand, never read from the lexicon.
"""

from __future__ import annotations

from constraint_questions import PROJECTS, axes
from hypothesis import given
from hypothesis import strategies as st

from harness.gold_site import MONTH_NAMES  # the eval's own month names, typed by hand

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
