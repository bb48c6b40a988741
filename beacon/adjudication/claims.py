"""Claims a sentence can make without a number: completeness and absence, 5 locales.

"All of them", "in total", "exactly", "only these" assert that what is said
is the whole population; "there are none", "I couldn't find any", "keine",
"없습니다" assert an absence. Code grounds both or neither is said: the
patterns live here as data, the verdict in ``beacon.adjudication.guard``.
Every locale's patterns are tried on every sentence (a model does not always
answer in the locale it was asked in); none of them can fire on another
script's text, and the Latin ones were chosen not to collide across en/de/es.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# A quantity right after "only"/"nur"/"solo": a slot, digits, or a number word.
_QUANTITY = r"\s+(?:\{\{|\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|a few|a handful)\b)"

COMPLETENESS: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"\bexact(?:ly)?\b",
        r"\bprecisely\b",
        r"(?<!\bnot )\ball (?:of )?(?:them|these|those|the)\b",
        r"(?<!\bnot )\ball \{\{",
        r"\bin (?:total|all)\b",
        r"\b(?:a |the )?total (?:of|is|count)\b",
        r"\baltogether\b",
        r"\b(?:complete|full|entire|whole) (?:set|list|count|results?|population)\b",
        r"\bthe only\b",
        r"\bonly (?:these|those|this|that)\b",
        r"\bonly" + _QUANTITY,
        r"\bno more\b",
        r"\bnothing (?:else|more)\b",
        r"\bevery (?:single )?(?:one|photo|finding|panorama|record|item|result)s?\b",
        r"\bthat(?:'s| is) (?:all|everything)\b",
    ),
    "de": (
        r"\bgenau\b",
        r"\bexakt\b",
        r"\balle\b",
        r"\bsämtliche\w*",
        r"\binsgesamt\b",
        r"\bvollständige?\w*",
        r"\bkomplette?\w*",
        r"\bnur (?:diese|noch)\b",
        r"\bnur" + _QUANTITY,
        r"\bkeine weiteren\b",
        r"\bnicht mehr als\b",
    ),
    "es": (
        r"\bexactamente\b",
        r"\btod[oa]s\b",
        r"\ben total\b",
        r"\bcomplet[oa]s?\b",
        r"\b(?:solo|sólo|solamente|únicamente)" + _QUANTITY,
        r"\b(?:solo|sólo|solamente|únicamente) (?:est[oa]s|es[oa]s)\b",
        r"\bno hay más\b",
        r"\bningún otro\b",
    ),
    "ko": (
        r"정확히",
        r"모두",
        r"전부",
        r"모든",
        r"전체 (?:목록|결과|개수|수)",
        r"총\s*(?:\{\{|\d|합)",
        r"합계",
        r"유일",
        r"뿐(?:입니다|이에요|이다)",
        r"더 이상",
    ),
    "ja": (
        r"ちょうど",
        r"正確に",
        r"すべて",
        r"全て",
        r"全部",
        r"合計",
        r"全件",
        r"のみ",
        r"だけ(?:です|でした|が|を|で)",
        r"これ以上",
        r"完全な",
    ),
}

ABSENCE: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"\bthere (?:are|were|is|was) (?:no|none)\b",
        r"\bnone\b",
        r"\bno (?:\w+ ){0,3}(?:were|was|are|is|could be) found\b",
        r"\b(?:couldn'?t|could not|can'?t|cannot|did not|didn'?t|was unable to|were unable to)"
        r" (?:find|locate|see|spot) (?:any|a single)\b",
        r"\bfound (?:no|nothing|zero|none)\b",
        r"\bnothing (?:matched|matches|was found|found|turned up)\b",
        r"\bno (?:results?|matches|hits)\b",
        r"\bzero\b",
        r"\bnot (?:a single|one)\b",
        r"\bdoes(?:n'?t| not) (?:have|contain) any\b",
        r"\b(?:has|have) no \w+",
    ),
    "de": (
        r"\bkeine?n?\b[^.!?]*\b(?:gefunden|finden|vorhanden|gibt|enthält|hat|entdeckt|sehen)\b",
        r"\bnicht (?:gefunden|finden|entdeckt)\b",
        r"\b(?:es gibt|gibt es) keine?n?\b",
        r"\bnichts\b",
        r"\bnull\b",
        r"\bkein einzige[sr]?\b",
    ),
    "es": (
        r"\bno (?:hay|existen|existe|encontré|encontramos|se encontraron|se encontró|he encontrado|"
        r"hemos encontrado|tiene|contiene)\b",
        r"\bningun[oa]?\b",
        r"\bningún\b",
        r"\bnada\b",
        r"\bcero\b",
    ),
    "ko": (
        r"(?<!수 )(?<!수)없(?:습니다|어요|음|다|는)",
        r"찾(?:을 수 없|지 못|지 않)",
        r"하나도",
        r"아무것도",
        r"아무 (?:결과|사진|항목)",
    ),
    "ja": (
        r"見つかりませ",
        r"見当たりませ",
        r"存在しませ",
        r"ありませ",
        r"一件も",
        r"一つも",
        r"ひとつも",
        r"何も",
        r"ゼロ",
        r"皆無",
    ),
}


# Every locale's patterns in one expression: one scan of a sentence, not five.
_ANY_COMPLETENESS = re.compile(
    "|".join(f"(?:{p})" for patterns in COMPLETENESS.values() for p in patterns), re.IGNORECASE
)
_ANY_ABSENCE = re.compile(
    "|".join(f"(?:{p})" for patterns in ABSENCE.values() for p in patterns), re.IGNORECASE
)


def completeness_claim(text: str) -> str | None:
    """The words that claim the whole population, or None."""
    match = _ANY_COMPLETENESS.search(text)
    return match.group() if match else None


def absence_claim(text: str) -> str | None:
    """The words that claim there is nothing, or None."""
    match = _ANY_ABSENCE.search(text)
    return match.group() if match else None
