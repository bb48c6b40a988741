"""Words that turn a constraint's phrase into another set's: "not open", "anyone but
Dana Whitfield", "except electrical", "above level 3", "3階以上", and level ranges
("levels 2 to 4"). The constraint reader reads such a phrase as a constraint no
window or value here stands for, so no count is stated as the answer without it
(adjudication/constraints.py: the counted set must be the asked set).

Negations and exclusions qualify every axis they can govern; comparisons only a
level (elsewhere "under review" and "über Brandschutz" — about fire safety — are
no comparisons). Latin-script words stand before the phrase, Japanese and Korean
ones after it.
"""

from __future__ import annotations

from collections.abc import Mapping

EXCLUDING: Mapping[str, tuple[str, ...]] = {
    "en": (
        "not",
        "except",
        "excluding",
        "other than",
        "but",
        "besides",
        "apart from",
        "aside from",
        "non",
    ),
    # Not "kein": "Gibt es keine offenen Befunde?" asks whether the open ones are none.
    "de": ("nicht", "außer", "ausser", "ohne", "ausgenommen"),
    "es": (
        "excepto",
        "salvo",
        "menos",
        "sin",
        "aparte de",
        "fuera de",
        "distinto de",
        "no son",
        "no es",
        "no están",
        "no sean",
        "no",  # "que no son de seguridad"
    ),
    "ja": ("以外", "を除く", "を除いた"),
    # Not 외 joined to what follows: 외벽 is an outer wall; "안전 외 지적" is "besides safety".
    "ko": ("제외", "외에", "외의", "말고", "빼고", "외 "),
}
COMPARING: Mapping[str, tuple[str, ...]] = {
    "en": (
        "above",
        "below",
        "over",
        "under",
        "beyond",
        "more than",
        "less than",
        "at least",
        "at most",
        "higher than",
        "lower than",
    ),
    "de": ("über", "unter", "oberhalb", "unterhalb", "mindestens", "höchstens"),
    "es": ("encima de", "debajo de", "por encima de", "por debajo de", "al menos"),
    "ja": ("以上", "以下", "未満", "より上", "より下"),
    "ko": ("이상", "이하", "미만"),
}
# The locales whose qualifier follows the phrase it qualifies ("3階以上", "3층 이상").
AFTER_THE_PHRASE: frozenset[str] = frozenset({"ja", "ko"})
# Between a qualifier and its phrase: an article or a preposition ("not on level 3").
LINKS: tuple[str, ...] = (
    "the",
    "on",
    "in",
    "at",
    "by",
    "from",
    "auf",
    "von",
    "dem",
    "der",
    "den",
    "die",
    "das",
    "el",
    "la",
    "los",
    "las",
    "en",
    "de",
    "del",
)
# Several levels at once: a range the level reader does not read as one level.
LEVEL_RANGES: tuple[str, ...] = (
    r"(?:levels?|floors?|storeys?|ebenen?|etagen?|geschosse?|niveles?|pisos?|plantas?)"
    r"\s+\d{1,3}\s*(?:-|–|to|through|thru|bis|a|al|hasta)\s*\d{1,3}",
    r"\d{1,3}\s*(?:~|〜|-|から)\s*\d{1,3}\s*(?:階|층)",
)
