"""The language of a question, for a turn that named no ``locale``.

A request's ``locale`` decides the answer's language when it is given (the
panel always gives one). Without it, a question asked in German is answered in
German: the script decides Korean (Hangul) and Japanese (kana, or CJK
ideographs without Hangul); between the Latin-script locales, the question's
own words do — a few function words and letters each language has and the
others lack. Anything undecided is English, the default locale.
"""

from __future__ import annotations

import re
import unicodedata

from beacon.lexicon.detection import LETTERS as _LETTERS
from beacon.lexicon.detection import WORDS as _WORDS
from beacon.wire.turns import DEFAULT_LOCALE, TurnRequest

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def _script_locale(text: str) -> str | None:
    hangul = kana = han = False
    for char in text:
        name = unicodedata.name(char, "")
        hangul = hangul or name.startswith("HANGUL")
        kana = kana or name.startswith(("HIRAGANA", "KATAKANA"))
        han = han or name.startswith("CJK UNIFIED IDEOGRAPH")
    if hangul:
        return "ko"
    if kana or han:
        return "ja"
    return None


def question_locale(question: str) -> str:
    """The locale a question is written in (one of the five), English when unsure."""
    by_script = _script_locale(question)
    if by_script is not None:
        return by_script
    words = [w.casefold() for w in _WORD.findall(question)]
    scores = {locale: sum(w in vocab for w in words) for locale, vocab in _WORDS.items()}
    for locale, letters in _LETTERS.items():
        scores[locale] += sum(ch in letters for ch in question.casefold())
    best = max(scores.values())
    leaders = [locale for locale, score in scores.items() if score == best]
    # A tie (or no signal at all) stays with the default.
    return leaders[0] if best > 0 and len(leaders) == 1 else DEFAULT_LOCALE


def answer_locale(request: TurnRequest) -> str:
    """The request's locale when it names one; else the question's own language."""
    if "locale" in request.model_fields_set:
        return request.locale
    return question_locale(request.message)
