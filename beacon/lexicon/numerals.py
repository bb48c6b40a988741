"""The number words of five locales, as tables: the guard's numeral reader
(``beacon.adjudication.guard.numerals``) builds its patterns and reads its values from these.

Spelled-out numbers in en/de/es are read by ``text2num`` and Japanese kanji numerals by
``suji``; what those libraries leave alone is listed here: the small count words
text2num keeps as words, Korean counting words (no library reads them) and Japanese
kana counting words. Korean words carry their value, so the pattern that finds a word
and the table that reads it are one list.
"""

from __future__ import annotations

from collections.abc import Mapping

# Small numbers text2num leaves alone (its threshold keeps "one" and "two" as words);
# the count-bearing ones, with the value the guard reads from this table (None: the word
# is a count but this table gives it no value, like "dozens").
SMALL_WORDS: Mapping[str, Mapping[str, int | None]] = {
    "en": {
        "two": 2, "both": 2, "a couple of": None, "a dozen": None, "dozens": None,
        "hundreds": None, "thousands": None, "a few dozen": None,
    },
    "de": {
        "zwei": 2, "beide": 2, "ein Dutzend": None, "Dutzende": None, "Hunderte": None,
        "Tausende": None,
    },
    "es": {
        "dos": 2, "ambos": 2, "ambas": None, "una docena": None, "docenas": None,
        "cientos": None, "miles": None, "centenares": None,
    },
}  # fmt: skip
# English "one" is a count only before a word, and not as a pronoun: not after these
# words ("no one", "this one") nor before these ("one of", "one another").
ONE = "one"
ONE_NOT_AFTER: tuple[str, ...] = ("no ", "any", "the ", "this ", "that ", "which ", "each ")
ONE_NOT_BEFORE: tuple[str, ...] = ("of", "another", "more time")

# Every number word text2num reads holds one of these (a cheap test before its parse).
STEMS: Mapping[str, tuple[str, ...]] = {
    "en": (
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        "ten", "eleven", "twel", "teen", "twent", "thirt", "fort", "fift", "hundred",
        "thousand", "illion", "first", "second", "third", "ninth",
    ),
    "de": (
        "null", "ein", "zwei", "zwan", "drei", "vier", "fünf", "sech", "sieb", "acht",
        "neun", "zehn", "elf", "zwölf", "zig", "ßig", "hundert", "tausend", "illion",
        "erste", "dritte",
    ),
    "es": (
        "cero", "un", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve",
        "diez", "once", "doce", "trece", "catorce", "quince", "dieci", "veint", "treinta",
        "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa", "cien", "mil",
        "illón", "illones", "primer", "segund", "tercer", "cuart", "quint", "sext",
        "s[eé]ptim", "octav", "noven", "d[eé]cim",
    ),
}  # fmt: skip
# Number words of one language that are everyday words of another ("once" is eleven in
# Spanish, "elf" eleven in German): read as numbers in their own locale only.
FALSE_FRIENDS = frozenset({"once", "elf", "null", "mil", "sin"})

# Korean native counting words by value: units (하나 …), tens (열, 스물 …), and the
# attributive forms a counter follows (한 장, 두 개; 스무 장).
KO_UNITS: Mapping[str, int] = {
    "하나": 1, "둘": 2, "셋": 3, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9,
}  # fmt: skip
KO_TENS: Mapping[str, int] = {"열": 10, "스물": 20, "서른": 30, "마흔": 40, "쉰": 50}
KO_ATTRIBUTIVE: Mapping[str, int] = {"한": 1, "두": 2, "세": 3, "네": 4}
KO_ATTRIBUTIVE_TENS: Mapping[str, int] = {"스무": 20}
# Tens that stand alone as a count ("열이 있다"); larger ones are read only before a counter.
KO_ALONE_TENS: tuple[str, ...] = ("열", "스물")
# Sino-Korean digits and units (삼십 = 30), and zero.
KO_SINO_DIGITS: Mapping[str, int] = {
    "일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9,
}  # fmt: skip
KO_SINO_UNITS: Mapping[str, int] = {"십": 10, "백": 100, "천": 1000, "만": 10000}
KO_ZERO: tuple[str, ...] = ("영", "공")
# What follows a number to make it a count (사진 3장), and the particles a standing-alone
# counting word takes (열이, 둘만).
KO_COUNTERS: tuple[str, ...] = (
    "장", "개", "건", "명", "곳", "가지", "번", "층", "회", "대", "점", "枚",
)  # fmt: skip
KO_PARTICLES: tuple[str, ...] = ("도", "만", "이", "은", "는", "를", "가", "뿐")
# Some tens, hundreds, thousands: a count, but no single number.
KO_VAGUE: tuple[str, ...] = ("수십", "수백", "수천", "십여", "백여", "천여")

# Japanese: one kanji numeral alone is a count only with a counter after it (一覧 "list",
# 一致 "match" are words, 一枚 is a count).
JA_COUNTERS: tuple[str, ...] = (
    "枚", "件", "個", "名", "人", "本", "つ", "台", "棟", "箇所", "ヶ所", "か所", "点", "回", "階",
)  # fmt: skip
JA_KANA: tuple[str, ...] = (
    "ひとつ", "ふたつ", "みっつ", "よっつ", "いつつ", "むっつ", "ななつ", "やっつ", "ここのつ",
)  # fmt: skip
JA_VAGUE: tuple[str, ...] = ("数十", "数百", "数千", "何十", "何百", "何千")
JA_KANJI_NUMERALS = "〇一二三四五六七八九十百千万億兆"
JA_IDIOMS: tuple[str, ...] = ("万一", "一一", "十分")  # "by any chance", "one by one", "enough"
