"""Sets from fields: "which companies …" is a field read, never a top-k search.

The members are computed in code from a typed field of *every* record the
result returned — not from the cards, which are a display sample — and
handed to the model to describe. Where the members come from stays part of
the answer: a company that appears in findings is not thereby listed in
documents. Records without the field are counted and reported, never dropped
in silence.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from beacon.lexicon.fields import ASK, COUNTED_FIELDS, HOW_MANY, HOW_MANY_AFTER, SET_FIELDS, WHO
from beacon.lexicon.words import (
    DATE_FIELDS,
    EARLIEST,
    MOST,
    PROGRESS,
    RECORDS,
    WHEN,
    WHERE,
    first_match,
    fold,
)
from beacon.loop.citations import records_of
from beacon.wire.tools import tool_spec

WHO_FIELD = "inspector"
# What a member's presence in a tool's records means (used-in vs listed-in).


def _relation(tool: str) -> str:
    """How the field's values relate to the tool's records (its row says); records in general."""
    spec = tool_spec(tool)
    return spec.relation if spec is not None and spec.relation else "appears_in_records"


@dataclass(frozen=True, slots=True)
class Enumeration:
    field: str
    members: tuple[str, ...]
    complete: bool
    relation: str
    without_field: int  # records that had no value for the field
    # "Who … the most": the members with the largest tally (ties all kept); "when … last /
    # first": the latest or earliest date. Empty unless the set is complete: a sample's
    # leader is not the population's.
    extreme: str | None = None  # most | latest | earliest | where | behind
    leaders: tuple[str, ...] = ()

    def wire(self, source: str, slot: str) -> dict[str, Any]:
        return {
            "source": source,
            "slot": slot,
            "method": "enumerate",
            "field": self.field,
            "members": list(self.members),
            "complete": self.complete,
            "relation": self.relation,
            "without_field": self.without_field,
            "extreme": self.extreme,
            "leaders": list(self.leaders),
        }


@dataclass(frozen=True, slots=True)
class Extreme:
    """A question about one end of a field: the most frequent value, or a date's end."""

    field: str
    reducer: str | None  # most | latest | earliest | where | behind; None: every value


def asked_extreme(question: str) -> Extreme | None:
    """ "Who raised the most …" (the leader of a field), "when was the last capture …"
    (the latest date of the records asked about), or None."""
    text = unicodedata.normalize("NFKC", question)
    if PROGRESS.search(text):
        return Extreme("trade", "behind")  # which trades are behind plan, from every row
    if WHERE.search(text):
        return Extreme("city", "where")  # read from the named project's own record
    if WHEN.search(text):
        kind = first_match(RECORDS, fold(text))
        field = DATE_FIELDS.get(kind[0]) if kind is not None else None
        if field is not None:
            return Extreme(field, "earliest" if EARLIEST.search(text) else "latest")
        return None
    field = asked_field(question)
    if field is not None and MOST.search(text):
        return Extreme(field, "most")
    return None


def field_question(question: str) -> Extreme | None:
    """The field a question reads from its records, and how (``reducer`` None: every
    value, "which …"); read once a turn, for every call of it."""
    extreme = asked_extreme(question)
    if extreme is not None:
        return extreme
    field = asked_field(question)
    return Extreme(field, None) if field is not None else None


def asked_field(question: str) -> str | None:
    text = unicodedata.normalize("NFKC", question)
    for field in SET_FIELDS:
        if _asked_with(ASK, field, text) or _counted(field, text):
            return field
    return WHO_FIELD if WHO.search(text) else None


def counts_members(question: str, field: str) -> bool:
    """ "How many companies …", "업체는 몇 곳", "会社は何社": the question asks for the number
    of the field's members, which code counts from a complete set (answer.member_counts)."""
    return _counted(field, unicodedata.normalize("NFKC", question))


def _asked_with(ask: str, field: str, text: str) -> bool:
    """``ask`` before the field's word, up to two words between ("which subcontractor
    companies"). A latin word ends the noun ("companies", not "companys…"); Korean and
    Japanese glue particles on (업체가, 会社が). A number after it makes it a filter."""
    return _ask_pattern(ask, field).search(text) is not None


@functools.lru_cache(maxsize=64)
def _ask_pattern(ask: str, field: str) -> re.Pattern[str]:
    noun = "(?:" + "|".join(SET_FIELDS[field]) + ")"
    pattern = rf"(?<![A-Za-zÀ-ÿ])(?:{ask})\s*(?:[^\s?]+\s+){{0,2}}?{noun}(?![A-Za-zÀ-ÿ])(?!\s*\d)"
    return re.compile(pattern, re.IGNORECASE)


def _counted(field: str, text: str) -> bool:
    """ "How many …" of a field that is not a record of its own (Korean and Japanese ask
    after the noun: "업체는 몇 곳", "会社は何社")."""
    if field not in COUNTED_FIELDS:
        return False
    return _asked_with(HOW_MANY, field, text) or _after_pattern(field).search(text) is not None


@functools.lru_cache(maxsize=16)
def _after_pattern(field: str) -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(SET_FIELDS[field]) + ")" + HOW_MANY_AFTER)


def _member(value: object) -> str | None:
    if isinstance(value, bool) or value is None or value == "":
        return None
    return str(value) if isinstance(value, str | int | float) else None


def _nested(record: dict[str, Any], field: str) -> list[dict[str, Any]]:
    """Rows a record carries in a list (a level's ``trades``) that hold the field."""
    return [
        row
        for value in record.values()
        if isinstance(value, list)
        for row in value
        if isinstance(row, dict) and field in row
    ]


def _leaders(
    records: list[dict[str, Any]], field: str, values: list[str | None], reducer: str | None
) -> tuple[str, ...]:
    """What a reducer reads from every record of a complete set (see ``Enumeration``)."""
    if reducer == "behind":
        return tuple(sorted({str(r[field]) for r in records if _behind(r)}))
    present = [v for v in values if v is not None]
    if reducer is None or not present:
        return ()
    if reducer == "where":
        return tuple(sorted(set(present)))
    if reducer == "most":
        tally = Counter(present)
        top = max(tally.values())
        return tuple(sorted(v for v, n in tally.items() if n == top))
    days = [v[:10] for v in present]  # a date's end, as a day
    return (max(days) if reducer == "latest" else min(days),)


def _behind(row: dict[str, Any]) -> bool:
    """A progress row whose actual share is under its planned share."""
    planned, actual = row.get("planned_pct"), row.get("actual_pct")
    numbers = isinstance(planned, int | float) and isinstance(actual, int | float)
    return numbers and actual < planned  # type: ignore[operator]


def enumerate_field(
    tool: str,
    result: dict[str, Any],
    field: str,
    *,
    complete: bool,
    reducer: str | None = None,
    record_id: str | None = None,
) -> Enumeration | None:
    """``record_id``: read the field of that record only ("where is Maple Clinic?")."""
    records = records_of(result)
    if record_id is not None:
        records = [r for r in records if r.get("id") == record_id]
    if records and not any(field in r for r in records):
        # The field lives one level down (progress: levels, each with its trades).
        records = [row for r in records for row in _nested(r, field)]
    if not records or not any(field in r for r in records):
        return None
    values = [_member(r.get(field)) for r in records]
    members = sorted(
        {v for v in values if v is not None}, key=lambda v: (len(v), v) if v.isdigit() else (0, v)
    )
    leaders = _leaders(records, field, values, reducer) if complete else ()
    if reducer in ("latest", "earliest", "where"):
        members = list(leaders)  # a date question names its end, not every timestamp
    return Enumeration(
        field,
        tuple(members),
        complete,
        _relation(tool),
        sum(v is None for v in values),
        reducer,
        leaders,
    )
