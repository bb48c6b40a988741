"""Where published prose utters a number, and which number it is, in five locales.

Written for ``beacon verify`` apart from the chat server's guard, so that a
reading the guard gets wrong shows up as a disagreement instead of being
graded by itself. Digits in any grouping (``3,000``, ``3.000``, ``3 000``) and
full width (``１０``); spelled-out numbers in en/de/es, read by ``text2num``
one word run at a time; Korean counting words from a table of our own (no
library reads them); Japanese kanji numerals by ``suji`` and kana counting
words from a table.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

import suji
from text_to_num import text2num

LATIN_LOCALES = ("en", "de", "es")


@dataclass(frozen=True, slots=True)
class Numeral:
    text: str
    start: int
    end: int
    value: int | None  # None: no one exact value ("hundreds", "수십", "1.5")
    identifier: bool = False  # digits glued to a name (ph-0042, L3) or an ordinal (3rd)


def fold(text: str) -> str:
    """Width-fold character by character (``１０`` → ``10``), so spans line up with the input."""
    out = []
    for ch in text:
        folded = unicodedata.normalize("NFKC", ch)
        out.append(folded if len(folded) == 1 else ch)
    return "".join(out)


# --- digits ----------------------------------------------------------------------------------

_DIGITS = re.compile(r"\d+(?:[,.\u00a0\u202f ]\d{3}(?!\d))*(?:[.,]\d+)?")
_NAME_BEFORE = re.compile(r"[A-Za-z][A-Za-z_-]*$")
_ORDINAL_SUFFIX = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)


def _digit_value(token: str) -> int | None:
    groups = re.split(r"[,.\u00a0\u202f ]", token)
    if len(groups) > 1 and all(len(g) == 3 for g in groups[1:]):
        return int("".join(groups))  # grouping marks, whichever the locale uses
    return int(token) if token.isdigit() else None  # a decimal is no count of things


def _digit_numerals(text: str) -> list[Numeral]:
    found = []
    for m in _DIGITS.finditer(text):
        glued = bool(_NAME_BEFORE.search(text[: m.start()]))
        ordinal = bool(_ORDINAL_SUFFIX.match(text, m.end()))
        found.append(
            Numeral(m.group(), m.start(), m.end(), _digit_value(m.group()), glued or ordinal)
        )
    return found


# --- en / de / es words ----------------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_LONGEST_RUN = 5  # "three hundred and twenty-one" is the longest a count gets in prose
# Articles text2num reads as 1, and zeros (an absence word, judged as a claim, not a count).
_NOT_COUNTS = frozenset({"a", "an", "ein", "eins", "un", "una", "uno", "zero", "null", "cero"})
# Number words that are everyday words of another language: a number in their own only.
_OWN_LOCALE_ONLY = {"once": "es", "elf": "de", "mil": "es", "miles": "es"}
# Numbers text2num does not read as such: vague quantities and "both" (a count of two).
_VAGUE: dict[str, int | None] = {
    "both": 2, "a couple of": 2, "a dozen": 12, "dozens": None, "hundreds": None,
    "thousands": None, "beide": 2, "beiden": 2, "ein dutzend": 12, "dutzende": None,
    "hunderte": None, "tausende": None, "ambos": 2, "ambas": 2, "una docena": 12,
    "docenas": None, "cientos": None, "centenares": None, "miles": None,
}  # fmt: skip
_VAGUE_RE = re.compile(
    "|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in sorted(_VAGUE, key=len, reverse=True)),
    re.IGNORECASE,
)
# English "one" is as often a pronoun ("the one on Level 3", "one of them") as a count.
_ONE_PRONOUN_BEFORE = re.compile(
    r"(?:\b(?:the|this|that|which|each|every|any|no|some|another|only|last|first)\s+)$", re.I
)
_ONE_PRONOUN_AFTER = re.compile(r"\s+(?:of|another|more|by|who|that|which)\b|\s*$|\s*[^\w\s]", re.I)


def _word_value(phrase: str, lang: str) -> int | None:
    try:
        value = text2num(phrase.lower(), lang)
    except (ValueError, IndexError, KeyError):
        return None
    return value if isinstance(value, int) else None


def _word_numerals(text: str, locale: str) -> list[Numeral]:
    found = []
    for m in _VAGUE_RE.finditer(text):
        word = m.group().lower()
        if _OWN_LOCALE_ONLY.get(word, locale) == locale:
            found.append(Numeral(m.group(), m.start(), m.end(), _VAGUE[word]))
    words = list(_WORD.finditer(text))
    langs = [locale, *(lang for lang in LATIN_LOCALES if lang != locale)]
    i = 0
    while i < len(words):
        hit = None
        for n in range(min(_LONGEST_RUN, len(words) - i), 0, -1):
            run = words[i : i + n]
            if any(text[a.end() : b.start()].strip() for a, b in itertools.pairwise(run)):
                continue  # a run of number words is only whitespace apart
            phrase = text[run[0].start() : run[-1].end()]
            if phrase.lower() in _NOT_COUNTS:
                continue
            own = _OWN_LOCALE_ONLY.get(phrase.lower())
            for lang in langs if own is None else ([own] if own == locale else []):
                value = _word_value(phrase, lang)
                if value is not None:
                    hit = (run, value)
                    break
            if hit:
                break
        if hit is None:
            i += 1
            continue
        run, value = hit
        start, end = run[0].start(), run[-1].end()
        word = text[start:end]
        if word.lower() == "one" and (
            _ONE_PRONOUN_BEFORE.search(text[:start]) or _ONE_PRONOUN_AFTER.match(text, end)
        ):
            i += len(run)
            continue
        found.append(Numeral(word, start, end, value))
        i += len(run)
    return found


# --- Korean ----------------------------------------------------------------------------------

_KO_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50}
_KO_UNITS = {
    "하나": 1, "둘": 2, "셋": 3, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9,
}  # fmt: skip
_KO_ATTRIBUTIVE = {"한": 1, "두": 2, "세": 3, "네": 4}  # before a counter only
_KO_SINO_DIGIT = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_KO_SINO_UNIT = {"십": 10, "백": 100, "천": 1000, "만": 10000}
_KO_COUNTERS = "장|개|건|명|곳|가지|번|회|대|점|채|층"
_KO_VAGUE = re.compile(r"수십|수백|수천|십여|백여|천여|몇십|몇백")
_alt = "|".join
_KO_NATIVE = re.compile(
    rf"(?<![가-힣])(?P<word>(?:{_alt(_KO_TENS)})?(?:{_alt(_KO_UNITS)}|{_alt(_KO_ATTRIBUTIVE)})?)"
    rf"(?P<after>\s?(?:{_KO_COUNTERS})|(?:도|만|이|은|는|을|를|가|뿐|의)?(?![가-힣]))"
)
_KO_SINO = re.compile(
    rf"(?<![가-힣])(?P<word>(?:[{''.join(_KO_SINO_DIGIT)}]?[{''.join(_KO_SINO_UNIT)}])+"
    rf"[{''.join(_KO_SINO_DIGIT)}]?)\s?(?:{_KO_COUNTERS})"
)
# "하나도", "한 장도": not even one — an absence word, judged as a claim.
_KO_NOT_EVEN = re.compile(rf"\s?(?:{_KO_COUNTERS})?도")


def _ko_native_value(word: str, counted: bool) -> int | None:
    total, rest = 0, word
    for tens, value in _KO_TENS.items():
        if rest.startswith(tens):
            total, rest = value, rest[len(tens) :]
            break
    units = {**_KO_UNITS, **(_KO_ATTRIBUTIVE if counted else {})}
    if rest and rest not in units:
        return None
    total += units.get(rest, 0)
    return total or None


def _ko_sino_value(word: str) -> int | None:
    total, digit = 0, 0
    for ch in word:
        if ch in _KO_SINO_DIGIT:
            digit = _KO_SINO_DIGIT[ch]
        else:
            total, digit = total + (digit or 1) * _KO_SINO_UNIT[ch], 0
    return total + digit or None


def _korean(text: str) -> list[Numeral]:
    found = [Numeral(m.group(), m.start(), m.end(), None) for m in _KO_VAGUE.finditer(text)]
    for m in _KO_NATIVE.finditer(text):
        word = m.group("word")
        if not word:
            continue
        counted = bool(m.group("after").strip(" 도만이은는을를가뿐의"))
        value = _ko_native_value(word, counted)
        if value is None or (value == 1 and _KO_NOT_EVEN.match(text, m.start("word") + len(word))):
            continue
        end = m.end() if counted else m.start("word") + len(word)
        found.append(Numeral(text[m.start() : end], m.start(), end, value))
    for m in _KO_SINO.finditer(text):
        found.append(Numeral(m.group(), m.start(), m.end(), _ko_sino_value(m.group("word"))))
    return found


# --- Japanese --------------------------------------------------------------------------------

_JA_COUNTERS = (
    "枚", "件", "個", "名", "人", "本", "つ", "台", "棟", "箇所", "ヶ所", "か所", "点", "回", "階",
)  # fmt: skip
_JA_KANA = {
    "ひとつ": 1, "ふたつ": 2, "みっつ": 3, "よっつ": 4, "いつつ": 5, "むっつ": 6,
    "ななつ": 7, "やっつ": 8, "ここのつ": 9,
}  # fmt: skip
_JA_WORDS = re.compile("|".join([*_JA_KANA, "数十", "数百", "数千", "何十", "何百", "何千"]))
_KANJI = re.compile(r"[〇一二三四五六七八九十百千万]")
_JA_IDIOMS = ("万一", "十分", "一一", "唯一", "一部", "一緒", "一方")


def _japanese(text: str) -> list[Numeral]:
    found = []
    for m in _JA_WORDS.finditer(text):
        if text.startswith("も", m.end()) and _JA_KANA.get(m.group()) == 1:
            continue  # ひとつも: not even one, an absence word
        found.append(Numeral(m.group(), m.start(), m.end(), _JA_KANA.get(m.group())))
    if not _KANJI.search(text):
        return found
    for hit in suji.values(text):
        start, end = int(hit["beg"]), int(hit["end"])
        span = text[start:end]
        if span.isascii() or any(text.startswith(idiom, start - 1) for idiom in _JA_IDIOMS):
            continue
        if any(text.startswith(idiom, start) for idiom in _JA_IDIOMS):
            continue
        counter = next((c for c in _JA_COUNTERS if text.startswith(c, end)), None)
        if len(span) == 1 and counter is None:
            continue  # 一覧, 一致: a kanji that is part of a word
        if span == "一" and counter and text.startswith("も", end + len(counter)):
            continue  # 一枚も: not even one
        value = hit["val"]
        found.append(Numeral(span, start, end, int(value) if float(value).is_integer() else None))
    return found


def numerals(text: str, locale: str) -> list[Numeral]:
    """Every number ``text`` (already ``fold``ed) utters, in reading order, overlaps merged."""
    found = _digit_numerals(text) + _word_numerals(text, locale) + _korean(text) + _japanese(text)
    found.sort(key=lambda n: (n.start, -n.end))
    merged: list[Numeral] = []
    for numeral in found:
        if merged and numeral.start < merged[-1].end:
            continue
        merged.append(numeral)
    return merged
