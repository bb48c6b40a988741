"""How ``beacon-rules`` reads a question, in any of the five locales.

A hosted model understands "Welche Firmen haben offene Befunde auf Ebene 3 von Harbor
Tower?" as well as the English; the embedded one reads it into the same fields —
the project named anywhere, what is asked about, whether it is a count or a
"which/who" over a typed field, and the filters (level, month, status, kind,
category, company, inspector) — so the tool arguments carry them, whatever the wording.
Vocabulary is data, one table per concept, every locale in the same row.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from dataclasses import dataclass

from beacon.lexicon.clock import today
from beacon.lexicon.dates import MONTHS, read_dates
from beacon.lexicon.words import (
    CATEGORIES,
    KINDS,
    RECORDS,
    STATUSES,
    TOPICS,
    first_match,
    fold,
)
from beacon.lexicon.words import LEVEL as _LEVEL
from stub_server.corpus import COMPANIES, INSPECTORS, QUALITY_CATEGORIES, SAFETY_CATEGORIES

Project = dict[str, str]

# What a question is about: the stub's record kinds, by the words naming them.
ENTITIES: Mapping[str, tuple[str, ...]] = {
    **{kind: RECORDS[kind] for kind in ("panoramas", "photos", "findings", "documents")},
    "trades": (r"trades?", r"gewerke?", r"oficios?", r"gremios?", r"공종", r"工種"),
    "clashes": (r"clash(?:es)?", r"clash report", r"bim", r"kollisionen", r"kollision",
                r"colisiones", r"colisión", r"간섭", r"干渉"),
    "progress": (r"progress", r"fortschritt\w*", r"baufortschritt", r"avance", r"progreso",
                 r"진척\w*", r"공정률", r"進捗"),
    "levels": (r"levels", r"floors", r"ebenen", r"geschosse", r"stockwerke", r"niveles",
               r"plantas"),
}  # fmt: skip
# Record ids by their prefix (a stable convention of the upstream's).
RECORD_ID = re.compile(r"\b(ann|cap|ph)-\d{6}\b", re.IGNORECASE)
_ID_KINDS = {"ann": "findings", "cap": "panoramas", "ph": "photos"}
# Typed fields a "which/who …" question enumerates, by the words naming them.
FIELDS: Mapping[str, tuple[str, ...]] = {
    "company": (
        r"compan(?:y|ies)", r"contractors?", r"subcontractors?", r"firmen", r"firma",
        r"unternehmen", r"auftragnehmer", r"empresas?", r"contratistas?", r"업체", r"회사",
        r"협력사", r"会社", r"業者",
    ),
    "inspector": (
        r"inspectors?", r"authors?", r"prüfer(?:innen)?", r"inspektoren", r"inspektor",
        r"inspectores", r"inspector", r"autores", r"autor", r"점검자", r"검사자", r"작성자",
        r"検査員", r"作成者", r"担当者",
    ),
    "category": (
        r"categor(?:y|ies)", r"kategorien?", r"categorías?", r"분류", r"카테고리", r"分類",
        r"カテゴリ",
    ),
    "status": (r"status(?:es)?", r"estados?", r"상태", r"状態", r"ステータス"),
    "level_number": (
        r"levels", r"floors", r"ebenen", r"geschosse", r"stockwerke", r"niveles", r"plantas",
        r"pisos",
    ),
    "trade": ENTITIES["trades"],
}  # fmt: skip
# "which / what / who" in each locale; a field is enumerated when one of these asks for it.
_ASK = (
    r"which", r"what", r"welche[rsmn]?", r"qué", r"cuáles", r"cuales", r"어떤",
    r"어느", r"무슨", r"どの", r"どんな", r"何の",
)  # fmt: skip
_WHO = re.compile(r"\bwho\b|\bwer\b|\bquién(?:es)?\b|\bquien(?:es)?\b|누가|누구|誰", re.IGNORECASE)
_LIST_FIELD = re.compile(r"\b(?:list|name)\s+(?:all\s+)?(?:the\s+)?(\w+)", re.IGNORECASE)
HOW_MANY = re.compile(
    r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\b|\btotal\s+number\b|\bwie\s*viele?\b|anzahl"
    r"(?!ung)|\bcuánt[oa]s\b|\bcuant[oa]s\b|\bn[uú]mero\s+de\b|\bcantidad\s+de\b|몇|개수|"
    r"건수|いくつ|何件|何枚|何個|件数|総数",
    re.IGNORECASE,
)
_NAMED_MONTH = re.compile(
    r"\b("
    + "|".join(sorted({m for names in MONTHS.values() for m in names}, key=len, reverse=True))
    + r")\s+(?:de\s+|of\s+)?(\d{4})\b",
    re.IGNORECASE,
)
_NUMBERED_MONTH = re.compile(r"(\d{4})\s*(?:년|年)\s*(\d{1,2})\s*(?:월|月)")


@dataclass(frozen=True, slots=True)
class Reading:
    """A question, read into fields (``None``: the question did not say)."""

    project: Project | None
    entity: str | None
    count: bool
    field: str | None
    level: int | None
    month: tuple[int, int] | None  # (year, month)
    status: str | None
    kind: str | None
    category: str | None
    company: str | None
    inspector: str | None  # who raised the findings, as the corpus spells the name
    topic: str | None
    # Any other date the question names ("last week", "seit April", "先週"), as an
    # inclusive (from, to) on the one clock the chat server reads it by too.
    window: tuple[str, str] | None = None
    # Every level named, in order: two or more is a comparison, one call per side.
    levels: tuple[int, ...] = ()
    # A time of day ("in the morning", "午前") as inclusive HH:MM ends.
    hours: tuple[str, str] | None = None

    def filters(self) -> dict[str, str | int]:
        """The structured tool arguments the reading implies (query_data's names)."""
        found: dict[str, str | int] = {}
        if self.level is not None:
            found["level_number"] = self.level
        if self.month is not None:
            year, month = self.month
            found["date_from"] = f"{year:04d}-{month:02d}-01"
            found["date_to"] = f"{year:04d}-{month:02d}-{_last_day(year, month):02d}"
        elif self.window is not None:
            found["date_from"], found["date_to"] = self.window
        if self.hours is not None and self.entity == "panoramas":
            # Only a capture carries its time of day; a photo or a finding has a day.
            found["time_from"], found["time_to"] = self.hours
        if self.entity == "findings":
            for name in ("status", "kind", "category", "company", "inspector"):
                value = getattr(self, name)
                if value is not None:
                    found[name] = value
        return found


def _last_day(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def _first(table: Mapping[str, tuple[str, ...]], text: str) -> str | None:
    """The key of the table's earliest match in (folded) ``text``."""
    hit = first_match(table, text)
    return hit[0] if hit is not None else None


def project_in(question: str, directory: list[Project]) -> Project | None:
    """The project the question names anywhere, in any case or spacing (longest name wins)."""
    text = fold(question).replace(" ", "")
    named = [p for p in directory if fold(p["name"]).replace(" ", "") in text]
    return max(named, key=lambda p: len(p["name"])) if named else None


def _without_project(text: str, project: Project | None) -> str:
    return text.replace(fold(project["name"]), " ") if project else text


def _asked_field(text: str) -> str | None:
    for field, words in FIELDS.items():
        noun = "(?:" + "|".join(words) + ")"
        asks = "(?:" + "|".join(_ASK) + ")"
        # "which companies", "welche Firmen", "어떤 업체", "どの会社"; up to two words between.
        if re.search(rf"(?<!\w){asks}\s*(?:\S+\s+){{0,2}}?{noun}(?!\w)", text):
            return field
        match = _LIST_FIELD.search(text)
        if match and re.fullmatch(noun, match.group(1)):
            return field
    if _WHO.search(text):
        return "inspector"  # "who raised / created these findings"
    return None


def _month(text: str) -> tuple[int, int] | None:
    named = _NAMED_MONTH.search(text)
    if named:
        word = named.group(1)
        number = next(names.index(word) for names in MONTHS.values() if word in names)
        return int(named.group(2)), number + 1
    numbered = _NUMBERED_MONTH.search(text)
    if numbered and 1 <= int(numbered.group(2)) <= 12:
        return int(numbered.group(1)), int(numbered.group(2))
    return None


def _month_window(year: int, month: int) -> tuple[str, str]:
    return f"{year:04d}-{month:02d}-01", f"{year:04d}-{month:02d}-{_last_day(year, month):02d}"


def _hours(question: str) -> tuple[str, str] | None:
    """The hours of the first time of day the question names, on the shared tables."""
    return next((p.hours for p in read_dates(question, today()) if p.hours is not None), None)


def _window(question: str) -> tuple[str, str] | None:
    """The first closed date window the question names, on the shared clock."""
    for phrase in read_dates(question, today()):
        start, end = phrase.window.start, phrase.window.end
        if start is not None and end is not None:
            return start.isoformat(), end.isoformat()
    return None


def _company(text: str) -> str | None:
    for company in COMPANIES:
        if fold(company) in text or re.search(rf"(?<!\w){fold(company.split()[0])}(?!\w)", text):
            return company
    return None


def _inspector(text: str) -> str | None:
    """The inspector the question names, in any case, by the full name the tools'
    ``inspector`` argument takes; a bare first name is not read as one."""
    for name in INSPECTORS:
        # Latin edges only: a particle joins the name in Korean or Japanese ("…의", "…が").
        if re.search(rf"(?<![0-9a-zß-ÿ]){re.escape(fold(name))}(?![0-9a-zß-ÿ])", text):
            return name
    return None


def read(question: str, directory: list[Project]) -> Reading:
    project = project_in(question, directory)
    text = _without_project(fold(question), project)
    levels = tuple(
        dict.fromkeys(next(int(g) for g in m.groups() if g) for m in _LEVEL.finditer(text))
    )
    level = levels[0] if levels else None
    field = _asked_field(text)
    entity = _first(ENTITIES, text)
    if entity is None and field in ("company", "inspector", "category", "status"):
        entity = "findings"  # only findings carry these fields
    if field == "trade":
        entity = "trades"
    if entity is None and (record := RECORD_ID.search(text)) is not None:
        entity = _ID_KINDS[record.group(1)]  # "ph-000045" is a photo: a lookup by id
    category = _first(CATEGORIES, text)
    kind = _first(KINDS, text)
    if category == "fire safety" and kind == "safety":
        kind = None  # "fire safety" names a category, not the safety kind
    if category is not None and category not in (*SAFETY_CATEGORIES, *QUALITY_CATEGORIES):
        category = None
    window, month = _window(question), _month(text)
    if month is not None and window is not None and window != _month_window(*month):
        month = None  # "since March 2026" names March, but asks from March to today
    return Reading(
        project=project,
        entity=entity,
        count=bool(HOW_MANY.search(text)) and field is None,
        field=field,
        level=level,
        levels=levels,
        month=month,
        window=window,
        hours=_hours(question),
        status=_first(STATUSES, text),
        kind=kind,
        category=category,
        company=_company(text),
        inspector=_inspector(text),
        topic=_first(TOPICS, text) if entity == "photos" else None,
    )


_ENGLISH_STATUS = {"open": "open", "closed": "closed", "in_review": "in review"}


_DAY_PARTS_EN = {
    ("06:00", "11:59"): "in the morning",
    ("12:00", "17:59"): "in the afternoon",
    ("18:00", "21:59"): "in the evening",
    ("22:00", "05:59"): "at night",
}


def _clock(hour: int) -> str:
    return f"{hour % 12 or 12} {'pm' if hour >= 12 else 'am'}"


def time_phrase(hours: tuple[str, str]) -> str:
    """A time of day in the English the lexicon reads back to the same hours."""
    if hours in _DAY_PARTS_EN:
        return _DAY_PARTS_EN[hours]
    first, last = (int(h[:2]) for h in hours)
    return f"before {_clock(last + 1)}" if hours[0] == "00:00" else f"after {_clock(first)}"


def english_question(reading: Reading) -> str:
    """The question as the upstream's text-to-SQL reads it (English), filters in words too."""
    words = []
    if reading.status is not None and reading.entity == "findings":
        words.append(_ENGLISH_STATUS[reading.status])
    if reading.kind is not None and reading.entity == "findings":
        words.append(reading.kind)
    if reading.category is not None and reading.entity == "findings":
        words.append(reading.category)
    words.append(reading.entity or "records")
    phrase = " ".join(words)
    if reading.company is not None and reading.entity == "findings":
        phrase += f" of {reading.company}"
    if reading.inspector is not None and reading.entity == "findings":
        # Travels as the inspector argument; named here too, so the count's subject
        # (this question) says whose findings were counted.
        phrase += f" raised by {reading.inspector}"
    if reading.level is not None:
        phrase += f" on level {reading.level}"
    if reading.month is not None:
        year, month = reading.month
        phrase += f" in {MONTHS['en'][month - 1].capitalize()} {year}"
    elif reading.window is not None:
        phrase += " between {} and {}".format(*reading.window)
    if reading.hours is not None and reading.entity == "panoramas":
        phrase += " " + time_phrase(reading.hours)
    return f"How many {phrase}?" if reading.count else f"List all {phrase}"


_GERMAN = re.compile(
    r"[äöüß]|\b(?:wie|welche\w*|auf|der|die|das|von|im|gibt|sind|zeige|alle|ebene|und|wer|"
    r"haben|gab|letzten|wo|liegt|wann|meisten)\b",
    re.IGNORECASE,
)
_SPANISH = re.compile(
    r"[¿¡ñáéíóú]|\b(?:cuánt\w+|cuant\w+|qué|hay|los|las|del|el|la|nivel|muestra|todas?|"
    r"todos|quién\w*|tiene\w*|hallazgos?)\b",
    re.IGNORECASE,
)


def language(question: str) -> str:
    """The locale a question is written in (what a model answering it would write back)."""
    if re.search(r"[\uac00-\ud7af]", question):
        return "ko"
    if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", question):
        return "ja"
    german, spanish = len(_GERMAN.findall(question)), len(_SPANISH.findall(question))
    if german == spanish == 0:
        return "en"
    return "de" if german >= spanish else "es"
