"""The guard's numerals in five locales: digits, words, identifiers, groupings, and
the claim words it names.
"""

from __future__ import annotations

import pytest
from guard_standings import (
    COMPLETE,
    SEARCH,
    SLOTS,
    rule,
    token,
)

from beacon.adjudication.guard import numerals
from beacon.adjudication.guard.claims import absence_claim, completeness_claim
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.judge import GuardedStream
from beacon.adjudication.guard.numerals import find_numerals, normalize, word_value
from beacon.adjudication.guard.standing import build_standing
from beacon.lexicon import numerals as lex
from beacon.wire.frames import Grade

# --- numerals ---------------------------------------------------------------------


def test_identifiers_are_found_but_marked() -> None:
    found = find_numerals("See ph-0042, L3 and the 2nd card; 7 photos.", "en")
    assert [(n.text, n.identifier) for n in found] == [
        ("0042", True),
        ("3", True),
        ("2", True),
        ("7", False),
    ]


def test_a_spelled_number_is_found_as_whole_words() -> None:
    assert [n.text for n in find_numerals("the twenty-first photo", "en")] == ["twenty-first"]
    assert [n.text for n in find_numerals("dreiundzwanzig Fotos", "de")] == ["dreiundzwanzig"]


@pytest.mark.parametrize(
    ("text", "locale", "word"),
    [
        ("THIRTY-TWO photos", "en", "THIRTY-TWO"),
        ("Forty photos", "en", "Forty"),
        ("ZWEIHUNDERT Fotos", "de", "ZWEIHUNDERT"),
        ("DREISSIG Fotos", "de", "DREISSIG"),
        ("FÜNFZEHN Fotos", "de", "FÜNFZEHN"),
        ("VEINTIDÓS fotos", "es", "VEINTIDÓS"),
        ("Cuarenta fotos", "es", "Cuarenta"),
    ],
)
def test_a_spelled_number_is_found_in_any_case(text: str, locale: str, word: str) -> None:
    # The test for "may hold a number word" runs on folded text: capitals pass it too.
    assert [n.text for n in find_numerals(text, locale)] == [word]


@pytest.mark.parametrize("count", ["열두 장", "하나", "삼십 장", "스무 장", "영 장", "수십"])
def test_korean_counts_are_found_beside_latin_text(count: str) -> None:
    found = find_numerals(f"Harbor Tower: 사진 {count}, then 3 more", "en")
    assert [n.text for n in found] == [count, "3"]


def test_a_number_word_in_curly_quotes_is_found() -> None:
    assert find_numerals("Harbor Tower — “three” photos", "en")[0].text == "three"


def test_every_reader_keeps_its_place_in_reading_order() -> None:
    assert [n.text for n in find_numerals("I found 10 photos and ten more", "en")] == ["10", "ten"]
    assert [n.text for n in find_numerals("one hundred photos and 5 more", "en")] == [
        "one hundred",
        "5",
    ]
    assert [n.text for n in find_numerals("열 장과 10장", "ko")] == ["열 장", "10"]
    assert [n.text for n in find_numerals("열 장10", "ko")] == ["열 장", "10"]
    assert [n.text for n in find_numerals("ふたつと3枚", "ja")] == ["ふたつ", "3"]
    assert [n.text for n in find_numerals("一致する写真が十枚", "ja")] == ["十"]


def test_a_false_friend_is_a_number_only_in_its_own_locale() -> None:
    assert token("Encontré once fotos.", SEARCH, "es") == "once"
    assert rule("Once the search ran, the cards came back.", SEARCH, "en") is None
    stream = GuardedStream(SLOTS, SEARCH, "es")
    assert stream.feed("Encontré once fotos. Hay {{count:c2}}. Y") == "Hay al menos 173. "
    assert [d.token for d in stream.drops] == ["once"]


def test_every_number_of_a_sentence_is_read_past_an_identifier_or_an_exact_count() -> None:
    assert token("See IMG_2041 and 10 photos.") == "10"
    assert token("There are 14 findings and 15 photos.", COMPLETE) == "15"


@pytest.mark.parametrize("written", ["3,000", "3.000", "3 000", "3\u00a0000", "3\u202f000"])
def test_an_exact_count_may_be_written_with_any_grouping(written: str) -> None:
    complete = build_standing(
        [
            Counted(
                "c1",
                Grade.EXACT,
                3000,
                0,
                has_more=False,
                emptiness="non_empty",
                may_say_none=False,
            )
        ]
    )
    assert rule(f"There are {written} panoramas.", complete) is None


def test_japanese_digits_are_read_once_and_idioms_are_words() -> None:
    assert [n.text for n in find_numerals("3階に十枚", "ja")] == ["3", "十"]
    assert find_numerals("万一に備えて十分です", "ja") == []


def test_normalize_folds_width_but_keeps_positions() -> None:
    assert normalize("１０枚") == "10枚"
    assert len(normalize("①ﾃｽﾄ")) == len("①ﾃｽﾄ")
    assert normalize("㌔１") == "㌔1"  # a fold into two characters would shift every position


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("여섯 건", 6),
        ("열두 장", 12),
        ("스무 개", 20),
        ("스물두 개", 22),
        ("한 장", 1),
        ("하나", 1),
        ("삼십 장", 30),
        ("십이", 12),
        ("백오십", 150),
        ("수십", None),
        ("열삼", None),
        ("열여섯", 16),
        ("六", 6),
        ("三千", 3000),
        ("二十三", 23),
    ],
)
def test_korean_and_japanese_number_words_have_their_values(word: str, value: int | None) -> None:
    assert word_value(word, "ko") == value


def test_a_korean_or_japanese_count_equal_to_a_complete_exact_count_stays() -> None:
    six = build_standing(
        [
            Counted(
                "c1", Grade.EXACT, 6, 6, has_more=False, emptiness="non_empty", may_say_none=False
            )
        ]
    )
    assert rule("미해결 지적 사항은 모두 여섯 건입니다.", six, "ko") is None
    assert rule("未解決の指摘は全部で六件です。", six, "ja") is None
    assert rule("미해결 지적 사항은 모두 일곱 건입니다.", six, "ko") == "free_count"
    # Counted but not on screen (a count-only call): "the findings are …" is said of
    # records nobody has seen.
    unseen = build_standing(
        [
            Counted(
                "c1", Grade.EXACT, 6, 0, has_more=False, emptiness="non_empty", may_say_none=False
            )
        ]
    )
    assert rule("미해결 지적 사항은 서쪽 구역에 있습니다.", unseen, "ko") == "population_claim"
    assert rule("未解決の指摘は西棟にあります。", unseen, "ja") == "population_claim"
    # …but their exact, complete count is the one thing code knows of them whole.
    assert rule("미해결 지적 사항은 모두 여섯 건입니다.", unseen, "ko") is None
    assert rule("未解決の指摘はちょうど6件です。", unseen, "ja") is None


def test_word_values_are_read_in_the_locale_then_the_others() -> None:
    assert word_value("twenty-three", "en") == 23
    assert word_value("zehn", "en") == 10
    assert word_value("both", "de") == 2
    assert word_value("diez", "es") == 10
    assert word_value("zehn", "ko") == 10
    assert word_value("a few", "ko") is None


def test_claims_name_the_words_that_claim() -> None:
    assert completeness_claim("Those are exactly right") == "exactly"
    assert absence_claim("There were none") == "none"
    assert completeness_claim("plain words") is None and absence_claim("plain words") is None


def test_the_korean_reader_skips_only_text_its_pattern_cannot_match() -> None:
    # Text made of single words of each Korean table, alone or beside Latin words: the
    # reader's shortcut (no character of any table) must never hide what the pattern finds.
    tables = (
        lex.KO_COUNTERS, lex.KO_TENS, lex.KO_UNITS, lex.KO_ATTRIBUTIVE, lex.KO_ATTRIBUTIVE_TENS,
        lex.KO_SINO_DIGITS, lex.KO_SINO_UNITS, lex.KO_ZERO, lex.KO_ALONE_TENS, lex.KO_VAGUE,
        lex.KO_PARTICLES,
    )  # fmt: skip
    words = [str(w) for table in tables for w in table]
    texts = [f"{pre}{w}{post}" for w in words for pre in ("", "photos ") for post in ("", " 장")]
    texts += [f"{a} {b}" for a in words for b in words]
    found = 0
    for text in texts:
        expected = [m.span() for m in numerals._KOREAN.finditer(text)]
        assert [(n.start, n.end) for n in numerals._korean(text)] == expected, text
        found += bool(expected)
    assert found > 1000
