"""Numbers in running prose, in five locales: where they are, never what they count.

The narration guard needs every spot where a sentence utters a number, in
whatever dress a model puts it: digits with any grouping (``3,000``,
``3.000``, ``3 000``), full-width digits, number words (``ten``, ``zehn``,
``diez``), counter forms (``10장``, ``총 10건``, ``10枚``, ``十枚``,
``열두 장``, ``ふたつ``). Spelled-out words in en/de/es are read by
``text2num``; Japanese kanji numerals by ``suji``; Korean counting words have
no library, so they are a table here.

A token glued to letters on its left (``ph-0042``, ``L3``, ``IMG_2041``) is an
identifier, not a count — the caller decides whether identifiers may stay.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

import suji
from text_to_num import alpha2digit


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

# Small numbers text2num leaves alone (its threshold keeps "one" and "two" as words,
# since "one" is so often a pronoun); the count-bearing ones are listed here.
_SMALL_WORDS: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"\b(?:two|both|a couple of|a dozen|dozens|hundreds|thousands|a few dozen|"
        r"(?<!\bno )(?<!\bany)(?<!\bthe )(?<!\bthis )(?<!\bthat )(?<!\bwhich )(?<!\beach )"
        r"one(?! (?:of|another|more time)\b)(?=\s+\w))\b",
        re.IGNORECASE,
    ),
    "de": re.compile(r"\b(?:zwei|beide|ein Dutzend|Dutzende|Hunderte|Tausende)\b", re.IGNORECASE),
    "es": re.compile(
        r"\b(?:dos|ambos|ambas|una docena|docenas|cientos|miles|centenares)\b", re.IGNORECASE
    ),
}
_WORD_LANGS = {"en", "de", "es"}
# Every number word text2num reads holds one of these (a cheap test before its parse).
_STEMS: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twel|teen|twent|thirt"
        r"|fort|fift|hundred|thousand|illion|first|second|third|ninth",
        re.IGNORECASE,
    ),
    "de": re.compile(
        r"null|ein|zwei|zwan|drei|vier|fünf|sech|sieb|acht|neun|zehn|elf|zwölf|zig|ßig"
        r"|hundert|tausend|illion|erste|dritte",
        re.IGNORECASE,
    ),
    "es": re.compile(
        r"cero|un|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce"
        r"|quince|dieci|veint|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa"
        r"|cien|mil|illón|illones|primer|segund|tercer|cuart|quint|sext|s[eé]ptim|octav|noven"
        r"|d[eé]cim",
        re.IGNORECASE,
    ),
}

# Korean: Sino-Korean numerals glued to a counter, and native counting words
# (하나, 열두, 스무 …), which are counts only beside a counter or standing alone.
_KO_COUNTER = r"(?:장|개|건|명|곳|가지|번|층|회|대|점|枚)"
_KO_NATIVE = (
    r"(?:열|스물|서른|마흔|쉰)?(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉)"
    r"|(?:열|스물|서른|마흔|쉰)(?:한|두|세|네)?|스무|(?<![가-힣])(?:한|두|세|네)"
)
_KO_SINO = r"(?:[일이삼사오육칠팔구]?[십백천만])+[일이삼사오육칠팔구]?|영|공"
_KOREAN = re.compile(
    rf"(?:{_KO_NATIVE}|{_KO_SINO})\s?{_KO_COUNTER}"
    r"|(?<![가-힣])(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉|열|스물)(?:도|만|이|은|는|를|가|뿐)?(?![가-힣])"
    r"|수십|수백|수천|십여|백여|천여"
)
# Japanese: ``suji`` finds kanji numerals; one kanji alone needs a counter after it
# (一覧 "list", 一致 "match" are words, 一枚 is a count); kana counting words are a table.
_JA_COUNTER = (
    "枚",
    "件",
    "個",
    "名",
    "人",
    "本",
    "つ",
    "台",
    "棟",
    "箇所",
    "ヶ所",
    "か所",
    "点",
    "回",
    "階",
)
_JA_KANA = re.compile(
    r"ひとつ|ふたつ|みっつ|よっつ|いつつ|むっつ|ななつ|やっつ|ここのつ"
    r"|数十|数百|数千|何十|何百|何千"
)
_KANJI_NUMERAL = re.compile(r"[〇一二三四五六七八九十百千万億兆]")
_JA_IDIOMS = ("万一", "一一", "十分")


def _digits(text: str) -> list[Numeral]:
    found = []
    for match in _DIGITS.finditer(text):
        (start, end), token = match.span(), match.group()
        identifier = bool(_ID_BEFORE.search(text[:start])) or bool(_ORDINAL_AFTER.match(text, end))
        found.append(Numeral(token, start, end, identifier))
    return found


def _word_numerals(text: str, lang: str) -> list[Numeral]:
    """Spans of spelled-out numbers, located by what ``text2num`` turned into digits."""
    found = [Numeral(m.group(), m.start(), m.end()) for m in _SMALL_WORDS[lang].finditer(text)]
    if not _STEMS[lang].search(text):
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


def _korean(text: str) -> list[Numeral]:
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


# Number words of one language that are everyday words of another ("once" is
# eleven in Spanish, "elf" eleven in German): read as numbers in their own locale only.
_FALSE_FRIENDS = frozenset({"once", "elf", "null", "mil", "sin"})


def find_numerals(text: str, locale: str) -> list[Numeral]:
    """Every number uttered in ``text`` (already ``normalize``d), in reading order.

    Word numerals are read in all three Latin-script locales (a model does not
    always answer in the locale it was asked in), a false friend only in its
    own; Korean and Japanese forms are found in any locale, their scripts
    cannot be mistaken for another's.
    """
    found = _digits(text)
    for lang in sorted(_WORD_LANGS):
        words = _word_numerals(text, lang)
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


_SMALL_VALUES = {"one": 1, "two": 2, "both": 2, "zwei": 2, "beide": 2, "dos": 2, "ambos": 2}
# Korean counting words by value: native (하나, 열두, 스무 …) and Sino-Korean digits.
_KO_NATIVE_VALUES = {
    "하나": 1, "한": 1, "둘": 2, "두": 2, "셋": 3, "세": 3, "넷": 4, "네": 4, "다섯": 5,
    "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "스물": 20, "스무": 20, "서른": 30,
    "마흔": 40, "쉰": 50,
}  # fmt: skip
_KO_NATIVE_ORDER = sorted(_KO_NATIVE_VALUES, key=len, reverse=True)
_KO_LAST = frozenset({"한", "두", "세", "네"})
_KO_SINO_DIGITS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_KO_SINO_UNITS = {"십": 10, "백": 100, "천": 1000, "만": 10000}
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
