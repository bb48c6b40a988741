"""The words five locales use for what a question constrains, one table per concept.

Each table maps the value a tool takes (English, as the upstream spells it) to
its names in en/de/es/ko/ja. Patterns are regexes matched on NFKC, case-folded
text; a Latin-script pattern is matched as a whole word (``bounded``), Hangul
and kana need no word boundary.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping


def _listed(words: str) -> frozenset[str]:
    """A word list written as running text (one table, many short words)."""
    return frozenset(words.split())


# "level 3", "Ebene 3", "nivel 3", "3층", "3階", "L3", "3. Stock"
LEVEL = re.compile(
    r"\b(?:level|floor|lvl|ebene|geschoss|stock(?:werk)?|etage|nivel|planta|piso)\s*(\d{1,3})\b"
    r"|\bl(\d{1,3})\b|(\d{1,3})\s*(?:층|階)|(\d{1,3})\.\s*(?:stock|og|etage)\b",
    re.IGNORECASE,
)
# "levels 3, 4 and 5", "Ebenen 3 und 4", "niveles 3 y 4": a list of levels, each one a
# level of its own (a range, "levels 2 to 4", is no list: qualifiers.LEVEL_RANGES).
LEVEL_LIST = re.compile(
    r"\b(levels|floors|storeys|ebenen|etagen|geschosse|stockwerke|niveles|pisos|plantas)\s+"
    r"(\d{1,3}(?:(?:\s*,\s*|\s*,?\s*(?:and|or|und|oder|y|o)\s+)\d{1,3})+)\b",
    re.IGNORECASE,
)
# What a question counts or lists: the record kinds, by the words naming them.
RECORDS: Mapping[str, tuple[str, ...]] = {
    "panoramas": (
        r"panoramas?", r"panos?", r"captures?", r"360s?", r"panoramen", r"aufnahmen?",
        r"panorámicas?", r"capturas?", r"파노라마", r"캡처", r"パノラマ", r"キャプチャ",
    ),
    "photos": (
        r"photos?", r"pictures?", r"images?", r"\w*fotos?", r"\w*bilder?", r"fotografías?",
        r"imágenes", r"imagen", r"사진", r"写真", r"画像",
    ),
    "findings": (
        r"findings?", r"issues?", r"annotations?", r"observations?", r"defects?",
        r"\w*befunde?n?", r"\w*mängel", r"mangel", r"feststellungen?", r"hallazgos?",
        r"observaciones", r"observación", r"incidencias?", r"defectos?", r"지적\s*사항",
        r"지적", r"이슈", r"결함", r"指摘", r"不具合",
    ),
    "documents": (
        r"documents?", r"specs?", r"specifications?", r"rfis?", r"dokumente?", r"documentos?",
        r"문서", r"도면", r"ドキュメント", r"文書", r"仕様書",
    ),
}  # fmt: skip
STATUSES: Mapping[str, tuple[str, ...]] = {
    "in_review": (
        r"in review", r"in-review", r"in_review", r"under review", r"in prüfung",
        r"en revisión", r"en revision", r"검토\s*중", r"確認中", r"レビュー中",
    ),
    "open": (
        r"open", r"unresolved", r"outstanding", r"offene[nrsm]?", r"offen", r"abiert[oa]s?",
        r"pendientes?", r"미해결", r"열린", r"未対応", r"未解決",
    ),
    "closed": (
        r"closed", r"resolved", r"erledigte[nrsm]?", r"erledigt", r"geschlossene[nrsm]?",
        r"cerrad[oa]s?", r"resuelt[oa]s?", r"해결된", r"해결됨", r"완료된", r"対応済み",
        r"解決済み",
    ),
}  # fmt: skip
KINDS: Mapping[str, tuple[str, ...]] = {
    "safety": (r"safety", r"sicherheit\w*", r"seguridad", r"안전", r"安全"),
    "quality": (r"quality", r"qualität\w*", r"calidad", r"품질", r"品質"),
}
# German joins a category to its noun ("Brandschutzmängel", "Abdichtungsmangel"): its
# words take any ending, or the asked category would be dropped without a word.
CATEGORIES: Mapping[str, tuple[str, ...]] = {
    "fall protection": (r"fall protection", r"absturzsicherung\w*", r"protección contra caídas",
                        r"추락\s*방지", r"墜落防止"),
    "ppe": (r"ppe", r"psa", r"epi", r"보호구", r"保護具"),
    "housekeeping": (r"housekeeping", r"ordnung und sauberkeit", r"orden y limpieza",
                     r"정리\s*정돈", r"整理整頓"),
    "electrical": (r"electrical", r"elektrisch\w*", r"eléctric[oa]s?", r"전기", r"電気"),
    "fire safety": (r"fire safety", r"brandschutz\w*", r"protección contra incendios",
                    r"소방", r"防火"),
    "finish": (r"finish", r"oberfläche", r"acabados?", r"마감", r"仕上げ"),
    "alignment": (r"alignment", r"ausrichtung\w*", r"alineación", r"정렬", r"通り芯"),
    "waterproofing": (r"waterproofing", r"abdichtung\w*", r"impermeabilización", r"방수",
                      r"防水"),
}  # fmt: skip
# Subjects a photo or document search is asked about, by their English query words.
TOPICS: Mapping[str, tuple[str, ...]] = {
    "missing hard hats": (r"missing hard hats?", r"hard hats?", r"fehlende[nrs]?\s+\w*helme?n?",
                          r"\w*helme?n?", r"cascos?(?:\s+que\s+faltan|\s+faltantes)?",
                          r"안전모", r"ヘルメット"),
    "rebar": (r"rebar", r"bewehrung", r"armaduras?", r"varillas?", r"철근", r"鉄筋"),
    "scaffolding": (r"scaffold(?:ing|s)?", r"gerüst\w*", r"andamios?", r"비계", r"足場"),
    "fire extinguisher": (r"fire extinguishers?", r"extinguishers?", r"feuerlöscher\w*",
                          r"extintor(?:es)?", r"소화기", r"消火器"),
    "water leak": (r"water leaks?", r"leaks?", r"wasserschäden?", r"undicht\w*", r"leck\w*",
                   r"fugas?(?: de agua)?", r"누수", r"漏水"),
    "formwork": (r"formwork", r"schalung\w*", r"encofrados?", r"거푸집", r"型枠"),
    "guardrail": (r"guardrails?", r"geländer\w*", r"barandillas?", r"안전\s*난간", r"手すり"),
    "cable tray": (r"cable trays?", r"kabeltrassen?", r"bandejas? de cables?",
                   r"케이블\s*트레이", r"ケーブルラック"),
}  # fmt: skip
# Words that open a question or join its parts: never a name, never a topic.
FUNCTION_WORDS: frozenset[str] = _listed(
    """
    how many much what which who whom whose when where why show me list find give all any the a an
    of on in at by for from with to and or there are is were was did do does have has had taken
    raised created made captured photos findings please can could would you i this that
    wie viele welche welcher welches wer wo wann zeig zeige mir alle der die das den dem des
    von vom im am auf in zu mit und oder gibt es sind wurden wurde hat haben fotos befunde ebene
    cuántos cuántas cuantos cuantas qué que cuál cuáles quién quiénes dónde cuándo muestra
    muéstrame dame hay los las el la de del en con y o fueron fue tiene tienen fotos hallazgos
    nivel level ebene
    """
)


def fold(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed: how every table is matched."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def latin(pattern: str) -> bool:
    """A Latin word's pattern (it needs word boundaries), not a Hangul, kana or anchored one."""
    return pattern[:1].isascii() and not pattern.startswith("^")


def bounded(pattern: str) -> str:
    # \b does not separate Hangul or kana from what follows; Latin words need it.
    return rf"(?<!\w)(?:{pattern})(?!\w)" if latin(pattern) else pattern


def word_union(patterns: Iterable[str], *, grouped: bool = False) -> str:
    r"""Every pattern a whole word (a Latin one between word boundaries, as ``bounded``
    makes it), one alternative after another in order, as one alternation; ``grouped``
    puts each in a capturing group of its own. A run of Latin patterns shares one pair
    of boundaries: the same matches (each pattern is still tried in turn, ``(?!\w)``
    backtracking into the next), but re checks the boundary before a run once per
    place, not once per pattern — a hundred patterns cost ~5× less a sentence (issue
    32: the guard's word classes and the question's tables were most of their time)."""
    runs: list[tuple[bool, list[str]]] = []
    for pattern in patterns:
        piece = f"({pattern})" if grouped else f"(?:{pattern})"
        if runs and runs[-1][0] == latin(pattern):
            runs[-1][1].append(piece)
        else:
            runs.append((latin(pattern), [piece]))
    return "|".join(
        rf"(?<!\w)(?:{'|'.join(run)})(?!\w)" if is_latin else "|".join(run)
        for is_latin, run in runs
    )


@functools.lru_cache(maxsize=4096)
def bounded_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``bounded(pattern)`` compiled, once: the tables are searched on every turn,
    several hundred patterns, and re's own cache lookup cost ~0.5 ms a turn."""
    return re.compile(bounded(pattern), flags)


def first_match(
    table: Mapping[str, tuple[str, ...]], text: str
) -> tuple[str, re.Match[str]] | None:
    """The table key whose pattern matches earliest in (folded) ``text``, with its match
    (its span is that pattern's); at one place, the first key and pattern in the table's
    order."""
    pattern, keys = _table_pattern(table)
    match = pattern.search(text)
    if match is None or match.lastindex is None:
        return None
    return keys[match.lastindex], match


_TABLES: dict[int, tuple[Mapping[str, tuple[str, ...]], re.Pattern[str], dict[int, str]]] = {}


def _table_pattern(table: Mapping[str, tuple[str, ...]]) -> tuple[re.Pattern[str], dict[int, str]]:
    """Every pattern of ``table`` in one alternation, each in a group of its own, and the
    key of each group. One search finds what a search per pattern and the earliest of
    them found — the leftmost place any pattern matches, and there the first pattern
    that does — at a fraction of the cost (a table of 40 patterns searched 40 times was
    most of a question's reading). The group closing last is the alternative's own, so
    ``lastindex`` names it whatever groups its pattern holds."""
    held = _TABLES.get(id(table))
    if held is not None and held[0] is table:
        return held[1], held[2]
    keys: dict[int, str] = {}
    index = 1
    for key, patterns in table.items():
        for pattern in patterns:
            keys[index] = key
            index += 1 + re.compile(pattern).groups
    compiled = re.compile(word_union((p for ps in table.values() for p in ps), grouped=True))
    _TABLES[id(table)] = (table, compiled, keys)
    return compiled, keys


# The last word of a company's name says it is one ("Keystone Concrete", "Apex Scaffolding").
COMPANY_WORDS: frozenset[str] = _listed(
    """
    scaffolding electric electrical concrete plumbing steel drywall mechanical glazing
    construction builders contractors contracting roofing painting masonry excavation
    inc ltd llc gmbh ag corp co company group services systems sa
    """
)
# "Who raised the most …", "welche Ebene hat die meisten …", "가장 많은": the leader of a field.
# "Compare …", "… versus …", "vergleiche", "compara", "비교", "比較": a question with sides.
COMPARE = re.compile(
    r"\bcompar\w*|\bversus\b|\bvs\b\.?|vergleich\w*|\bcontra\b|비교|比較|対比", re.IGNORECASE
)
MOST = re.compile(
    r"\b(?:the\s+most|most\s+of|die\s+meisten|am\s+meisten|más|mas)\b|가장\s*많|제일\s*많"
    r"|最も多|一番多|いちばん多",
    re.IGNORECASE,
)
# "When was the last/latest/most recent …", "wann … zuletzt", "¿cuándo … la última …"
LATEST = re.compile(
    r"\b(?:last|latest|most\s+recent|newest|zuletzt|letzte[nrsm]?|jüngste[nrsm]?|"
    r"últim[oa]s?|ultim[oa]s?|más\s+reciente)\b|마지막|최근|最後|最新|直近",
    re.IGNORECASE,
)
EARLIEST = re.compile(
    r"\b(?:first|earliest|oldest|erste[nrsm]?|früheste[nrsm]?|primer[oa]?|más\s+antigu[oa])\b"
    r"|처음|최초|가장\s*오래|最初|最も古",
    re.IGNORECASE,
)
WHEN = re.compile(r"\bwhen\b|\bwann\b|\bcuándo\b|\bcuando\b|언제|いつ", re.IGNORECASE)
# The date each record kind carries, for "when was the last …".
DATE_FIELDS: Mapping[str, str] = {
    "panoramas": "captured_at",
    "photos": "taken_at",
    "findings": "created_at",
    "documents": "issued_on",
}
# "Where is Maple Clinic?": the place a project's record names.
WHERE = re.compile(
    r"\bwhere\s+(?:is|are|'s)\b|\bwo\s+(?:ist|liegt|befindet)\b|\bdónde\s+(?:está|queda)\b"
    r"|\bdonde\s+(?:esta|queda)\b|어디에\s*있|어디인|どこにあ|どこです|所在地",
    re.IGNORECASE,
)

# "How many …?" in five locales: a count question (the aggregate's, not a listing's).
HOW_MANY_PATTERNS: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"\bhow\s+many\b",
        r"\bhow\s+much\b",
        r"\bnumber\s+of\b",
        r"\bcount\b",
        r"\btotal\s+number\b",
    ),
    # 몇 alone asks "how many"; 몇몇 is "several", not a question.
    "ko": (r"몇\s*(?:개|건|장|명)", r"개수", r"건수", r"(?<!몇)몇(?!몇)"),
    "ja": (r"いくつ", r"何件", r"何枚", r"何個", r"何人", r"件数", r"総数", r"数は"),
    # Anzahl, also inside compounds (Gesamtanzahl), but not Anzahlung (a down payment).
    "de": (r"\bwie\s*viele?\b", r"anzahl(?!ung)"),
    # Unaccented "cuantos" too, except "unos cuantos" (a few).
    "es": (
        r"\bcuánt[oa]s?\b",
        r"(?<!\bunos\s)(?<!\bunas\s)\bcuant[oa]s\b",
        r"\bn[uú]mero\s+de\b",
        r"\bcantidad\s+de\b",
    ),
}
# "What is the progress on level 2?": the trades behind plan, read from every progress row.
PROGRESS = re.compile(
    r"\bprogress\b|fortschritt|\bavance\b|\bprogreso\b|진척|공정률|進捗", re.IGNORECASE
)
