"""The narration guard, sentence by sentence: what a model may not say, and what it may.

Every expectation is written out here; none is read from the guard's tables.
"""

from __future__ import annotations

import pytest
from guard_standings import (
    BOUND,
    COMPLETE,
    EXACT,
    LEGACY,
    SAMPLE_OF_EXACT,
    SEARCH,
    VALUES,
    ZERO,
    rule,
    token,
)

from beacon.adjudication.guard.judge import Drop, judge
from beacon.adjudication.guard.standing import build_standing

# --- free-typed counts -------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "locale", "typed"),
    [
        ("I found 10 photos that match your question.", "en", "10"),
        ("There are 3,000 panoramas.", "en", "3,000"),
        ("Es gibt 3.000 Panoramen.", "de", "3.000"),
        ("There are 3 000 panoramas.", "en", "3 000"),
        ("I found １０ photos.", "en", "10"),
        ("I found ten photos.", "en", "ten"),
        ("There are twenty-three findings.", "en", "twenty-three"),
        ("I found one photo of it.", "en", "one"),
        ("Two findings are open.", "en", "Two"),
        ("A dozen photos show it.", "en", "A dozen"),
        ("Hundreds of photos show it.", "en", "Hundreds"),
        ("Ich habe zehn Fotos gefunden.", "de", "zehn"),
        ("Es gibt zwei offene Mängel.", "de", "zwei"),
        ("Encontré diez fotos.", "es", "diez"),
        ("Hay dos hallazgos abiertos.", "es", "dos"),
        ("Ich habe zehn Fotos gefunden.", "en", "zehn"),
        ("총 10건의 결과가 있습니다.", "ko", "10"),
        ("사진 10장을 찾았습니다.", "ko", "10"),
        ("사진 열 장을 찾았습니다.", "ko", "열 장"),
        ("사진 열두 장을 찾았습니다.", "ko", "열두 장"),
        ("스무 개가 있습니다.", "ko", "스무 개"),
        ("두 건이 열려 있습니다.", "ko", "두 건"),
        ("삼십 장이 있습니다.", "ko", "삼십 장"),
        ("사진이 하나 있습니다.", "ko", "하나"),
        ("수십 개가 있습니다.", "ko", "수십"),
        ("写真が10枚あります。", "ja", "10"),
        ("写真が十枚あります。", "ja", "十"),
        ("合計三千件あります。", "ja", "三千"),
        ("写真がふたつあります。", "ja", "ふたつ"),
        ("写真は数百あります。", "ja", "数百"),
        ("The 10-photo sample is shown.", "en", "10"),
    ],
)
def test_a_number_no_slot_rendered_drops_its_sentence(
    sentence: str, locale: str, typed: str
) -> None:
    drop = judge(sentence, SEARCH, locale)
    assert drop == Drop("free_count", typed, sentence)
    assert drop.record() == {"kind": "narration_dropped", "rule": "free_count", "token": typed}


@pytest.mark.parametrize(
    ("sentence", "locale"),
    [
        ("Harbor Tower has {{count:c2}} photos matching the question.", "en"),
        ("These {{shown:c2}} are shown as cards.", "en"),
        ("Photo ph-0042 is on Level 3.", "en"),
        ("It was taken on March 12, 2024.", "en"),
        ("It was taken on 2024-03-12.", "en"),
        ("Das Foto vom 12. März 2024 ist auf Ebene 3.", "de"),
        ("La foto del 12 de marzo de 2024 está en el Nivel 3.", "es"),
        ("이 사진은 3층에서 2024년 3월 12일에 찍었습니다.", "ko"),
        ("この写真は3階で2024年3月12日に撮影されました。", "ja"),
        ('The photo "Hard hat missing at stair 2" shows it.', "en"),
        ("One of them is on Level 3.", "en"),
        ("No one marked it.", "en"),
        ("Once the search ran, the cards came back.", "en"),
        ("Ein Foto zeigt die Treppe.", "de"),
        ("Una foto muestra la escalera.", "es"),
        ("一覧で一致する写真を見てください。", "ja"),
        ("이 사진은 한국에서 찍었습니다.", "ko"),
        ("It is on the 3rd floor.", "en"),
        ("See IMG_2041 in the viewer.", "en"),
        ("That is not among the previous results.", "en"),
    ],
)
def test_a_value_the_evidence_carries_or_a_word_that_is_no_number_is_kept(
    sentence: str, locale: str
) -> None:
    assert judge(sentence, SEARCH, locale) is None


def test_a_number_beside_a_protected_value_is_still_a_count() -> None:
    assert token("I found 10 photos on Level 3.") == "10"
    assert token("Level 3 has 4 open findings.") == "4"


def test_a_number_equal_to_an_exact_count_stays_only_when_the_answer_is_complete() -> None:
    assert rule("There are 14 open findings.", COMPLETE) is None
    assert rule("There are fourteen open findings.", COMPLETE) is None
    assert rule("There are 15 open findings.", COMPLETE) == "free_count"
    # The same figure beside a source that is only a lower bound is not the whole answer.
    mixed = build_standing([EXACT, BOUND], VALUES)
    assert rule("There are 14 open findings.", mixed) == "free_count"
    # An exact total with more pages beyond is not a complete answer either.
    assert rule("There are 14 open findings.", build_standing([SAMPLE_OF_EXACT])) == "free_count"


def test_with_no_counted_source_every_free_number_drops() -> None:
    assert rule("There are 3 projects.", build_standing([], ["Harbor Tower"])) == "free_count"
    assert rule("Harbor Tower is one of them.", build_standing([], ["Harbor Tower"])) is None


# --- unknown sources ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "typed"),
    [
        ("I found 10 photos.", "10"),
        ("Photo ph-0042 is here.", "0042"),
        ("It is on Level 3.", "3"),
        ("I found ten photos.", "ten"),
        ("It was taken on 2024-03-12.", "2024"),
    ],
)
def test_under_an_unknown_source_no_number_of_any_kind_survives(sentence: str, typed: str) -> None:
    assert judge(sentence, LEGACY, "en") == Drop("number_under_unknown", typed, sentence)


def test_under_an_unknown_source_a_sentence_without_numbers_stays() -> None:
    assert rule("The source did not say how many there are, so I give no count.", LEGACY) is None
    assert rule("The {{count:c4}} is not known.", LEGACY) is None  # the slot drops it later


# --- completeness ----------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "There are exactly {{count:c2}} photos.",
        "All of them are on Level 3.",
        "These are all the photos.",
        "In total there are {{count:c2}}.",
        "That is the complete set.",
        "These are the only photos.",
        "There are only {{count:c2}} photos.",
        "There are no more photos.",
        "Every photo shows a hard hat.",
        "That's all.",
        "Alle Fotos zeigen Helme.",
        "Insgesamt sind es {{count:c2}}.",
        "Son todas las fotos.",
        "En total hay {{count:c2}}.",
        "사진은 모두 여기 있습니다.",
        "전부 3층에 있습니다.",
        "写真はすべてここにあります。",
        "合計は{{count:c2}}です。",
    ],
)
def test_a_completeness_claim_drops_over_a_lower_bound(sentence: str) -> None:
    assert rule(sentence) == "completeness_claim"


def test_a_completeness_claim_stands_on_an_exact_complete_count() -> None:
    assert rule("All of them are open.", COMPLETE) is None
    assert rule("There are exactly {{count:c1}} findings.", COMPLETE) is None
    # A slot names its own source: an exact count elsewhere does not make a bound exact.
    mixed = build_standing([EXACT, BOUND], VALUES)
    assert rule("There are exactly {{count:c2}} photos.", mixed) == "completeness_claim"
    assert rule("There are exactly {{count:c9}} photos.", mixed) == "completeness_claim"
    # Without a slot, "all of them" is said of the turn's results: every counted source
    # must be whole, not one of them.
    assert rule("All of them are open.", mixed) == "completeness_claim"


def test_a_negated_completeness_is_no_claim() -> None:
    assert rule("Among the records returned (not all of them), these appear: A.") is None
    assert rule("I am answering from the first page only.") is None


# --- absence ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "There are none.",
        "There are no photos of that.",
        "I couldn't find any photos.",
        "No matching photos were found.",
        "The search found nothing.",
        "Nothing matched.",
        "Zero findings remain.",
        "Es gibt keine Fotos davon.",
        "Ich habe nichts gefunden.",
        "Ich konnte keine Fotos von Schutzhelmen finden.",
        "Das Foto wurde nicht gefunden.",
        "No hay fotos de eso.",
        "No encontré ninguna foto.",
        "해당 사진이 없습니다.",
        "사진을 찾지 못했습니다.",
        "写真は見つかりませんでした。",
        "該当する写真はありません。",
    ],
)
def test_an_absence_claim_drops_without_standing(sentence: str) -> None:
    assert rule(sentence) == "absence_claim"
    assert rule(sentence, LEGACY) == "absence_claim"


def test_an_absence_claim_stands_on_an_accounted_empty_result() -> None:
    assert rule("There are none.", ZERO) is None
    assert rule("해당 사진이 없습니다.", ZERO) is None


def test_saying_a_count_cannot_be_given_is_no_absence_claim() -> None:
    assert rule("개수를 알 수 없습니다.", LEGACY) is None
    assert rule("The data source did not say how many results there are.", LEGACY) is None


def test_a_protected_title_cannot_trip_a_claim() -> None:
    standing = build_standing([BOUND], ["No harness photos found"])
    assert rule('The photo "No harness photos found" is shown.', standing) is None
    assert rule("No harness photos found.", SEARCH) == "absence_claim"


def test_one_card_named_by_its_subject_is_no_population_claim() -> None:
    assert rule("The photo shows a worker near the hoist.") is None
    assert rule("The photos show workers near the hoist.") == "population_claim"
    assert rule("Die Aufnahme ph-0042 ist die geöffnete.", SEARCH, "de") is None


@pytest.mark.parametrize(
    ("sentence", "locale"),
    [
        ("The next search will cover everything again.", "en"),
        ("Die nächste Suche umfasst wieder alles.", "de"),
        ("La próxima búsqueda vuelve a abarcarlo todo.", "es"),
        ("다음 검색은 다시 전체를 대상으로 합니다.", "ko"),
        ("次の検索は再び全体が対象です。", "ja"),
        ("Nothing was called on your behalf.", "en"),
    ],
)
def test_the_reach_of_the_next_search_and_a_denied_call_claim_nothing_of_the_results(
    sentence: str, locale: str
) -> None:
    assert rule(sentence, SEARCH, locale) is None


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("That covers every hard hat photo in Harbor Tower.", "completeness_claim"),
        ("My search covered every photo there is.", "completeness_claim"),
        ("Covering everything, I found these.", "completeness_claim"),
        ("Nothing matched.", "absence_claim"),
        ("The photo library has nothing on hard hats.", "absence_claim"),
    ],
)
def test_coverage_of_the_results_or_nothing_found_is_still_a_claim(
    sentence: str, expected: str
) -> None:
    assert rule(sentence, SEARCH) == expected


def test_a_semicolon_gives_each_clause_its_own_subject() -> None:
    two = "Harbor Tower has {{count:c2}} photos; the cards below are the first {{shown:c2}}."
    assert rule(two, SEARCH) is None
    one = "Of {{count:c2}} matches these {{shown:c2}} are on Level 3; more may follow."
    assert rule(one, SEARCH) == "subject_mixed"


def test_a_negated_universal_discloses_a_partial_set_and_is_no_absence() -> None:
    assert rule("Not every match is shown here.", SEARCH) is None
    assert rule("Not  all photos are on screen.", SEARCH) is None
    assert rule("Harbor Tower lacks any photos of hard hats.", SEARCH) == "absence_claim"


def test_an_exact_number_asked_for_is_no_claim_and_a_comma_joins_one_subject() -> None:
    two = "Harbor Tower has {{count:c2}} photos, and the {{shown:c2}} closest are below."
    assert rule(two, SEARCH) == "subject_mixed"
    assert rule("If you need an exact number, narrow it by level.", SEARCH) is None
    assert rule("There are exactly 173 of them.", SEARCH) == "free_count"
