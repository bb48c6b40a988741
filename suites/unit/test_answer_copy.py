"""The code-built answer reads as a person would write it, in each of the five locales:
nouns agree with their numbers (CLDR's plural rules), Korean and Japanese count with
counters, the shown-set sentence appears only where the cards are fewer than the set
and is worded by grade, and a tool the tables do not know is spoken of as "results".

Every expected string here is written by hand, never read from the tables under test.
"""

from __future__ import annotations

from typing import Any

import pytest

from beacon.adjudication import Grade
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.slots import render_narration
from beacon.adjudication.guard.standing import build_standing
from beacon.lexicon.plurals import plural_category
from beacon.loop.fallback_narrator import narrate
from beacon.loop.guarded_answer import guarded

PROJECTS = {"prj-harbor-tower": "Harbor Tower"}
KIND = {Grade.EXACT: "exact_count", Grade.LOWER_BOUND: "lower_bound"}


def records(tool: str, grade: Grade, *, shown: bool = True) -> list[dict[str, Any]]:
    """The anchor records a counted call earns (as beacon.adjudication.anchors makes them)."""
    facts = {"tool": tool, "project_id": "prj-harbor-tower", "subject": "x", "aggregate": False}
    out: list[dict[str, Any]] = []
    if grade in KIND:
        out.append({"kind": KIND[grade], "slot": "c1", **facts})
    if grade is Grade.UNKNOWN:
        out.append({"kind": "unknown_count", "slot": "c1", **facts})
    elif shown:
        out.append({"kind": "shown_subset", "slot": "c1", **facts})
    return out


def said(tool: str, grade: Grade, value: int | None, cards: int, locale: str) -> str:
    """What the user reads: the narrator's sentences with their slots rendered."""
    slots = {"c1": Counted("c1", grade, value, cards)}
    # Sentences joined as the turn joins them: Japanese runs on after 。.
    joiner = "" if locale == "ja" else " "
    text = joiner.join(narrate(records(tool, grade), locale, projects=PROJECTS, slots=slots))
    return render_narration(text, slots, locale)[0]


# (locale, count) → the count sentence for findings, every card on screen.
FINDINGS = {
    ("en", 1): "Harbor Tower has exactly 1 matching finding.",
    ("en", 2): "Harbor Tower has exactly 2 matching findings.",
    ("en", 5): "Harbor Tower has exactly 5 matching findings.",
    ("en", 21): "Harbor Tower has exactly 21 matching findings.",
    ("de", 1): "Harbor Tower hat genau 1 passenden Befund.",
    ("de", 2): "Harbor Tower hat genau 2 passende Befunde.",
    ("de", 5): "Harbor Tower hat genau 5 passende Befunde.",
    ("de", 21): "Harbor Tower hat genau 21 passende Befunde.",
    ("es", 1): "Harbor Tower tiene exactamente 1 hallazgo que coincide.",
    ("es", 2): "Harbor Tower tiene exactamente 2 hallazgos que coinciden.",
    ("es", 5): "Harbor Tower tiene exactamente 5 hallazgos que coinciden.",
    ("es", 21): "Harbor Tower tiene exactamente 21 hallazgos que coinciden.",
    ("ko", 1): "Harbor Tower에서 일치하는 지적 사항: 정확히 1건.",
    ("ko", 2): "Harbor Tower에서 일치하는 지적 사항: 정확히 2건.",
    ("ko", 5): "Harbor Tower에서 일치하는 지적 사항: 정확히 5건.",
    ("ko", 21): "Harbor Tower에서 일치하는 지적 사항: 정확히 21건.",
    ("ja", 1): "Harbor Towerで一致する指摘はちょうど1件です。",
    ("ja", 2): "Harbor Towerで一致する指摘はちょうど2件です。",
    ("ja", 5): "Harbor Towerで一致する指摘はちょうど5件です。",
    ("ja", 21): "Harbor Towerで一致する指摘はちょうど21件です。",
}
PHOTOS = {
    ("en", 1): "Harbor Tower has exactly 1 matching photo.",
    ("en", 21): "Harbor Tower has exactly 21 matching photos.",
    ("de", 1): "Harbor Tower hat genau 1 passendes Foto.",
    ("de", 21): "Harbor Tower hat genau 21 passende Fotos.",
    ("es", 1): "Harbor Tower tiene exactamente 1 foto que coincide.",
    ("es", 21): "Harbor Tower tiene exactamente 21 fotos que coinciden.",
    ("ko", 1): "Harbor Tower에서 일치하는 사진: 정확히 1장.",
    ("ko", 21): "Harbor Tower에서 일치하는 사진: 정확히 21장.",
    ("ja", 1): "Harbor Towerで一致する写真はちょうど1枚です。",
    ("ja", 21): "Harbor Towerで一致する写真はちょうど21枚です。",
}


@pytest.mark.parametrize(("locale", "count"), sorted(FINDINGS))
def test_a_count_of_findings_takes_the_plural_form_its_number_needs(
    locale: str, count: int
) -> None:
    assert said("list_annotations", Grade.EXACT, count, count, locale) == FINDINGS[locale, count]


@pytest.mark.parametrize(("locale", "count"), sorted(PHOTOS))
def test_a_count_of_photos_takes_its_own_gender_and_counter(locale: str, count: int) -> None:
    assert said("search_photos", Grade.EXACT, count, count, locale) == PHOTOS[locale, count]


def test_a_million_in_spanish_falls_back_to_the_general_form() -> None:
    # CLDR gives Spanish a "many" category for a million; the table's "other" serves it.
    assert plural_category(1_000_000, "es") == "many"
    sentence = said("list_annotations", Grade.LOWER_BOUND, 1_000_000, 0, "es")
    assert sentence == "Harbor Tower tiene al menos 1.000.000 hallazgos que coinciden."


@pytest.mark.parametrize(
    ("locale", "count", "category"),
    [
        ("en", 1, "one"),
        ("en", 21, "other"),
        ("de", 1, "one"),
        ("es", 2, "other"),
        ("ko", 1, "other"),
        ("ja", 1, "other"),
    ],
)
def test_the_plural_category_is_cldrs(locale: str, count: int, category: str) -> None:
    assert plural_category(count, locale) == category


# (locale) → the whole answer for an exact 21 with 10 cards.
EXACT_FEWER_CARDS = {
    "en": "Harbor Tower has exactly 21 matching findings. The cards below show 10 of them.",
    "de": "Harbor Tower hat genau 21 passende Befunde. Die Karten unten zeigen 10 davon.",
    "es": "Harbor Tower tiene exactamente 21 hallazgos que coinciden. "
    "Abajo se muestran 10 como tarjetas.",
    "ko": "Harbor Tower에서 일치하는 지적 사항: 정확히 21건. "
    "그중 10건을 아래 카드로 보여 드립니다.",
    "ja": "Harbor Towerで一致する指摘はちょうど21件です。"
    "そのうち10件を下のカードに表示しています。",
}


@pytest.mark.parametrize("locale", sorted(EXACT_FEWER_CARDS))
def test_an_exact_set_larger_than_its_cards_says_how_many_cards_show(locale: str) -> None:
    assert said("list_annotations", Grade.EXACT, 21, 10, locale) == EXACT_FEWER_CARDS[locale]


@pytest.mark.parametrize("locale", ["en", "de", "es", "ko", "ja"])
@pytest.mark.parametrize("count", [1, 5])
def test_an_exact_set_wholly_on_screen_gets_no_shown_set_sentence(locale: str, count: int) -> None:
    assert said("list_annotations", Grade.EXACT, count, count, locale) == FINDINGS[locale, count]


LOWER_BOUND = {
    "en": "Harbor Tower has at least 3,000 matching photos. "
    "The first 10 are shown below as cards; more can be loaded.",
    "de": "Harbor Tower hat mindestens 3.000 passende Fotos. "
    "Die ersten 10 stehen unten als Karten; weitere lassen sich nachladen.",
    "es": "Harbor Tower tiene al menos 3.000 fotos que coinciden. "
    "Abajo aparecen 10 como tarjetas; se pueden cargar más.",
    "ko": "Harbor Tower에서 일치하는 사진: 최소 3,000장. "
    "먼저 10장을 아래 카드로 보여 드리며, 더 불러올 수 있습니다.",
    "ja": "Harbor Towerで一致する写真は少なくとも3,000枚です。"
    "まず10枚を下のカードに表示しています(続きを読み込めます)。",
}


@pytest.mark.parametrize("locale", sorted(LOWER_BOUND))
def test_a_lower_bound_says_its_cards_are_the_first_and_more_exist(locale: str) -> None:
    assert said("search_photos", Grade.LOWER_BOUND, 3000, 10, locale) == LOWER_BOUND[locale]


SHOWN_ONE = {
    "en": "The source returned 1 without counting; it is shown below as a card.",
    "de": "Die Quelle lieferte 1, ohne zu zählen; unten als Karte.",
    "es": "La fuente devolvió 1 sin contar cuántos hay; aparece abajo como tarjeta.",
    "ko": "데이터 소스가 개수를 세지 않고 1장을 보냈고, 아래 카드로 표시합니다.",
    "ja": "データソースが総数を示さずに返した1枚を、下のカードに表示しています。",
}
SHOWN_MANY = {
    "en": "The source returned 5 without counting them; they are shown below as cards.",
    "de": "Die Quelle lieferte 5, ohne sie zu zählen; unten als Karten.",
    "es": "La fuente devolvió 5 sin contar cuántos hay; aparecen abajo como tarjetas.",
    "ko": "데이터 소스가 개수를 세지 않고 5장을 보냈고, 아래 카드로 표시합니다.",
    "ja": "データソースが総数を示さずに返した5枚を、下のカードに表示しています。",
}


@pytest.mark.parametrize("locale", sorted(SHOWN_ONE))
def test_a_subset_without_a_total_says_the_source_did_not_count_it(locale: str) -> None:
    assert said("search_photos", Grade.SHOWN, 1, 1, locale) == SHOWN_ONE[locale]
    assert said("search_photos", Grade.SHOWN, 5, 5, locale) == SHOWN_MANY[locale]


UNKNOWN_WITH_CARDS = {
    "en": "The data source did not say how many results there are, so I give no count. "
    "The cards below show what the source returned.",
    "de": "Die Datenquelle hat die Anzahl nicht genannt, daher nenne ich keine Zahl. "
    "Die Karten unten zeigen, was die Quelle geliefert hat.",
    "es": "La fuente no indicó cuántos resultados hay, así que no puedo dar una cifra. "
    "Las tarjetas de abajo muestran lo que devolvió la fuente.",
    "ko": "데이터 소스가 결과 개수를 알려주지 않아 개수를 말할 수 없습니다. "
    "아래 카드에 데이터 소스가 보낸 내용이 있습니다.",
    "ja": "データソースが件数を示さなかったため、件数は言えません。"
    "下のカードに、データソースが返したものを表示しています。",
}


@pytest.mark.parametrize("locale", sorted(UNKNOWN_WITH_CARDS))
def test_an_uncounted_source_points_at_its_cards_without_a_number(locale: str) -> None:
    assert said("search_photos", Grade.UNKNOWN, None, 4, locale) == UNKNOWN_WITH_CARDS[locale]


def test_an_uncounted_source_with_no_cards_does_not_point_at_any() -> None:
    assert said("search_photos", Grade.UNKNOWN, None, 0, "en") == (
        "The data source did not say how many results there are, so I give no count."
    )


FOREIGN = {
    "en": "Harbor Tower has exactly 1 matching result.",
    "de": "Harbor Tower hat genau 1 passendes Ergebnis.",
    "es": "Harbor Tower tiene exactamente 1 resultado que coincide.",
    "ko": "Harbor Tower에서 일치하는 결과: 정확히 1건.",
    "ja": "Harbor Towerで一致する結果はちょうど1件です。",
}
FOREIGN_MANY = {
    "en": "Harbor Tower has exactly 21 matching results. The cards below show 10 of them.",
    "de": "Harbor Tower hat genau 21 passende Ergebnisse. Die Karten unten zeigen 10 davon.",
    "es": "Harbor Tower tiene exactamente 21 resultados que coinciden. "
    "Abajo se muestran 10 como tarjetas.",
    "ko": "Harbor Tower에서 일치하는 결과: 정확히 21건. 그중 10건을 아래 카드로 보여 드립니다.",
    "ja": "Harbor Towerで一致する結果はちょうど21件です。"
    "そのうち10件を下のカードに表示しています。",
}


@pytest.mark.parametrize("locale", sorted(FOREIGN))
def test_a_tool_without_a_noun_row_is_counted_as_results(locale: str) -> None:
    assert said("acme_inspections", Grade.EXACT, 1, 1, locale) == FOREIGN[locale]
    assert said("acme_inspections", Grade.EXACT, 21, 10, locale) == FOREIGN_MANY[locale]


FAILED_FOREIGN = {
    "en": "The data source failed to answer: its reply was an error.",
    "de": "Die Datenquelle hat nicht richtig geantwortet: Ihre Antwort war ein Fehler.",
    "es": "La fuente de datos no respondió bien: su respuesta fue un error.",
    "ko": "데이터 소스가 제대로 응답하지 못했습니다. 돌아온 것은 오류였습니다.",
    "ja": "データソースは正しく応答できませんでした。返ってきたのはエラーです。",
}


@pytest.mark.parametrize("locale", sorted(FAILED_FOREIGN))
def test_a_failed_tool_without_a_row_is_named_as_a_data_source_not_by_its_name(
    locale: str,
) -> None:
    record = {"kind": "in_band_failure", "slot": "c1", "tool": "acme_inspections"}
    assert narrate([record], locale) == [FAILED_FOREIGN[locale]]


def test_a_failed_photo_search_is_named_by_what_it_holds() -> None:
    record = {"kind": "in_band_failure", "slot": "c1", "tool": "search_photos"}
    assert narrate([record], "de") == [
        "Die Fotoquelle hat nicht richtig geantwortet: Ihre Antwort war ein Fehler."
    ]


GRADED = [
    (Grade.EXACT, 21, 10, False),
    (Grade.LOWER_BOUND, 3000, 10, True),
    (Grade.SHOWN, 5, 5, True),
    (Grade.SHOWN, 1, 1, True),
    (Grade.UNKNOWN, None, 4, True),
]


@pytest.mark.parametrize("locale", ["en", "de", "es", "ko", "ja"])
@pytest.mark.parametrize(("grade", "value", "cards", "has_more"), GRADED)
def test_each_graded_shown_set_sentence_passes_the_narration_guard(
    locale: str, grade: Grade, value: int | None, cards: int, has_more: bool
) -> None:
    slots = {"c1": Counted("c1", grade, value, cards)}
    standing = build_standing(
        [
            Counted(
                "c1",
                grade,
                value,
                cards,
                has_more=has_more,
                emptiness="non_empty",
                may_say_none=False,
            )
        ],
        ["Harbor Tower"],
    )
    built = " ".join(
        narrate(records("search_photos", grade), locale, projects=PROJECTS, slots=slots)
    )
    published = guarded(
        built, slots, standing, locale, records=records("search_photos", grade), projects=PROJECTS
    )
    assert published.drops == () and not published.fallback, published.drops
