"""A "how many …?" question is the aggregate's, decided in code (SPEC §3, issue 13).

The detector reads a count question in five locales; the loop's corrective
round is sent once, only when it can help, and never past the round budget.
"""

from __future__ import annotations

import pytest

from beacon.adjudication import Basis, CountVerdict, Grade, wants_aggregate
from beacon.lexicon.words import HOW_MANY_PATTERNS
from beacon.loop.aggregate import AggregateCorrection
from beacon.loop.evidence import Evidence
from beacon.loop.prompts import AGGREGATE_CORRECTION
from beacon.policy.vocabulary import licensing_words

MAX_ROUNDS = 6
HOW_MANY = "How many panoramas are in Harbor Tower?"
LISTING = "list all panoramas in Harbor Tower"
CATALOG = [
    {"type": "function", "function": {"name": "query_data", "parameters": {}}},
    {"type": "function", "function": {"name": "search_photos", "parameters": {}}},
]
NO_AGGREGATE_TOOL = [CATALOG[1]]


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("How many panoramas are in Harbor Tower?", id="en-how-many"),
        pytest.param("What is the number of open findings?", id="en-number-of"),
        pytest.param("Give me the count of RFIs", id="en-count-of"),
        pytest.param("Total number of photos on level 2", id="en-total-number"),
        pytest.param("ｈｏｗ　ｍａｎｙ panoramas?", id="en-full-width"),
        pytest.param("Harbor Tower에 파노라마가 몇 개 있나요?", id="ko-myeot-gae"),
        pytest.param("3층 미결 안전 지적이 몇 건인가요?", id="ko-myeot-geon"),
        pytest.param("사진이 몇장 있어요?", id="ko-myeot-jang-unspaced"),
        pytest.param("작업자가 몇 명 있나요?", id="ko-myeot-myeong"),
        pytest.param("파노라마 개수를 알려줘", id="ko-gaesu"),
        pytest.param("안전 지적 건수는?", id="ko-geonsu"),
        pytest.param("지적 사항이 몇 가지인가요?", id="ko-myeot"),
        pytest.param("Harbor Towerのパノラマはいくつありますか?", id="ja-ikutsu"),
        pytest.param("未解決の安全指摘は何件ですか?", id="ja-nanken"),
        pytest.param("写真は何枚ありますか?", id="ja-nanmai"),
        pytest.param("何個ありますか", id="ja-nanko"),
        pytest.param("作業員は何人?", id="ja-nannin"),
        pytest.param("指摘の件数を教えて", id="ja-kensu"),
        pytest.param("パノラマの数は?", id="ja-kazu-wa"),
        pytest.param("Wie viele Panoramen gibt es in Harbor Tower?", id="de-wie-viele"),
        pytest.param("Wieviele offene Mängel gibt es?", id="de-wieviele"),
        pytest.param("Wie viel Bewehrung wurde markiert?", id="de-wie-viel"),
        pytest.param("Anzahl der offenen Sicherheitsmängel", id="de-anzahl"),
        pytest.param("Die Gesamtanzahl der Fotos bitte", id="de-gesamtanzahl"),
        pytest.param("¿Cuántos panoramas hay en Harbor Tower?", id="es-cuantos"),
        pytest.param("¿Cuántas fotos hay?", id="es-cuantas"),
        pytest.param("cuantas fotos hay", id="es-cuantas-unaccented"),
        pytest.param("Dime el número de hallazgos abiertos", id="es-numero-de"),
        pytest.param("La cantidad de fotos del nivel 2", id="es-cantidad-de"),
    ],
)
def test_a_count_question_is_read_in_each_locale(question: str) -> None:
    assert wants_aggregate(question) is True


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("List all panoramas in Harbor Tower", id="en-listing"),
        pytest.param("Does this account for the discounts?", id="en-count-inside-words"),
        pytest.param("Which companies have open findings?", id="en-set-question"),
        pytest.param("Harbor Tower의 파노라마를 보여줘", id="ko-listing"),
        pytest.param("몇몇 사진을 보여줘", id="ko-several"),
        pytest.param("パノラマを一覧表示して", id="ja-listing"),
        pytest.param("Zeige alle Panoramen in Harbor Tower", id="de-listing"),
        pytest.param("Wann ist die Anzahlung fällig?", id="de-down-payment"),
        pytest.param("Muestra todas las fotos de Harbor Tower", id="es-listing"),
        pytest.param("Muestra unos cuantos ejemplos", id="es-a-few"),
        pytest.param("En cuanto a los andamios, muéstrame fotos", id="es-regarding"),
    ],
)
def test_a_question_that_asks_for_no_count_is_not_read_as_one(question: str) -> None:
    assert wants_aggregate(question) is False


def test_the_detector_covers_exactly_the_five_locales() -> None:
    assert set(HOW_MANY_PATTERNS) == {"en", "ko", "ja", "de", "es"}
    assert all(HOW_MANY_PATTERNS.values())


def gathered(
    question: str,
    grade: Grade,
    value: int | None,
    basis: Basis,
    *,
    tool: str = "query_data",
    failed: bool = False,
) -> Evidence:
    verdict = CountVerdict(grade, value, grade is Grade.LOWER_BOUND, 0, "test", basis)
    return Evidence(
        call_id=f"call_{question[:8]}",
        tool=tool,
        arguments={"project_id": "prj-harbor-tower", "question": question},
        slot="c1",
        failed=failed,
        verdict=verdict,
        emptiness="non_empty",
        citations=(),
        bytes=0,
        returned=None,
        absence=None,
    )


LISTED = gathered(LISTING, Grade.LOWER_BOUND, 3000, Basis.SATURATED)
COUNTED = gathered(HOW_MANY, Grade.EXACT, 7961, Basis.AGGREGATE)


def test_a_count_question_answered_by_a_listing_earns_one_corrective_round() -> None:
    correction = AggregateCorrection.for_turn(HOW_MANY, CATALOG)
    nudge = correction.after_stop(2, MAX_ROUNDS, [LISTED], "READY")
    assert nudge == [
        {"role": "assistant", "content": "READY"},
        {"role": "system", "content": AGGREGATE_CORRECTION},
    ]
    assert "query_data" in AGGREGATE_CORRECTION and "COUNT" in AGGREGATE_CORRECTION
    assert correction.purpose(3) == "correct_aggregate" and correction.purpose(2) == "gather"
    # Ignored once, it is not repeated: the listing's honest grade stands.
    assert correction.after_stop(4, MAX_ROUNDS, [LISTED, LISTED], "READY") == []


def test_a_planner_that_stopped_silently_gets_only_the_instruction() -> None:
    correction = AggregateCorrection.for_turn(HOW_MANY, CATALOG)
    assert correction.after_stop(1, MAX_ROUNDS, [], "") == [
        {"role": "system", "content": AGGREGATE_CORRECTION}
    ]


@pytest.mark.parametrize(
    ("question", "catalog", "round_no", "evidence"),
    [
        pytest.param(HOW_MANY, CATALOG, 2, [LISTED, COUNTED], id="exact-aggregate-gathered"),
        pytest.param(
            HOW_MANY,
            CATALOG,
            2,
            [gathered(HOW_MANY, Grade.UNKNOWN, None, Basis.NO_ACCOUNTING)],
            id="aggregate-asked-upstream-gave-no-accounting",
        ),
        pytest.param(
            HOW_MANY,
            CATALOG,
            2,
            [gathered(HOW_MANY, Grade.UNKNOWN, None, Basis.NO_ACCOUNTING, failed=True)],
            id="aggregate-asked-and-failed",
        ),
        pytest.param(HOW_MANY, CATALOG, MAX_ROUNDS, [LISTED], id="budget-spent"),
        pytest.param(HOW_MANY, NO_AGGREGATE_TOOL, 2, [LISTED], id="catalog-without-query-data"),
        pytest.param(LISTING, CATALOG, 2, [LISTED], id="not-a-count-question"),
    ],
)
def test_no_corrective_round_where_it_cannot_help(
    question: str, catalog: list[dict[str, object]], round_no: int, evidence: list[Evidence]
) -> None:
    correction = AggregateCorrection.for_turn(question, catalog)
    assert correction.after_stop(round_no, MAX_ROUNDS, evidence, "READY") == []
    assert correction.purpose(round_no + 1) == "gather"


def test_only_an_exact_aggregate_or_the_planners_own_count_question_settles_it() -> None:
    correction = AggregateCorrection.for_turn(HOW_MANY, CATALOG)
    assert correction.needed(2, MAX_ROUNDS, [LISTED]) is True
    # A result graded like an aggregate but failed in band is no answer.
    broken = gathered("panoramas", Grade.EXACT, 7961, Basis.AGGREGATE, failed=True)
    assert correction.needed(2, MAX_ROUNDS, [LISTED, broken]) is True
    # The planner asked query_data a count question: the route was taken already.
    asked = gathered("count panoramas", Grade.UNKNOWN, None, Basis.NO_ACCOUNTING)
    assert correction.needed(2, MAX_ROUNDS, [LISTED, asked]) is False
    # Whichever tool gathered it, an exact single-value aggregate is the answer.
    other = gathered("hard hats", Grade.EXACT, 12, Basis.AGGREGATE, tool="search_photos")
    assert correction.needed(2, MAX_ROUNDS, [other]) is False


def test_after_a_correction_the_exact_aggregate_leads_the_evidence() -> None:
    other = gathered(LISTING + " again", Grade.LOWER_BOUND, 3000, Basis.SATURATED)
    untouched = AggregateCorrection.for_turn(HOW_MANY, CATALOG)
    assert untouched.ordered([LISTED, COUNTED]) == [LISTED, COUNTED]
    corrected = AggregateCorrection.for_turn(HOW_MANY, CATALOG)
    corrected.after_stop(2, MAX_ROUNDS, [LISTED], "READY")
    assert corrected.ordered([LISTED, other]) == [LISTED, other]  # nothing to promote
    assert corrected.ordered([LISTED, other, COUNTED]) == [COUNTED, LISTED, other]


def test_the_correction_names_no_access_level() -> None:
    assert licensing_words(AGGREGATE_CORRECTION) == []
