"""The question forms a site team uses, in the five locales (issue 19).

Every question names its project in running text; every fact is computed below from
the corpus records (the wording is typed here, the numbers and sets never are).
"""

from __future__ import annotations

from collections.abc import Iterator

from beacon.adjudication import DEFAULT_SENTINEL
from harness.gold_case import CEDAR, HARBOR, LOCALES, MAPLE, RIVERSIDE, Case, open_annotations
from stub_server.corpus import Corpus

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
