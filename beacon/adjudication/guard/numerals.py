"""Numbers in running prose, in five locales: where they are, never what they count.

The narration guard needs every spot where a sentence utters a number, in
whatever dress a model puts it: digits with any grouping (``3,000``,
``3.000``, ``3 000``), full-width digits, number words (``ten``, ``zehn``,
``diez``), counter forms (``10장``, ``총 10건``, ``10枚``, ``十枚``,
``열두 장``, ``ふたつ``). Spelled-out words in en/de/es are read by
``text2num``; Japanese kanji numerals by ``suji``; the words those leave alone
(Korean counting words, kana, small count words) are ``beacon.lexicon.numerals``'s
tables, from which the patterns here are built.

A token glued to letters on its left (``ph-0042``, ``L3``, ``IMG_2041``) is an
identifier, not a count — the caller decides whether identifiers may stay.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import suji
from text_to_num import alpha2digit

from beacon.adjudication.guard.folding import folded
from beacon.lexicon import numerals as lex


@dataclass(frozen=True, slots=True)
class Numeral:
    text: str
    start: int
    end: int
    identifier: bool = False  # digits glued to a name (ph-0042, L3): not a quantity


def normalize(text: str) -> str:
    """NFKC, so full-width and circled digits read as digits (１０ → 10, ① → 1).

    Only the width-folding compatibility forms are applied character by
    character: the positions of the result line up with the input.
    """
    return text if text.isascii() else "".join(_fold(ch) for ch in text)


def _fold(ch: str) -> str:
    folded = unicodedata.normalize("NFKC", ch)
    return folded if len(folded) == 1 else ch


# Digits with optional grouping (comma, dot, space, thin/no-break space) and a decimal part.
_DIGITS = re.compile(r"\d+(?:[,.\u00a0\u202f ]\d{3}(?!\d))*(?:[.,]\d+)?")
# Letters (or a name joined by - or _) directly before the digits: an identifier.
_ID_BEFORE = re.compile(r"[A-Za-z][A-Za-z_-]*[-_]?$")
_ORDINAL_AFTER = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)


def _alternation(words: Iterable[str]) -> str:
    return "|".join(words)


def _small_words(lang: str) -> re.Pattern[str]:
    """The small count words of a language; English "one" only where it counts."""
    words = _alternation(lex.SMALL_WORDS[lang])
    if lang == "en":
        not_after = "".join(rf"(?<!\b{word})" for word in lex.ONE_NOT_AFTER)
        not_before = _alternation(lex.ONE_NOT_BEFORE)
        words += rf"|{not_after}{lex.ONE}(?! (?:{not_before})\b)(?=\s+\w)"
    return re.compile(rf"\b(?:{words})\b", re.IGNORECASE)


_SMALL_WORDS: dict[str, re.Pattern[str]] = {lang: _small_words(lang) for lang in lex.SMALL_WORDS}
_WORD_LANGS = set(lex.STEMS)
# Matched on the folded text, case-sensitively: a test for "may hold a number word",
# which IGNORECASE made scan every position against every stem (~55 µs a sentence
# for the three languages; a few µs this way). Folding may only add matches ("ss"
# for "ß"), and a match only lets text2num read the sentence.
_STEMS: dict[str, re.Pattern[str]] = {
    lang: re.compile(_alternation(folded(s) for s in stems)) for lang, stems in lex.STEMS.items()
}

# Korean: Sino-Korean numerals glued to a counter, and native counting words
# (하나, 열두, 스무 …), which are counts only beside a counter or standing alone.
_KO_COUNTER = rf"(?:{_alternation(lex.KO_COUNTERS)})"
_KO_TENS = rf"(?:{_alternation(lex.KO_TENS)})"
_KO_UNITS = rf"(?:{_alternation(lex.KO_UNITS)})"
_KO_ATTRIBUTIVE = rf"(?:{_alternation(lex.KO_ATTRIBUTIVE)})"
_KO_NATIVE = (
    rf"{_KO_TENS}?{_KO_UNITS}|{_KO_TENS}{_KO_ATTRIBUTIVE}?|{_alternation(lex.KO_ATTRIBUTIVE_TENS)}"
    rf"|(?<![가-힣]){_KO_ATTRIBUTIVE}"
)
_KO_DIGIT = f"[{''.join(lex.KO_SINO_DIGITS)}]"
_KO_SINO = (
    rf"(?:{_KO_DIGIT}?[{''.join(lex.KO_SINO_UNITS)}])+{_KO_DIGIT}?|{_alternation(lex.KO_ZERO)}"
)
_KO_ALONE = _alternation((*lex.KO_UNITS, *lex.KO_ALONE_TENS))
_KOREAN = re.compile(
    rf"(?:{_KO_NATIVE}|{_KO_SINO})\s?{_KO_COUNTER}"
    rf"|(?<![가-힣])(?:{_KO_ALONE})(?:{_alternation(lex.KO_PARTICLES)})?(?![가-힣])"
    rf"|{_alternation(lex.KO_VAGUE)}"
)
# Japanese: ``suji`` finds kanji numerals; one kanji alone needs a counter after it;
# kana counting words are a table.
_JA_COUNTER = lex.JA_COUNTERS
_JA_KANA = re.compile(_alternation((*lex.JA_KANA, *lex.JA_VAGUE)))
_KANJI_NUMERAL = re.compile(f"[{lex.JA_KANJI_NUMERALS}]")
_JA_IDIOMS = lex.JA_IDIOMS


def _digits(text: str) -> list[Numeral]:
    found = []
    for match in _DIGITS.finditer(text):
        (start, end), token = match.span(), match.group()
        identifier = bool(_ID_BEFORE.search(text[:start])) or bool(_ORDINAL_AFTER.match(text, end))
        found.append(Numeral(token, start, end, identifier))
    return found


def _word_numerals(text: str, lang: str, folded_text: str) -> list[Numeral]:
    """Spans of spelled-out numbers, located by what ``text2num`` turned into digits."""
    found = [Numeral(m.group(), m.start(), m.end()) for m in _SMALL_WORDS[lang].finditer(text)]
    if not _STEMS[lang].search(folded_text):
        return found  # no number word can be in it: spare text2num the parse
    converted = alpha2digit(text, lang)
    if converted == text:
        return found
    # Walk both strings: a stretch that became digits in the converted text is a word numeral.
    for word in _changed_spans(text, converted):
        found.append(word)
    return found


_WORD_HEAD = re.compile(r"[^\W\d_]*")  # always matches (maybe empty)


def _changed_spans(original: str, converted: str) -> list[Numeral]:
    """Spans of ``original`` that text2num rewrote (it only rewrites number words)."""
    spans = []
    matcher = difflib.SequenceMatcher(None, original, converted, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or not any(ch.isdigit() for ch in converted[j1:j2]):
            continue
        # Widen to the whole word: an ordinal's suffix ("twenty-first" → "21st") stays
        # equal in both texts, so the rewritten stretch stops inside the word.
        i2 += len(_WORD_HEAD.match(original[i2:]).group())  # type: ignore[union-attr]
        spans.append(Numeral(original[i1:i2].strip(), i1, i2))
    return spans


# Each Korean reading needs a word of these tables (a counter, a counting word, a vague
# one): a text holding none of their characters holds no Korean numeral, and a Latin
# sentence is spared the scan (~12 µs; its lookbehinds defeat re's prefix search).
_KO_CHARS = frozenset(
    "".join(
        (
            *lex.KO_COUNTERS, *lex.KO_TENS, *lex.KO_UNITS, *lex.KO_ATTRIBUTIVE,
            *lex.KO_ATTRIBUTIVE_TENS, *lex.KO_SINO_DIGITS, *lex.KO_SINO_UNITS, *lex.KO_ZERO,
            *lex.KO_ALONE_TENS, *lex.KO_VAGUE,
        )
    )
)  # fmt: skip


def _korean(text: str) -> list[Numeral]:
    if _KO_CHARS.isdisjoint(text):
        return []
    return [Numeral(m.group(), m.start(), m.end()) for m in _KOREAN.finditer(text)]


def _japanese(text: str) -> list[Numeral]:
    found = [Numeral(m.group(), m.start(), m.end()) for m in _JA_KANA.finditer(text)]
    # suji walks the text character by character: only text with a kanji numeral needs it.
    for value in suji.values(text) if _KANJI_NUMERAL.search(text) else []:
        start, end = int(value["beg"]), int(value["end"])
        span = text[start:end]
        if span.isascii() or span in _JA_IDIOMS:
            continue  # digits are read by _digits; an idiom is a word
        if len(span) == 1 and not text.startswith(_JA_COUNTER, end):
            continue
        found.append(Numeral(span, start, end))
    return found


_FALSE_FRIENDS = lex.FALSE_FRIENDS


def find_numerals(text: str, locale: str) -> list[Numeral]:
    """Every number uttered in ``text`` (already ``normalize``d), in reading order.

    Word numerals are read in all three Latin-script locales (a model does not
    always answer in the locale it was asked in), a false friend only in its
    own; Korean and Japanese forms are found in any locale, their scripts
    cannot be mistaken for another's.
    """
    found = _digits(text)
    folded_text = folded(text)
    for lang in sorted(_WORD_LANGS):
        words = _word_numerals(text, lang, folded_text)
        if lang != locale:
            words = [w for w in words if w.text.lower() not in _FALSE_FRIENDS]
        found += words
    found += _korean(text)
    found += _japanese(text)
    found.sort(key=lambda n: (n.start, -n.end))
    merged: list[Numeral] = []
    for numeral in found:
        if merged and numeral.start < merged[-1].end:
            continue  # the same number seen by two readers
        merged.append(numeral)
    return merged


_SMALL_VALUES = {
    lex.ONE: 1,
    **{
        word.lower(): value
        for words in lex.SMALL_WORDS.values()
        for word, value in words.items()
        if value is not None
    },
}
# Korean counting words by value: native (하나, 열두, 스무 …) and Sino-Korean digits.
_KO_NATIVE_VALUES = {
    **lex.KO_UNITS,
    **lex.KO_ATTRIBUTIVE,
    **lex.KO_TENS,
    **lex.KO_ATTRIBUTIVE_TENS,
}
_KO_NATIVE_ORDER = sorted(_KO_NATIVE_VALUES, key=len, reverse=True)
_KO_LAST = frozenset(lex.KO_ATTRIBUTIVE)
_KO_SINO_DIGITS = lex.KO_SINO_DIGITS
_KO_SINO_UNITS = lex.KO_SINO_UNITS
_KO_WORD = re.compile(r"[가-힣]+")


def _korean_value(word: str) -> int | None:
    """열두 → 12, 스무 → 20, 삼십 → 30; None for what is no single number (수십)."""
    total, rest = 0, word
    # Tens first, then units (열 + 두): the attributive 한/두/세/네 only as the last part.
    while (
        name := next(
            (
                n
                for n in _KO_NATIVE_ORDER
                if rest.startswith(n) and (n not in _KO_LAST or rest == n)
            ),
            None,
        )
    ) is not None:
        total, rest = total + _KO_NATIVE_VALUES[name], rest[len(name) :]
    if not rest:
        return total or None
    if total:
        return None
    digit = 0
    for ch in rest:
        if ch in _KO_SINO_DIGITS:
            digit = _KO_SINO_DIGITS[ch]
        elif ch in _KO_SINO_UNITS:
            total, digit = total + (digit or 1) * _KO_SINO_UNITS[ch], 0
        else:
            return None
    return total + digit or None


def word_value(token: str, locale: str) -> int | None:
    """The value of a spelled-out number, when it has one exact value."""
    lowered = token.lower()
    if lowered in _SMALL_VALUES:
        return _SMALL_VALUES[lowered]
    hangul = _KO_WORD.match(token)
    if hangul is not None:
        return _korean_value(hangul.group())
    if _KANJI_NUMERAL.search(token):
        values = suji.values(token)
        return int(values[0]["val"]) if len(values) == 1 else None
    for lang in [locale, *sorted(_WORD_LANGS - {locale})]:
        if lang not in _WORD_LANGS:
            continue
        digits = alpha2digit(lowered, lang).replace(" ", "")
        if digits.isdigit():
            return int(digits)
    return None
