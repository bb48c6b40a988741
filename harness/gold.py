"""The gold eval: questions over the corpus with facts computed from the generator.

Nothing here is typed by hand: each case's gold facts (the count, its grade,
the members of a set) come from the corpus records. A case the system cannot
answer exactly by design — a count over a similarity search — states its
honest expected outcome and why, instead of pretending.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from beacon.adjudication import DEFAULT_SENTINEL
from stub_server.corpus import INSPECTORS, Corpus, build_corpus
from stub_server.tools_search import SearchIndex

FETCH_CAP = 200
TOPICS = (
    "missing hard hats",
    "rebar",
    "scaffolding",
    "fire extinguisher",
    "water leak",
    "formwork",
    "guardrail",
    "cable tray",
)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    question: str
    grade: str  # the grade an honest answer must carry
    value: int | None = None  # the gold number, where one may be stated
    members: tuple[str, ...] = ()  # the gold set, for "which …" questions
    scenario: str | None = None
    red_reason: str | None = None  # kept red on purpose: why this slot stays unanswered
    honest_grade: str | None = None  # for a red case: the grade Beacon answers instead
    facts: dict[str, Any] = field(default_factory=dict)
    locale: str = "en"  # the panel's locale: the answer must be written in it
    tiers: tuple[str, ...] | None = None  # the caller's licence; None: the eval's default
    denied: bool = False  # the honest answer is a denial notice and no number
    # Phrases of the question no tool can apply: the only right answer discloses them
    # and states no count of the wider set as the answer.
    disclosed: tuple[str, ...] = ()
    kind: str = ""  # the question's shape, for the report (default: the id's first word)

    @property
    def shape(self) -> str:
        return self.kind or self.id.split("-")[0]


def open_annotations(corpus: Corpus, project: str, level: int, kind: str, status: str) -> list[Any]:
    """The gold set: annotations of ``kind`` in ``status`` on one level of a project."""
    return [
        a
        for a in corpus.annotations
        if a.project_id == project
        and a.level_number == level
        and a.kind == kind
        and a.status == status
    ]


def _count_cases(corpus: Corpus) -> Iterator[Case]:
    levels = {
        "prj-harbor-tower": (1, 2, 3, 4, 5, 6, 7, 8, 9, 11),
        "prj-cedar-school": (1, 2, 3),
        "prj-maple-clinic": (1, 2),
    }
    names = {p.id: p.name for p in corpus.projects}
    for project, numbers in levels.items():
        for level in numbers:
            for kind, status in (("safety", "open"), ("quality", "closed")):
                gold = len(open_annotations(corpus, project, level, kind, status))
                question = (
                    f"How many {status} {kind} findings are on level {level} of {names[project]}?"
                )
                yield Case(f"count-{project}-{level}-{kind}-{status}", question, "EXACT", gold)


def _panorama_cases(corpus: Corpus) -> Iterator[Case]:
    for project in corpus.projects:
        total = sum(1 for c in corpus.captures if c.project_id == project.id)
        yield Case(
            f"how-many-panoramas-{project.id}",
            f"How many panoramas are in {project.name}?",
            "EXACT",
            total,
        )
        saturated = total >= DEFAULT_SENTINEL
        yield Case(
            f"list-panoramas-{project.id}",
            f"List all panoramas in {project.name}",
            "LOWER_BOUND" if saturated else "EXACT",
            DEFAULT_SENTINEL if saturated else total,
        )


def _photo_cases(corpus: Corpus) -> Iterator[Case]:
    index = SearchIndex(corpus)
    for topic in TOPICS:
        bound = len(index.candidates("prj-harbor-tower", topic, FETCH_CAP))
        yield Case(
            f"photos-{topic.replace(' ', '-')}",
            f"Photos of {topic} in Harbor Tower",
            "LOWER_BOUND",
            bound,
        )
    for topic in TOPICS[:4]:
        # A similarity search has no exact population: the honest answer is a bound.
        truth = len(index.candidates("prj-harbor-tower", topic, 10_000))
        yield Case(
            f"exact-count-of-photos-{topic.replace(' ', '-')}",
            f"Photos of {topic} in Harbor Tower",
            "EXACT",
            truth,
            red_reason="an exact count of a similarity search is unobtainable by design: "
            "Beacon answers 'at least N' and never asserts the true total",
            honest_grade="LOWER_BOUND",
        )


def _set_cases(corpus: Corpus) -> Iterator[Case]:
    for level in (2, 3, 4, 5, 6, 7, 8, 9):
        members = sorted(
            {
                a.company
                for a in open_annotations(corpus, "prj-harbor-tower", level, "safety", "open")
            }
        )
        yield Case(
            f"which-companies-level-{level}",
            f"Which companies have open safety findings on level {level} of Harbor Tower?",
            "EXACT",
            members=tuple(members),
        )


def _unknown_cases() -> Iterator[Case]:
    for topic in TOPICS[:4]:
        yield Case(
            f"legacy-{topic.replace(' ', '-')}",
            f"Photos of {topic} in Harbor Tower",
            "UNKNOWN",
            None,
            scenario="legacy-upstream",
        )


# --- The question forms a site team uses, in the five locales (issue 19) ------------
# Every question names its project in running text; every fact is computed below from
# the corpus records (the wording is typed here, the numbers and sets never are).
HARBOR, CEDAR, MAPLE, RIVERSIDE = (
    "prj-harbor-tower",
    "prj-cedar-school",
    "prj-maple-clinic",
    "prj-riverside-depot",
)
LOCALES = ("en", "de", "es", "ko", "ja")
PHOTOS_ON_LEVEL = {
    "en": "List all photos from level {n} of {p}",
    "de": "Zeige alle Fotos von Ebene {n} in {p}",
    "es": "Muestra todas las fotos del nivel {n} de {p}",
    "ko": "{p} {n}층의 사진을 모두 보여 주세요",
    "ja": "{p}の{n}階の写真をすべて見せてください",
}
OPEN_SAFETY_COUNT = {
    "en": "{p} asdf: how many open safety findings are on level {n}?",
    "de": "Wie viele offene Sicherheitsbefunde gibt es auf Ebene {n} in {p}?",
    "es": "¿Cuántos hallazgos de seguridad abiertos hay en el nivel {n} de {p}?",
    "ko": "{p} {n}층에 미해결 안전 지적 사항은 몇 건입니까?",
    "ja": "{p}の{n}階にある未対応の安全指摘は何件ですか",
}
PANORAMA_COUNT = {
    "en": "How many panoramas does {p} have?",
    "de": "Wie viele Panoramen hat {p}?",
    "es": "¿Cuántas panorámicas tiene {p}?",
    "ko": "{p}의 파노라마는 몇 개인가요?",
    "ja": "{p}のパノラマは何件ありますか",
}
WHO_RAISED = {
    "en": "Who raised the open safety findings on level {n} of {p}?",
    "de": "Wer hat die offenen Sicherheitsbefunde auf Ebene {n} in {p} erstellt?",
    "es": "¿Quién creó los hallazgos de seguridad abiertos en el nivel {n} de {p}?",
    "ko": "{p} {n}층의 미해결 안전 지적 사항은 누가 작성했나요?",
    "ja": "{p}の{n}階の未対応の安全指摘を作成したのは誰ですか",
}
WHICH_COMPANIES = {
    "de": "Welche Firmen haben offene Sicherheitsbefunde auf Ebene {n} von {p}?",
    "es": "¿Qué empresas tienen hallazgos de seguridad abiertos en el nivel {n} de {p}?",
    "ko": "{p} {n}층에서 미해결 안전 지적 사항이 있는 업체는 어떤 업체인가요?",
    "ja": "{p}の{n}階で未対応の安全指摘がある会社はどの会社ですか",
}
WHICH_CATEGORIES = {
    "en": "Which categories do the open findings on level {n} of {p} have?",
    "de": "Welche Kategorien haben die offenen Befunde auf Ebene {n} in {p}?",
}
CREATED_IN_MONTH = {
    "en": "How many findings were created in {month_en} {year} in {p}?",
    "de": "Wie viele Befunde wurden im {month_de} {year} in {p} erstellt?",
    "es": "¿Cuántos hallazgos se crearon en {month_es} de {year} en {p}?",
    "ko": "{p}에서 {year}년 {m}월에 생성된 지적 사항은 몇 건인가요?",
    "ja": "{p}で{year}年{m}月に作成された指摘は何件ですか",
}
MONTH_NAMES = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
           "September", "Oktober", "November", "Dezember"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"),
}  # fmt: skip
WHICH_TRADES = {
    "en": "Which trades are working in {p}?",
    "de": "Welche Gewerke gibt es in {p}?",
}
# A count from a plan without the aggregate's capability: a denial, never a project question.
WITHOUT_ANALYTICS = ("essentials",)


def _photos_by_level(corpus: Corpus) -> Iterator[Case]:
    names = {p.id: p.name for p in corpus.projects}
    for index, locale in enumerate(LOCALES):
        for project, level in ((HARBOR, 2), (CEDAR, 1 + index % 3)):
            gold = sum(
                1 for ph in corpus.photos if ph.project_id == project and ph.level_number == level
            )
            saturated = gold >= DEFAULT_SENTINEL
            yield Case(
                f"photos-on-level-{locale}-{project}-{level}",
                PHOTOS_ON_LEVEL[locale].format(n=level, p=names[project]),
                "LOWER_BOUND" if saturated else "EXACT",
                DEFAULT_SENTINEL if saturated else gold,
                locale=locale,
            )


def _localized_counts(corpus: Corpus) -> Iterator[Case]:
    names = {p.id: p.name for p in corpus.projects}
    for locale in LOCALES:
        for level in (4, 6) if locale != "en" else (5,):
            gold = len(open_annotations(corpus, HARBOR, level, "safety", "open"))
            yield Case(
                f"open-safety-{locale}-level-{level}",
                OPEN_SAFETY_COUNT[locale].format(n=level, p=names[HARBOR]),
                "EXACT",
                gold,
                locale=locale,
            )
    for locale in LOCALES[1:]:
        for project in (HARBOR, MAPLE):
            total = sum(1 for c in corpus.captures if c.project_id == project)
            yield Case(
                f"panoramas-{locale}-{project}",
                PANORAMA_COUNT[locale].format(p=names[project]),
                "EXACT",
                total,
                locale=locale,
            )


def _created_in_month(corpus: Corpus) -> Iterator[Case]:
    names = {p.id: p.name for p in corpus.projects}
    months = sorted({a.created_at[:7] for a in corpus.annotations if a.project_id == HARBOR})
    for locale, stamp in zip(LOCALES, months[-len(LOCALES) :], strict=True):
        year, month = (int(part) for part in stamp.split("-"))
        gold = sum(
            1 for a in corpus.annotations if a.project_id == HARBOR and a.created_at[:7] == stamp
        )
        words = {f"month_{k}": v[month - 1] for k, v in MONTH_NAMES.items()}
        question = CREATED_IN_MONTH[locale].format(p=names[HARBOR], year=year, m=month, **words)
        yield Case(f"created-in-{stamp}-{locale}", question, "EXACT", gold, locale=locale)


def _field_sets(corpus: Corpus) -> Iterator[Case]:
    names = {p.id: p.name for p in corpus.projects}
    for locale, (project, level) in zip(
        LOCALES, ((RIVERSIDE, 1), (MAPLE, 1), (MAPLE, 2), (MAPLE, 3), (RIVERSIDE, 2)), strict=True
    ):
        found = open_annotations(corpus, project, level, "safety", "open")
        yield Case(
            f"who-raised-{locale}-{project}-{level}",
            WHO_RAISED[locale].format(n=level, p=names[project]),
            "EXACT",
            members=tuple(sorted({a.inspector for a in found})),
            locale=locale,
        )
    level_2 = [a for a in corpus.annotations if a.project_id == CEDAR and a.level_number == 2]
    yield Case(
        "which-inspectors-cedar-level-2",
        f"Which inspectors raised findings on level 2 of {names[CEDAR]}?",
        "EXACT",
        members=tuple(sorted({a.inspector for a in level_2})),
    )
    for locale, level in zip(("de", "es", "ko", "ja"), (3, 5, 7, 9), strict=True):
        found = open_annotations(corpus, HARBOR, level, "safety", "open")
        yield Case(
            f"which-companies-{locale}-level-{level}",
            WHICH_COMPANIES[locale].format(n=level, p=names[HARBOR]),
            "EXACT",
            members=tuple(sorted({a.company for a in found})),
            locale=locale,
        )
    for locale, template in WHICH_CATEGORIES.items():
        found = [
            a
            for a in corpus.annotations
            if a.project_id == MAPLE and a.level_number == 2 and a.status == "open"
        ]
        yield Case(
            f"which-categories-{locale}-maple-2",
            template.format(n=2, p=names[MAPLE]),
            "EXACT",
            members=tuple(sorted({a.category for a in found})),
            locale=locale,
        )
    for locale, template in WHICH_TRADES.items():
        trades = {row.trade for row in corpus.progress if row.project_id == CEDAR}
        yield Case(
            f"which-trades-{locale}-cedar",
            template.format(p=names[CEDAR]),
            "EXACT",
            members=tuple(sorted(trades)),
            locale=locale,
        )


def _denied_counts(corpus: Corpus) -> Iterator[Case]:
    names = {p.id: p.name for p in corpus.projects}
    for locale in LOCALES:
        yield Case(
            f"count-without-analytics-{locale}",
            PANORAMA_COUNT[locale].format(p=names[CEDAR]),
            "UNKNOWN",
            locale=locale,
            tiers=WITHOUT_ANALYTICS,
            denied=True,
        )


def site_team_cases(corpus: Corpus) -> list[Case]:
    """The question forms of issue 19, in the five locales."""
    return [
        *_photos_by_level(corpus),
        *_localized_counts(corpus),
        *_created_in_month(corpus),
        *_field_sets(corpus),
        *_denied_counts(corpus),
    ]


# --- The asked set (issue 24): people, companies, relative dates, and what no tool applies ---
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


def _combined_cases(corpus: Corpus) -> Iterator[Case]:
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


def _asked_set_cases(corpus: Corpus) -> Iterator[Case]:
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


def gold_cases(seed: int = 7) -> list[Case]:
    corpus = build_corpus(seed)
    return [
        *_count_cases(corpus),
        *_panorama_cases(corpus),
        *_photo_cases(corpus),
        *_set_cases(corpus),
        *_unknown_cases(),
        *site_team_cases(corpus),
        *_asked_set_cases(corpus),
        *_combined_cases(corpus),
    ]
