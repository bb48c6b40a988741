"""Rule-based NL → SQL, standing in for the upstream's text-to-SQL model.

Deterministic on purpose: the same question always yields the same SQL, so a
test can compare a COUNT with an independent count over the corpus records.
Filter values are matched against closed vocabularies before they are inlined,
so no user text ever reaches the SQL except as a bound parameter (the
``project_id``, and the structured filters' values).

Structured filters (``Filters``, the tool's schema-declared arguments) are ANDed
onto whatever the question says: they can only narrow it. A filter on a field
the queried table lacks is refused, never ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from datetime import date, timedelta

from beacon.lexicon.clock import today
from beacon.lexicon.dates import read_dates
from beacon.lexicon.words import (
    CATEGORIES,
    HOW_MANY_PATTERNS,
    KINDS,
    LEVEL,
    RECORDS,
    STATUSES,
    first_match,
    fold,
)
from stub_server.corpus import COMPANIES, QUALITY_CATEGORIES, SAFETY_CATEGORIES


class UntranslatableQuestion(ValueError):
    """The question names nothing the rules can turn into SQL."""


@dataclass(frozen=True, slots=True)
class Query:
    sql: str
    params: tuple[str, ...]
    is_aggregate: bool
    entity: str
    aggregate_function: str | None = None
    aggregate_column: str | None = None


@dataclass(frozen=True, slots=True)
class Filters:
    """The structured filters ``query_data`` accepts next to its question."""

    level_number: int | None = None
    status: str | None = None
    category: str | None = None
    kind: str | None = None
    company: str | None = None
    inspector: str | None = None  # who raised a finding, by full name
    date_from: str | None = None  # inclusive, YYYY-MM-DD
    date_to: str | None = None  # inclusive, YYYY-MM-DD
    time_from: str | None = None  # inclusive, HH:MM (records with a time of day only)
    time_to: str | None = None  # inclusive, HH:MM; before time_from: wraps past midnight

    def given(self) -> dict[str, int | str]:
        """The filters set, by argument name (what a cursor is bound to)."""
        return {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}


@dataclass(frozen=True, slots=True)
class _Entity:
    table: str
    columns: tuple[str, ...]
    date_column: str | None
    words: tuple[str, ...]
    # Typed columns a structured filter may name (beside the date column).
    filterable: tuple[str, ...] = ()


# Checked in order: an explicit noun ("panoramas") wins over "findings" adjectives.
_ENTITIES: tuple[_Entity, ...] = (
    _Entity(
        "captures",
        ("id", "label", "level_number", "captured_at"),
        "captured_at",
        ("panorama", "panoramas", "pano", "panos", "capture", "captures", "360", "360s"),
        ("level_number",),
    ),
    _Entity(
        "photos",
        ("id", "title", "level_number", "capture_id", "taken_at"),
        "taken_at",
        ("photo", "photos", "picture", "pictures", "image", "images"),
        ("level_number",),
    ),
    _Entity(
        "annotations",
        ("id", "title", "category", "status", "company", "inspector", "level_number", "created_at"),
        "created_at",
        (
            "finding",
            "findings",
            "issue",
            "issues",
            "annotation",
            "annotations",
            "observation",
            "observations",
            "defect",
            "defects",
            "safety",
            "quality",
        ),
        ("level_number", "status", "category", "kind", "company", "inspector"),
    ),
    _Entity("levels", ("id", "number", "name"), None, ("levels", "floors")),
    # Like the upstream's text-to-SQL model, the rules know a table the schema
    # lacks: asking about inspections yields SQL the corpus cannot run.
    _Entity("inspections", ("id", "inspector", "result"), None, ("inspection", "inspections")),
)
# "How many" in the five locales: a single-value COUNT, exempt from the row cap.
_HOW_MANY = re.compile(
    "|".join(p for patterns in HOW_MANY_PATTERNS.values() for p in patterns), re.IGNORECASE
)
_RECORD_TABLES = {"panoramas": "captures", "photos": "photos", "findings": "annotations"}
# Names a caller types (a company, a person) match in any case; vocabularies match exactly.
_NOCASE = frozenset({"company", "inspector"})


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text))


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


# A record id names its own table ("ann-000123" is a finding): a lookup, not a search.
RECORD_ID = re.compile(r"\b(ann|cap|ph)-(\d{6})\b")
_ID_TABLES = {"ann": "annotations", "cap": "captures", "ph": "photos"}


def _entity(text: str) -> _Entity:
    if (record := RECORD_ID.search(text)) is not None:
        by_id = _ID_TABLES[record.group(1)]
        return next(e for e in _ENTITIES if e.table == by_id)
    words = _words(text)
    for entity in _ENTITIES:
        if words & set(entity.words):
            return entity
    # The record kind in any of the five locales ("Befunde", "hallazgos", "사진", "指摘").
    named = first_match(RECORDS, text)
    table = _RECORD_TABLES.get(named[0]) if named is not None else None
    if table is not None:
        return next(e for e in _ENTITIES if e.table == table)
    raise UntranslatableQuestion(
        "I could not tell what to query: ask about panoramas, photos, findings or levels."
    )


def _annotation_filters(text: str) -> list[str]:
    where: list[str] = []
    for company in COMPANIES:
        first = company.split()[0].lower()
        if company.lower() in text or re.search(rf"\b{first}\b", text):
            where.append(f"company = {_quote(company)}")
            text = text.replace(company.lower(), " ")
            break
    # Vocabularies in the five locales (beacon.lexicon); a category is read before the
    # kind, so "fire safety" names a category, not the safety kind.
    categories: list[str] = []
    while (hit := first_match(CATEGORIES, text)) is not None:
        category, match = hit
        if category in (*SAFETY_CATEGORIES, *QUALITY_CATEGORIES) and category not in categories:
            categories.append(category)
        text = text[: match.start()] + " " * len(match.group(0)) + text[match.end() :]
    kind_hit = first_match(KINDS, text)
    kind = kind_hit[0] if kind_hit is not None else None
    if kind:
        where.insert(0, f"kind = {_quote(kind)}")
    status_hit = first_match(STATUSES, text)
    if status_hit is not None:
        where.insert(1 if kind else 0, f"status = {_quote(status_hit[0])}")
    where.extend(f"category = {_quote(c)}" for c in categories)
    return where


def _structured(entity: _Entity, filters: Filters) -> tuple[list[str], tuple[str, ...]]:
    """WHERE clauses and their bound values for the structured filters."""
    where: list[str] = []
    params: list[str] = []
    given = filters.given()
    if "time_from" in given or "time_to" in given:
        if entity.table != "captures":
            # Photos and findings carry a day only: a time of day cannot be applied.
            raise UntranslatableQuestion(f"{entity.table} have no time of day to filter by")
        first, last = str(given.pop("time_from", "00:00")), str(given.pop("time_to", "23:59"))
        joiner = "AND" if first <= last else "OR"  # "22:00"–"05:59" wraps past midnight
        column = f"substr({entity.date_column}, 12, 5)"
        where.append(f"({column} >= ? {joiner} {column} <= ?)")
        params.extend((first, last))
    for name, value in given.items():
        if name in ("date_from", "date_to"):
            if entity.date_column is None:
                raise UntranslatableQuestion(f"{entity.table} have no date to filter by")
            op = ">=" if name == "date_from" else "<="
            where.append(f"substr({entity.date_column}, 1, 10) {op} ?")
            params.append(str(value))
        elif name not in entity.filterable:
            raise UntranslatableQuestion(f"{entity.table} have no {name} to filter by")
        elif name == "level_number":
            where.append(f"level_number = {int(value)}")
        else:
            where.append(f"{name} = ? COLLATE NOCASE" if name in _NOCASE else f"{name} = ?")
            params.append(str(value))
    return where, tuple(params)


def _window(question: str) -> tuple[date | None, date | None] | None:
    """The first date window the question names (any of the five locales), or None."""
    for phrase in read_dates(question, today()):
        if not phrase.time_of_day:
            return phrase.window.start, phrase.window.end
    return None


def to_sql(question: str, project_id: str, filters: Filters | None = None) -> Query:
    """Translate a question about one project into SQL; ``?`` binds ``project_id``.

    ``filters`` are ANDed last, their values bound after ``project_id``.
    """
    text = fold(question)
    entity = _entity(text)
    where = ["project_id = ?"]
    if (record := RECORD_ID.search(text)) is not None:
        # The pattern admits letters, a dash and six digits only: safe as a literal.
        where.append(f"id = '{record.group(0)}'")
    elif entity.table == "annotations":
        where.extend(_annotation_filters(text))
    if entity.table != "levels" and (level := LEVEL.search(text)):
        number = next(int(g) for g in level.groups() if g)
        where.insert(min(len(where), 3), f"level_number = {number}")
    if entity.date_column and (window := _window(question)) is not None:
        # "in March 2026", "since April", "last week", "先週": on the clock Beacon reads too.
        start, end = window
        if start is not None:
            where.append(f"{entity.date_column} >= '{start.isoformat()}'")
        if end is not None:  # inclusive of the whole last day, whatever the column's time
            where.append(f"{entity.date_column} < '{(end + timedelta(days=1)).isoformat()}'")
    extra, bound = _structured(entity, filters or Filters())
    clause = " AND ".join([*where, *extra])
    params = (project_id, *bound)
    if _HOW_MANY.search(text):
        sql = f"SELECT COUNT(*) AS count FROM {entity.table} WHERE {clause}"
        return Query(sql, params, True, entity.table, "COUNT", "count")
    order = "number" if entity.table == "levels" else "id"
    sql = f"SELECT {', '.join(entity.columns)} FROM {entity.table} WHERE {clause} ORDER BY {order}"
    return Query(sql, params, False, entity.table)


def with_row_cap(query: Query, cap: int) -> Query:
    """Inject the upstream's row cap into list SQL; single-value aggregates are exempt."""
    if cap < 1:
        raise ValueError(f"row cap must be positive, got {cap}")
    if query.is_aggregate:
        return query
    return replace(query, sql=f"{query.sql} LIMIT {cap}")
