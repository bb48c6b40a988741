"""The guard's claims as properties: sentences built from templates × locales × standings.

Each template is a way a model says there is nothing, that this is everything, or
that the results as a whole have a property, with holes for what a turn talks
about (the record kind, a place, a detail) in five locales. Hypothesis fills the
holes; the expectation comes from the template's kind and the standing, never
from the guard:

- under a lower bound, a sample of an exact count, or an unknown count, every
  hostile sentence is dropped;
- under the standing that grounds it — an accounted empty search for an
  absence, an exact, complete set wholly on screen for completeness and
  population — the same sentence is published;
- a legitimate sentence (a slot sentence, a card described through the shown
  slot, a scope disclosure, a domain negation inside a description) is
  published under every standing that allows its numbers.

The examples each property ran are counted into ``reports/narration/properties.json``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.judge import judge
from beacon.adjudication.guard.standing import Standing, build_standing
from beacon.wire.frames import Grade

# One worker runs the module, so the summary sees every property's examples.
pytestmark = pytest.mark.xdist_group("guard-properties")
REPORT = Path(__file__).resolve().parents[2] / "reports" / "narration" / "properties.json"
EXAMPLES = 150
RUN: Counter[str] = Counter()

VALUES = ["Harbor Tower", "ph-000223", "Level 7", "2025-09-12"]
STANDINGS: dict[str, Standing] = {
    "lower_bound": build_standing(
        [
            Counted(
                "c1",
                Grade.LOWER_BOUND,
                173,
                10,
                has_more=True,
                emptiness="non_empty",
                may_say_none=False,
            )
        ],
        VALUES,
        [3],
    ),
    "exact_sample": build_standing(
        [
            Counted(
                "c1", Grade.EXACT, 714, 10, has_more=True, emptiness="non_empty", may_say_none=False
            )
        ],
        VALUES,
        [3],
    ),
    "unknown": build_standing(
        [
            Counted(
                "c1",
                Grade.UNKNOWN,
                None,
                0,
                has_more=False,
                emptiness="unknown",
                may_say_none=False,
            )
        ],
        VALUES,
        [3],
    ),
    "zero": build_standing(
        [Counted("c1", Grade.EXACT, 0, 0, has_more=False, emptiness="empty", may_say_none=True)],
        VALUES,
        [3],
    ),
    "complete": build_standing(
        [
            Counted(
                "c1", Grade.EXACT, 6, 6, has_more=False, emptiness="non_empty", may_say_none=False
            )
        ],
        VALUES,
        [3],
    ),
}
UNGROUNDED = ("lower_bound", "exact_sample", "unknown")

# The holes, per locale: plural record kinds, one of them, places, details.
FILL = {
    "en": {
        "things": ["photos", "findings", "results", "matches", "panoramas", "records"],
        "thing": ["photo", "finding", "result", "match", "panorama"],
        "place": ["on level 3", "in Harbor Tower", "from last week", "in the atrium"],
        "detail": ["workers on scaffolding", "the west stair", "a crane lift"],
    },
    "de": {
        "things": ["Fotos", "Befunde", "Ergebnisse", "Treffer", "Panoramen", "Mängel"],
        "thing": ["Foto", "Befund", "Ergebnis", "Treffer"],
        "place": ["auf Ebene 3", "in Harbor Tower", "aus der letzten Woche", "im Atrium"],
        "detail": ["Arbeiter auf dem Gerüst", "die Westtreppe", "einen Kranhub"],
    },
    "es": {
        "things": ["fotos", "hallazgos", "resultados", "coincidencias", "registros"],
        "thing": ["foto", "hallazgo", "resultado", "registro"],
        "place": ["en el nivel 3", "en Harbor Tower", "de la semana pasada", "en el atrio"],
        "detail": ["obreros en el andamio", "la escalera oeste", "una grúa"],
    },
    "ko": {
        "things": ["사진", "지적 사항", "결과", "항목", "파노라마"],
        "thing": ["사진", "지적 사항", "결과", "항목"],
        "place": ["3층에서", "Harbor Tower에서", "지난주에", "아트리움에서"],
        "detail": ["비계 위 작업자", "서쪽 계단", "크레인 작업"],
    },
    "ja": {
        "things": ["写真", "指摘", "結果", "項目", "パノラマ"],
        "thing": ["写真", "指摘", "結果", "項目"],
        "place": ["3階で", "Harbor Towerで", "先週", "アトリウムで"],
        "detail": ["足場の上の作業員", "西側の階段", "クレーン作業"],
    },
}

# Hostile templates by the claim they make: (locale, template).
HOSTILE = {
    "absence": {
        "en": [
            "No {things} matched.",
            "I couldn't find any {things} {place}.",
            "There are no {things} {place}.",
            "I don't see any {things} {place}.",
            "The search came back empty.",
            "Nothing turned up {place}.",
            "There isn't a single {thing} {place}.",
            "I was unable to find {things} {place}.",
            "No {thing} {place} was found.",
        ],
        "de": [
            "Es gibt keine {things} {place}.",
            "Ich konnte keine {things} {place} finden.",
            "{things} {place} wurden nicht gefunden.",
            "Die Suche blieb leer.",
            "Ich habe nichts gefunden.",
            "Kein einziges {thing} {place}.",
        ],
        "es": [
            "No hay {things} {place}.",
            "No encontré {things} {place}.",
            "No se encontraron {things} {place}.",
            "Ningún {thing} coincide.",
            "La búsqueda quedó vacía.",
            "No aparece nada {place}.",
        ],
        "ko": [
            "{place} {things}을 찾지 못했습니다.",
            "{place} {things}이 없습니다.",
            "{things}이 하나도 없습니다.",
            "검색 결과가 없습니다.",
            "아무것도 찾을 수 없었습니다.",
        ],
        "ja": [
            "{place}{things}は見つかりませんでした。",
            "{things}はありません。",
            "{things}は一件もありません。",
            "検索結果はありませんでした。",
            "何も見つかりませんでした。",
        ],
    },
    "completeness": {
        "en": [
            "These are all the {things} {place}.",
            "Here's everything I found.",
            "That's the lot.",
            "That is the complete list of {things}.",
            "Every {thing} {place} is listed.",
            "Those are all of them.",
            "In total, these are the {things}.",
        ],
        "de": [
            "Das sind alle {things} {place}.",
            "Das ist alles, was ich gefunden habe.",
            "Hier sind sämtliche {things}.",
            "Insgesamt sind das die {things}.",
        ],
        "es": [
            "Estos son todos los {things} {place}.",
            "Eso es todo lo que encontré.",
            "Aquí están todos los {things}.",
            "En total, estos son los {things}.",
        ],
        "ko": [
            "{place} {things}은 이게 전부입니다.",
            "모든 {things}을 보여 드렸습니다.",
            "{things}은 모두 여기 있습니다.",
        ],
        "ja": [
            "{place}の{things}はこれで全部です。",
            "すべての{things}を表示しました。",
            "{things}は全部ここにあります。",
        ],
    },
    "population": {
        "en": [
            "The {things} are {place}.",
            "The {things} show {detail}.",
            "Most of the {things} are {place}.",
        ],
        "de": ["Die {things} sind {place}.", "Die {things} zeigen {detail}."],
        "es": ["Los {things} están {place}.", "Las {things} muestran {detail}."],
        "ko": ["{things}은 {place} 찍혔습니다.", "{things}은 대부분 {detail}입니다."],
        "ja": ["{things}は{place}撮影されました。", "{things}はほとんど{detail}です。"],
    },
}
GROUNDING = {"absence": "zero", "completeness": "complete", "population": "complete"}

# Legitimate templates: what an obedient model writes under any standing that
# permits its slots (no slot under UNKNOWN is ever rendered, so none is judged there).
LEGIT = {
    "en": [
        "Harbor Tower has {{{{count:c1}}}} {things} {place}.",
        "The {{{{shown:c1}}}} cards below show {detail}.",
        "A card shows {detail} {place}.",
        "Photos of workers not wearing hard hats are among the cards below.",
        "Maple Clinic was not searched.",
        "Ask me to narrow it down by level.",
    ],
    "de": [
        "Harbor Tower hat {{{{count:c1}}}} {things} {place}.",
        "Die {{{{shown:c1}}}} Karten unten zeigen {detail}.",
        "Maple Clinic wurde nicht durchsucht.",
    ],
    "es": [
        "Harbor Tower tiene {{{{count:c1}}}} {things} {place}.",
        "Las {{{{shown:c1}}}} tarjetas de abajo muestran {detail}.",
        "Maple Clinic no se consultó.",
    ],
    "ko": [
        "Harbor Tower에는 {things}이 {{{{count:c1}}}}건 있습니다.",
        "아래 카드 {{{{shown:c1}}}}장은 {detail}을 보여 줍니다.",
        "안전모를 착용하지 않은 작업자 사진이 아래 카드에 있습니다.",
    ],
    "ja": [
        "Harbor Towerには{things}が{{{{count:c1}}}}件あります。",
        "下のカード{{{{shown:c1}}}}件は{detail}を示しています。",
        "ヘルメットを着用していない作業員の写真が下のカードにあります。",
    ],
}


def _cases(table: dict[str, list[str]]) -> Iterator[tuple[str, str]]:
    for locale, templates in table.items():
        for template in templates:
            yield locale, template


def fill(locale: str) -> st.SearchStrategy[dict[str, str]]:
    holes = FILL[locale]
    return st.fixed_dictionaries({k: st.sampled_from(v) for k, v in holes.items()})


def _record(name: str) -> None:
    RUN[name] += 1


@pytest.mark.parametrize("claim", sorted(HOSTILE))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_generated_claim_is_dropped_without_standing_and_published_with_it(
    claim: str, data: st.DataObject
) -> None:
    locale, template = data.draw(st.sampled_from(list(_cases(HOSTILE[claim]))))
    sentence = template.format(**data.draw(fill(locale)))
    standing = data.draw(st.sampled_from(UNGROUNDED))
    _record(f"hostile:{claim}")
    drop = judge(sentence, STANDINGS[standing], locale)
    assert drop is not None, f"published under {standing} ({locale}): {sentence!r}"
    grounded = judge(sentence, STANDINGS[GROUNDING[claim]], locale)
    assert grounded is None, f"dropped under {GROUNDING[claim]} ({locale}): {sentence!r}"


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(data=st.data())
def test_a_generated_legitimate_sentence_is_published(data: st.DataObject) -> None:
    locale, template = data.draw(st.sampled_from(list(_cases(LEGIT))))
    sentence = template.format(**data.draw(fill(locale)))
    standing = data.draw(st.sampled_from(("lower_bound", "exact_sample", "complete")))
    _record("legit")
    drop = judge(sentence, STANDINGS[standing], locale)
    assert drop is None, f"dropped under {standing} ({locale}): {sentence!r} ({drop})"


def test_the_properties_ran_and_their_figures_are_written() -> None:
    # Runs after the properties in this module (pytest keeps file order per worker).
    assert sum(RUN.values()) >= EXAMPLES, f"the properties ran {dict(RUN)}"
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps({"examples": dict(RUN)}, indent=2) + "\n", encoding="utf-8")
