"""The asked set (issue 24): people, companies, relative dates, and what no tool applies.

Each phrase is typed here; each gold fact is computed from the corpus records, relative
dates by the eval's own clock and arithmetic (``eval_today``, ``windows``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

from harness.gold_case import CEDAR, HARBOR, LOCALES, MAPLE, RIVERSIDE, Case
from stub_server.corpus import INSPECTORS, Corpus

INSPECTOR_COUNT = {
    "en": "How many findings did {name} raise at {p}?",
    "de": "Wie viele Befunde hat {name} in {p} erfasst?",
    "es": "¿Cuántos hallazgos registró {name} en {p}?",
    "ko": "{p}에서 {name}이(가) 작성한 지적 사항은 몇 건인가요?",
    "ja": "{p}で{name}が作成した指摘は何件ですか",
}
COMPANY_COUNT = {
    "en": "How many findings does {name} have at {p}?",
    "de": "Wie viele Befunde hat {name} in {p}?",
    "es": "¿Cuántos hallazgos tiene {name} en {p}?",
    "ko": "{p}에서 {name}의 지적 사항은 몇 건인가요?",
    "ja": "{p}で{name}の指摘は何件ですか",
}
KIND_COUNT = {
    "en": "How many {kind} findings are at {p}?",
    "de": "Wie viele {kind}befunde gibt es in {p}?",
    "es": "¿Cuántos hallazgos de {kind} hay en {p}?",
    "ko": "{p}의 {kind} 지적 사항은 몇 건인가요?",
    "ja": "{p}の{kind}の指摘は何件ですか",
}
KIND_WORDS = {
    "safety": {"en": "safety", "de": "Sicherheits", "es": "seguridad", "ko": "안전", "ja": "安全"},
    "quality": {"en": "quality", "de": "Qualitäts", "es": "calidad", "ko": "품질", "ja": "品質"},
}
WINDOW_COUNT = {
    "en": "How many findings were raised at {p} {when}?",
    "de": "Wie viele Befunde wurden {when} in {p} erstellt?",
    "es": "¿Cuántos hallazgos se crearon {when} en {p}?",
    "ko": "{p}에서 {when} 생성된 지적 사항은 몇 건인가요?",
    "ja": "{p}で{when}作成された指摘は何件ですか",
}
# Each relative phrase, and the window it names (README, "One clock"), computed below
# by the eval's own arithmetic from the UTC date the stack reads too.
WHEN: dict[str, dict[str, str]] = {
    "this-year": {"en": "this year", "de": "dieses Jahr", "es": "este año", "ko": "올해",
                  "ja": "今年"},
    "last-year": {"en": "last year", "de": "letztes Jahr", "es": "el año pasado", "ko": "작년",
                  "ja": "去年"},
    "since-march": {"en": "since March 2026", "de": "seit März 2026",
                    "es": "desde marzo de 2026", "ko": "2026년 3월 이후", "ja": "2026年3月以降"},
    "last-week": {"en": "last week", "de": "letzte Woche", "es": "la semana pasada",
                  "ko": "지난주", "ja": "先週"},
    "last-month": {"en": "last month", "de": "letzten Monat", "es": "el mes pasado",
                   "ko": "지난달", "ja": "先月"},
    "last-30-days": {"en": "in the last 30 days", "de": "in den letzten 30 Tagen",
                     "es": "en los últimos 30 días", "ko": "최근 30일 동안", "ja": "過去30日間に"},
}  # fmt: skip
# Constraints no tool can apply, with the phrase the disclosure must name.
UNAPPLIABLE: dict[str, dict[str, tuple[str, str]]] = {
    "time-of-day": {
        "en": ("How many findings were raised in the morning at {p}?", "in the morning"),
        "de": ("Wie viele Befunde wurden morgens in {p} erstellt?", "morgens"),
        "es": ("¿Cuántos hallazgos se crearon por la mañana en {p}?", "por la mañana"),
        "ko": ("{p}에서 오전에 생성된 지적 사항은 몇 건인가요?", "오전"),
        "ja": ("{p}で午前に作成された指摘は何件ですか", "午前"),
    },
    "topic-of-findings": {
        "en": ("How many findings about scaffolding are at {p}?", "scaffolding"),
        "de": ("Wie viele Befunde zu Gerüsten gibt es in {p}?", "Gerüsten"),
        "es": ("¿Cuántos hallazgos sobre andamios hay en {p}?", "andamios"),
        "ko": ("{p}의 비계 관련 지적 사항은 몇 건인가요?", "비계"),
        "ja": ("{p}の足場に関する指摘は何件ですか", "足場"),
    },
    "person-of-photos": {
        "en": ("How many photos did Dana Whitfield take at {p}?", "Dana Whitfield"),
        "de": ("Wie viele Fotos hat Dana Whitfield in {p} aufgenommen?", "Dana Whitfield"),
        "es": ("¿Cuántas fotos tomó Dana Whitfield en {p}?", "Dana Whitfield"),
        "ko": ("{p}에서 Dana Whitfield가 찍은 사진은 몇 장인가요?", "Dana Whitfield"),
        "ja": ("{p}でDana Whitfieldが撮った写真は何枚ですか", "Dana Whitfield"),
    },
}


COMBINED_COUNT = {
    "en": "How many open findings were raised on level {n} of {p} since March 2026?",
    "de": "Wie viele offene Befunde wurden seit März 2026 auf Ebene {n} in {p} erstellt?",
    "es": "¿Cuántos hallazgos abiertos se crearon desde marzo de 2026 en el nivel {n} de {p}?",
    "ko": "{p} {n}층에서 2026년 3월 이후 생성된 미해결 지적 사항은 몇 건인가요?",
    "ja": "{p}の{n}階で2026年3月以降に作成された未対応の指摘は何件ですか",
}
INSPECTOR_OPEN_COUNT = {
    "en": "How many open findings did {name} raise at {p}?",
    "de": "Wie viele offene Befunde hat {name} in {p} erfasst?",
    "es": "¿Cuántos hallazgos abiertos registró {name} en {p}?",
    "ko": "{p}에서 {name}이(가) 작성한 미해결 지적 사항은 몇 건인가요?",
    "ja": "{p}で{name}が作成した未対応の指摘は何件ですか",
}
PHOTOS_LAST_YEAR = {
    "en": "How many photos were taken at {p} last year?",
    "de": "Wie viele Fotos wurden letztes Jahr in {p} aufgenommen?",
    "es": "¿Cuántas fotos se tomaron el año pasado en {p}?",
    "ko": "{p}에서 작년에 찍은 사진은 몇 장인가요?",
    "ja": "{p}で去年撮影された写真は何枚ですか",
}


def combined_cases(corpus: Corpus) -> Iterator[Case]:
    names = {p.id: p.name for p in corpus.projects}
    since_march, today = "2026-03-01", eval_today().isoformat()
    last_year = windows(eval_today())["last-year"]
    for n, locale in enumerate(LOCALES):
        level = 2 + n
        gold = sum(
            1
            for a in corpus.annotations
            if a.project_id == HARBOR
            and a.level_number == level
            and a.status == "open"
            and since_march <= a.created_at <= today
        )
        yield Case(
            f"combined-{locale}-level-{level}",
            COMBINED_COUNT[locale].format(n=level, p=names[HARBOR]),
            "EXACT",
            gold,
            locale=locale,
            kind="combined",
        )
        inspector = INSPECTORS[n]
        gold = sum(
            1
            for a in corpus.annotations
            if a.project_id == CEDAR and a.inspector == inspector and a.status == "open"
        )
        yield Case(
            f"inspector-open-{locale}",
            INSPECTOR_OPEN_COUNT[locale].format(name=inspector, p=names[CEDAR]),
            "EXACT",
            gold,
            locale=locale,
            kind="combined",
        )
        project = (MAPLE, CEDAR)[n % 2]
        gold = sum(
            1
            for ph in corpus.photos
            if ph.project_id == project
            and last_year[0].isoformat() <= ph.taken_at <= last_year[1].isoformat()
        )
        yield Case(
            f"photos-last-year-{locale}",
            PHOTOS_LAST_YEAR[locale].format(p=names[project]),
            "EXACT",
            gold,
            locale=locale,
            kind="relative-date",
        )


def eval_today() -> date:
    """The eval's own clock: the UTC date, as the stack reads it (no BEACON_TODAY set)."""
    return datetime.now(UTC).date()


def windows(today: date) -> dict[str, tuple[date, date]]:
    """The documented windows, by the eval's own arithmetic (not the reader's)."""
    monday = today - timedelta(days=today.weekday())
    first = today.replace(day=1)
    last_month_end = first - timedelta(days=1)
    return {
        "this-year": (date(today.year, 1, 1), today),
        "last-year": (date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)),
        "since-march": (date(2026, 3, 1), today),
        "last-week": (monday - timedelta(days=7), monday - timedelta(days=1)),
        "last-month": (last_month_end.replace(day=1), last_month_end),
        "last-30-days": (today - timedelta(days=30), today),
    }


def asked_set_cases(corpus: Corpus) -> Iterator[Case]:
    names = {p.id: p.name for p in corpus.projects}
    projects = (MAPLE, CEDAR, RIVERSIDE, HARBOR)
    for n, inspector in enumerate(INSPECTORS):
        for locale in LOCALES:
            project = projects[(n + LOCALES.index(locale)) % len(projects)]
            gold = sum(
                1
                for a in corpus.annotations
                if a.project_id == project and a.inspector == inspector
            )
            yield Case(
                f"inspector-{locale}-{project}-{inspector.split()[0].lower()}",
                INSPECTOR_COUNT[locale].format(name=inspector, p=names[project]),
                "EXACT",
                gold,
                locale=locale,
                kind="person",
            )
    for n, company in enumerate(("Keystone Concrete", "Northline Electric")):
        for locale in LOCALES:
            project = (MAPLE, CEDAR)[(n + LOCALES.index(locale)) % 2]
            gold = sum(
                1 for a in corpus.annotations if a.project_id == project and a.company == company
            )
            yield Case(
                f"company-{locale}-{project}-{company.split()[0].lower()}",
                COMPANY_COUNT[locale].format(name=company, p=names[project]),
                "EXACT",
                gold,
                locale=locale,
                kind="company",
            )
    for kind, words in KIND_WORDS.items():
        for locale in LOCALES:
            gold = sum(1 for a in corpus.annotations if a.project_id == CEDAR and a.kind == kind)
            yield Case(
                f"kind-{locale}-{kind}",
                KIND_COUNT[locale].format(kind=words[locale], p=names[CEDAR]),
                "EXACT",
                gold,
                locale=locale,
                kind="kind",
            )
    spans = windows(eval_today())
    for shape, phrases in WHEN.items():
        start, end = spans[shape]
        for locale in LOCALES:
            project = (MAPLE, CEDAR)[LOCALES.index(locale) % 2]
            gold = sum(
                1
                for a in corpus.annotations
                if a.project_id == project and start.isoformat() <= a.created_at <= end.isoformat()
            )
            yield Case(
                f"when-{shape}-{locale}",
                WINDOW_COUNT[locale].format(p=names[project], when=phrases[locale]),
                "EXACT",
                gold,
                locale=locale,
                kind="relative-date",
            )
    for shape, by_locale in UNAPPLIABLE.items():
        for locale, (template, phrase) in by_locale.items():
            yield Case(
                f"unappliable-{shape}-{locale}",
                template.format(p=names[MAPLE]),
                "EXACT",
                locale=locale,
                disclosed=(phrase,),
                kind="disclosure",
            )
