"""The words that ask for a field of every record ("which companies", "how many
inspectors", "who"), in five locales: loop/sets.py enumerates the field's members.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# Typed fields a "which …" question can enumerate, by the words that ask for them in
# the five locales (the question's language is the user's, not the panel's).
SET_FIELDS: Mapping[str, tuple[str, ...]] = {
    "company": (
        "compan(?:y|ies)", "contractors?", "subcontractors?", "firm(?:a|en)", "unternehmen",
        "auftragnehmer", "empresas?", "contratistas?", "업체", "회사", "협력사", "会社", "業者",
    ),
    "inspector": (
        "inspectors?", "authors?", "prüfer(?:innen)?", "inspektor(?:en)?", "inspector(?:es)?",
        "autor(?:es)?", "점검자", "검사자", "작성자", "検査員", "作成者", "担当者",
    ),
    "category": ("categor(?:y|ies)", "kategorien?", "categorías?", "분류", "카테고리", "分類"),
    "status": ("status(?:es)?", "estados?", "상태", "状態", "ステータス"),
    "level_number": (
        "levels?", "floors?", "ebenen?", "geschoss(?:e)?", "stockwerke?", "nivel(?:es)?",
        "plantas?", "pisos?", "층", "階",
    ),
    "discipline": ("disciplines?", "fachbereiche?", "disciplinas?", "분야", "分野"),
    "kind": ("types?", "kinds?", "arten", "tipos?", "유형", "種類"),
    "trade": ("trades?", "gewerke?", "oficios?", "공종", "工種"),
}  # fmt: skip
# "which / what" before the field's word (up to two words between: "which subcontractor
# companies"), or "list the …"; "who" asks for the people who raised the records.
ASK = (
    r"which|what|welche[rsmn]?|was für|qué|cuáles|cuales|어떤|어느|무슨|どの|どんな|何の"
    r"|list(?:\s+all)?(?:\s+the)?|name\s+the"
)
# "How many companies have findings?" asks for the members too, never the records' count
# (it was answered "exactly 90 findings"): for the fields that are not records themselves
# (a level is one, counted by its own tool). Korean and Japanese ask after the noun.
COUNTED_FIELDS = frozenset({"company", "inspector", "category", "discipline", "trade"})
HOW_MANY = r"how\s+many|wie\s+viele|cuánt[oa]s|cuant[oa]s"
HOW_MANY_AFTER = r"\S{0,3}\s*몇\s*(?:곳|명|개)|\S{0,3}\s*(?:何社|何人|いくつ)"
WHO = re.compile(r"\bwho\b|\bwer\b|\bquién(?:es)?\b|\bquien(?:es)?\b|누가|누구|誰", re.IGNORECASE)

__all__ = ["ASK", "COUNTED_FIELDS", "HOW_MANY", "HOW_MANY_AFTER", "SET_FIELDS", "WHO"]
