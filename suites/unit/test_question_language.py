"""A turn that names no locale is answered in the question's own language; a turn
that names one is answered in it, whatever the question's language."""

from __future__ import annotations

import pytest

from beacon.loop.language import answer_locale, question_locale
from beacon.wire.turns import TurnRequest


@pytest.mark.parametrize(
    ("question", "locale"),
    [
        ("How many open safety findings are on level 3 of Harbor Tower?", "en"),
        ("Who created the findings on level 2 of Harbor Tower?", "en"),
        ("Harbor Tower asdf", "en"),  # no signal: the default
        ("Wie viele offene Sicherheitsmängel gibt es in Harbor Tower?", "de"),
        ("Zeige alle Fotos von Ebene 2", "de"),
        ("Welche Firmen haben offene Befunde?", "de"),
        ("¿Cuántos hallazgos abiertos hay en Harbor Tower?", "es"),
        ("Muestra las fotos del nivel 2", "es"),
        ("Qué empresas tienen hallazgos?", "es"),
        ("Harbor Tower 3층에 열린 안전 지적이 몇 개인가요?", "ko"),
        ("Harbor Tower 파노라마", "ko"),
        ("Harbor Towerのパノラマは何枚ありますか？", "ja"),
        ("港湾タワー", "ja"),
        ("未解決の指摘", "ja"),  # ideographs and kana without Hangul
    ],
)
def test_a_question_is_read_as_the_language_it_is_written_in(question: str, locale: str) -> None:
    assert question_locale(question) == locale


def test_a_tie_between_languages_stays_with_the_default() -> None:
    assert question_locale("Harbor Tower in") == "en"  # "in" is German and English alike
    assert question_locale("fotos") == "en"  # German and Spanish alike


def test_an_explicit_locale_wins_over_the_question_language() -> None:
    named = TurnRequest.model_validate({"message": "Wie viele Befunde gibt es?", "locale": "en"})
    unnamed = TurnRequest.model_validate({"message": "Wie viele Befunde gibt es?"})
    assert answer_locale(named) == "en"
    assert answer_locale(unnamed) == "de"
