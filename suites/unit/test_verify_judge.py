"""Verify's own judge of published prose, rule by rule, in the five locales.

Every sentence and every count here is written by hand: what a server might
publish, and the verdict a reader of SPEC §3 expects of it. Nothing is read
from the judge or from Beacon's guard.
"""

from __future__ import annotations

import pytest

from harness.verify.judge import Evidence, judge_sentence, judge_text, split_sentences
from harness.verify.phrases import Count
from harness.verify.values import Values

CARDS = Values(("ph-0042", "Level 7: PPE breach", "Level 7", "2024-03-12", "Harbor Tower"))
# At least 3,000 panoramas (the row cap), 10 cards on screen.
LOWER = Evidence((Count("c1", "LOWER_BOUND", 3000, 10, True),), CARDS)
# Exactly 6 findings, every one on screen.
WHOLE = Evidence((Count("c1", "EXACT", 6, 6, False),), CARDS)
# Exactly 714 findings, 10 of them on screen.
SAMPLE = Evidence((Count("c1", "EXACT", 714, 10, False),), CARDS)
UNKNOWN = Evidence((Count("c1", "UNKNOWN", None, 0, False),), CARDS)
# An accounted search that found nothing: "none" has standing.
EMPTY = Evidence((Count("c1", "LOWER_BOUND", 0, 0, False, may_say_none=True),), CARDS)


def _rule(sentence: str, evidence: Evidence, locale: str) -> str | None:
    finding = judge_sentence(sentence, evidence, locale)
    return None if finding is None else finding.rule


def _token(sentence: str, evidence: Evidence, locale: str) -> tuple[str, str] | None:
    finding = judge_sentence(sentence, evidence, locale)
    return None if finding is None else (finding.rule, finding.token)


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param("en", "Harbor Tower has at least 3,000 panoramas.", id="en"),
        pytest.param("de", "Harbor Tower hat mindestens 3.000 Panoramen.", id="de"),
        pytest.param("es", "Harbor Tower tiene al menos 3.000 panorámicas.", id="es"),
        pytest.param("ko", "Harbor Tower에는 최소 3,000개의 파노라마가 있습니다.", id="ko"),
        pytest.param("ja", "Harbor Towerには少なくとも3,000件のパノラマがあります。", id="ja"),
    ],
)
def test_a_lower_bound_said_in_its_grades_phrase_stands(locale: str, sentence: str) -> None:
    assert judge_sentence(sentence, LOWER, locale) is None


@pytest.mark.parametrize(
    ("locale", "sentence", "token"),
    [
        pytest.param("en", "Harbor Tower has 3,000 panoramas.", "3,000", id="en-bare"),
        pytest.param("de", "Harbor Tower hat 3.000 Panoramen.", "3.000", id="de-bare"),
        pytest.param("es", "Harbor Tower tiene 3.000 panorámicas.", "3.000", id="es-bare"),
        pytest.param("ko", "Harbor Tower에는 파노라마가 3,000개 있습니다.", "3,000", id="ko-bare"),
        pytest.param("ja", "Harbor Towerにはパノラマが3,000件あります。", "3,000", id="ja-bare"),
        pytest.param("en", "There are exactly 3,000 panoramas.", "3,000", id="en-as-exact"),
        pytest.param("de", "Es gibt genau 3.000 Panoramen.", "3.000", id="de-as-exact"),
        pytest.param("es", "Hay exactamente 3.000 panorámicas.", "3.000", id="es-as-exact"),
        pytest.param("ko", "파노라마는 정확히 3,000개입니다.", "3,000", id="ko-as-exact"),
        pytest.param("ja", "パノラマはちょうど3,000件です。", "3,000", id="ja-as-exact"),
        pytest.param("en", "I found ten photos.", "ten", id="en-word"),
        pytest.param("de", "Ich habe zehn Fotos gefunden.", "zehn", id="de-word"),
        pytest.param("es", "Encontré diez fotos.", "diez", id="es-word"),
        pytest.param("ko", "사진 열두 장을 찾았습니다.", "열두 장", id="ko-native-counter"),
        pytest.param("ja", "写真が十枚見つかりました。", "十", id="ja-kanji-counter"),
        pytest.param("en", "I found １０ photos.", "10", id="en-full-width"),
        pytest.param("en", "The project holds 3 000 panoramas.", "3 000", id="en-space-grouping"),
        pytest.param(
            "ko", "Harbor Tower에는 수백 개의 파노라마가 있습니다.", "수백", id="ko-vague"
        ),
    ],
)
def test_a_count_typed_outside_its_grades_form_is_a_free_count(
    locale: str, sentence: str, token: str
) -> None:
    assert _token(sentence, LOWER, locale) == ("free_count", token)


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param("en", "I found 10 photos.", id="en"),
        pytest.param("de", "Ich habe 10 Fotos gefunden.", id="de"),
        pytest.param("es", "Encontré 10 fotos.", id="es"),
        pytest.param("ko", "사진 10장을 찾았습니다.", id="ko"),
        pytest.param("ja", "写真が10枚見つかりました。", id="ja"),
        pytest.param("en", "The clearest photo is on Level 7.", id="en-even-a-level-name"),
        pytest.param("en", "Photo ph-0042 is the clearest.", id="en-even-an-id"),
    ],
)
def test_under_an_unknown_count_no_number_stands(locale: str, sentence: str) -> None:
    assert _rule(sentence, UNKNOWN, locale) == "number_under_unknown"


@pytest.mark.parametrize(
    ("locale", "right", "wrong"),
    [
        pytest.param("en", "There are 6 open findings.", "There are 7 open findings.", id="en"),
        pytest.param(
            "de",
            "Es gibt sechs offene Mängel.",
            "Es gibt sieben offene Mängel.",
            id="de",
        ),
        pytest.param(
            "es",
            "Hay seis hallazgos abiertos.",
            "Hay siete hallazgos abiertos.",
            id="es",
        ),
        pytest.param(
            "ko", "미해결 지적 사항은 여섯 건입니다.", "미해결 지적 사항은 일곱 건입니다.", id="ko"
        ),
        pytest.param("ja", "未解決の指摘は六件です。", "未解決の指摘は七件です。", id="ja"),
    ],
)
def test_an_exact_complete_count_may_be_said_bare_and_no_other_number(
    locale: str, right: str, wrong: str
) -> None:
    assert judge_sentence(right, WHOLE, locale) is None
    assert _rule(wrong, WHOLE, locale) == "free_count"
    assert _rule(right, SAMPLE, locale) == "free_count"  # 6 is not the exact 714


@pytest.mark.parametrize(
    ("locale", "pointing", "typed"),
    [
        pytest.param(
            "en",
            "The 10 cards below are the closest matches.",
            "I found 10 photos.",
            id="en",
        ),
        pytest.param(
            "de",
            "Die 10 Karten unten sind die besten Treffer.",
            "Ich habe 10 Fotos gefunden.",
            id="de",
        ),
        pytest.param(
            "es",
            "Las 10 tarjetas de abajo son las más cercanas.",
            "Encontré 10 fotos.",
            id="es",
        ),
        pytest.param(
            "ko", "아래 카드 10장이 가장 가까운 결과입니다.", "사진 10장을 찾았습니다.", id="ko"
        ),
        pytest.param(
            "ja", "下のカード10枚が最も近い結果です。", "写真が10枚見つかりました。", id="ja"
        ),
    ],
)
def test_the_cards_on_screen_may_be_counted_only_by_a_sentence_that_points_at_them(
    locale: str, pointing: str, typed: str
) -> None:
    assert judge_sentence(pointing, LOWER, locale) is None
    assert _rule(typed, LOWER, locale) == "free_count"


@pytest.mark.parametrize(
    ("locale", "named", "unnamed"),
    [
        pytest.param(
            "en",
            "Photo ph-0042 on Level 7 was taken on March 12, 2024.",
            "Most photos are on Level 8.",
            id="en",
        ),
        pytest.param(
            "de",
            "Foto ph-0042 auf Ebene 7 wurde am 12. März 2024 aufgenommen.",
            "Das Foto wurde am 13. März 2024 aufgenommen.",
            id="de",
        ),
        pytest.param(
            "es",
            "La foto ph-0042 del Nivel 7 se tomó el 12 de marzo de 2024.",
            "La foto se tomó el 2024-03-13.",
            id="es",
        ),
        pytest.param(
            "ko",
            "사진 ph-0042는 7층에서 2024년 3월 12일에 촬영되었습니다.",
            "사진은 8층에서 촬영되었습니다.",
            id="ko",
        ),
        pytest.param(
            "ja",
            "写真ph-0042は7階で2024年3月12日に撮影されました。",
            "写真は8階で撮影されました。",
            id="ja",
        ),
    ],
)
def test_numbers_of_the_evidences_ids_levels_and_dates_are_not_counts(
    locale: str, named: str, unnamed: str
) -> None:
    assert judge_sentence(named, LOWER, locale) is None
    assert _rule(unnamed, LOWER, locale) == "free_count"


def test_a_bare_number_value_protects_only_itself_written_as_an_id() -> None:
    evidence = Evidence(LOWER.counts, Values(("10",)))
    assert judge_sentence("Capture #10 is the one open in your view.", evidence, "en") is None
    assert _rule("I found 10 photos.", evidence, "en") == "free_count"


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param("en", "Here are all of the photos.", id="en"),
        pytest.param("de", "Das sind alle Fotos.", id="de"),
        pytest.param("es", "Estas son todas las fotos.", id="es"),
        pytest.param("ko", "사진을 모두 보여드렸습니다.", id="ko"),
        pytest.param("ja", "写真はすべて表示しました。", id="ja"),
    ],
)
def test_an_all_needs_every_count_exact_complete_and_on_screen(locale: str, sentence: str) -> None:
    assert _rule(sentence, LOWER, locale) == "completeness_claim"
    assert _rule(sentence, SAMPLE, locale) == "completeness_claim"  # 10 cards of 714
    assert judge_sentence(sentence, WHOLE, locale) is None


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param("en", "That is the complete list of photos in total.", id="en"),
        pytest.param("de", "Insgesamt ist das die vollständige Liste der Fotos.", id="de"),
        pytest.param("es", "En total, esa es la lista completa de fotos.", id="es"),
        pytest.param("ko", "사진은 총 이만큼이 전부입니다.", id="ko"),
        pytest.param("ja", "写真は合計でこれだけです。", id="ja"),
    ],
)
def test_a_totaliser_needs_the_turns_counts_exact_and_complete(locale: str, sentence: str) -> None:
    assert _rule(sentence, LOWER, locale) == "completeness_claim"
    assert judge_sentence(sentence, WHOLE, locale) is None


def test_a_negated_whole_claims_nothing() -> None:
    assert judge_sentence("The cards below are a sample, not the whole set.", LOWER, "en") is None


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param("en", "There are no photos of hard hats.", id="en"),
        pytest.param("de", "Es gibt keine Fotos von Schutzhelmen.", id="de"),
        pytest.param("es", "No hay fotos de cascos.", id="es"),
        pytest.param("ko", "안전모 사진이 없습니다.", id="ko"),
        pytest.param("ja", "ヘルメットの写真はありません。", id="ja"),
        pytest.param("en", "The search came back empty.", id="en-emptiness"),
        pytest.param("en", "There are none.", id="en-pronoun"),
    ],
)
def test_a_none_needs_a_result_that_is_empty_with_standing(locale: str, sentence: str) -> None:
    assert _rule(sentence, LOWER, locale) == "absence_claim"
    assert _rule(sentence, UNKNOWN, locale) == "absence_claim"
    assert judge_sentence(sentence, EMPTY, locale) is None


def test_nothing_more_says_the_set_is_whole_not_that_it_is_empty() -> None:
    assert _rule("There are no other photos.", LOWER, "en") == "completeness_claim"
    assert judge_sentence("There are no other open findings.", WHOLE, "en") is None


def test_a_negation_of_something_else_is_no_absence() -> None:
    assert judge_sentence("Maple Clinic was not searched.", LOWER, "en") is None
    shown = "The cards below show workers not wearing hard hats."
    assert judge_sentence(shown, LOWER, "en") is None


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param("en", "The photos show workers near the hoist.", id="en"),
        pytest.param("de", "Die Fotos zeigen Arbeiter am Aufzug.", id="de"),
        pytest.param("es", "Las fotos muestran obreros junto al montacargas.", id="es"),
        pytest.param("ko", "사진은 호이스트 근처의 작업자를 보여 줍니다.", id="ko"),
        pytest.param("ja", "写真はホイスト付近の作業員を写しています。", id="ja"),
        pytest.param("en", "Most of the photos were taken at night.", id="en-a-share"),
    ],
)
def test_a_free_sentence_about_the_results_as_a_whole_needs_them_all_on_screen(
    locale: str, sentence: str
) -> None:
    assert _rule(sentence, LOWER, locale) == "population_claim"
    assert _rule(sentence, SAMPLE, locale) == "population_claim"
    assert judge_sentence(sentence, WHOLE, locale) is None


def test_a_sentence_about_the_cards_on_screen_or_one_named_record_is_no_population_claim() -> None:
    assert judge_sentence("The photos below show workers near the hoist.", LOWER, "en") is None
    assert judge_sentence("The photo ph-0042 shows a worker near the hoist.", LOWER, "en") is None


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        pytest.param("en", "Of at least 3,000 panoramas, these 10 are on Level 7.", id="en"),
        pytest.param("de", "Von mindestens 3.000 Panoramen sind diese 10 auf Ebene 7.", id="de"),
        pytest.param("es", "De al menos 3.000 panorámicas, estos 10 están en Nivel 7.", id="es"),
        pytest.param("ko", "최소 3,000개의 파노라마 중 이 10개는 7층에 있습니다.", id="ko"),
        pytest.param(
            "ja", "少なくとも3,000件のパノラマのうち、これら10件は7階にあります。", id="ja"
        ),
    ],
)
def test_a_population_count_and_a_subset_count_in_one_sentence_are_mixed(
    locale: str, sentence: str
) -> None:
    assert _rule(sentence, LOWER, locale) == "subject_mixed"


def test_sentences_end_at_each_locales_marks_but_not_at_a_german_ordinal() -> None:
    assert split_sentences("One. Two! Three? 写真です。次です。") == [
        "One. ",
        "Two! ",
        "Three? ",
        "写真です。",
        "次です。",
    ]
    assert split_sentences("Am 12. März gab es Fotos. Dann nicht.") == [
        "Am 12. März gab es Fotos. ",
        "Dann nicht.",
    ]


def test_every_offending_sentence_of_an_answer_is_found_with_its_first_rule() -> None:
    answer = "Harbor Tower has at least 3,000 panoramas. I found 10 of them. There are none."
    assert [(f.rule, f.sentence) for f in judge_text(answer, LOWER, "en")] == [
        ("free_count", "I found 10 of them."),
        ("absence_claim", "There are none."),
    ]
