"""A session's narrowing, across turns: offer, choose, apply, promote, release.

The scope lives in the session (dispatch owns it) and is spread last over
whatever the model asks, so "search everything" from the model cannot widen
it. Only the user widens it: by asking something else, or — after a narrowed
search found nothing — automatically at the end of that turn.
"""

from __future__ import annotations

import calendar
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from beacon.adjudication import GateEvent, GateState, Grade, apply_scope, gate_step
from beacon.adjudication.narrowing import offerable_axes
from beacon.lexicon.copy import (
    AXIS_NAMES,
    AXIS_OR,
    CATEGORY_LABEL,
    CATEGORY_REPLY,
    COMPANY_LABEL,
    COMPANY_REPLY,
    DATE_LABEL,
    DATE_REPLY,
    KIND_LABEL,
    KIND_NAMES,
    KIND_REPLY,
    LEVEL_LABEL,
    LEVEL_REPLY,
    NARROW_HINT,
    STATUS_LABEL,
    STATUS_NAMES,
    STATUS_REPLY,
    say,
)
from beacon.lexicon.months import MONTHS as MONTH_NAMES
from beacon.loop.evidence import Evidence
from beacon.store.records import NarrowingOption, NarrowingRecord
from beacon.wire.tools import PAGE_ARGUMENT, FilterAxis, tool_spec

MAX_OPTIONS = 3
_LEVEL = re.compile(r"(\d+)")
_MONTH = re.compile(r"^(\d{4})-(\d{2})")
_DATE_FIELDS = ("created_at", "captured_at", "taken_at", "issued_on", "date")


@dataclass(frozen=False, slots=True)  # steps through the gate's states during a turn
class Narrowing:
    state: GateState = GateState.IDLE
    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    scope: dict[str, Any] = field(default_factory=dict)
    options: list[dict[str, Any]] = field(default_factory=list)

    def step(self, event: GateEvent) -> None:
        row = gate_step(self.state, event)
        if row.legal:
            self.state = row.target

    @property
    def active(self) -> bool:
        return self.state is GateState.NARROWED and bool(self.scope)

    def record(self) -> NarrowingRecord | None:
        if self.state in (GateState.IDLE, GateState.RELEASED):
            return None
        return NarrowingRecord(
            state=self.state,
            tool=self.tool,
            arguments=self.arguments,
            scope=self.scope,
            options=tuple(NarrowingOption.model_validate(o) for o in self.options),
        )


def resume(record: NarrowingRecord | None, message: str) -> Narrowing:
    """The session's narrowing for this turn: an option's reply applies it."""
    if record is None:
        return Narrowing()
    narrowing = Narrowing(
        record.state,
        record.tool,
        dict(record.arguments),
        dict(record.scope),
        [o.model_dump(mode="json") for o in record.options],
    )
    chosen = next(
        (o for o in narrowing.options if o["reply"].strip().lower() == message.strip().lower()),
        None,
    )
    if chosen is not None and narrowing.state is GateState.OFFERED:
        narrowing.step(GateEvent.CHOOSE)
        narrowing.scope = dict(chosen["scope"])
        return narrowing
    narrowing.step(GateEvent.NEW_QUESTION)
    return Narrowing()


def scoped_arguments(tool: str, arguments: dict[str, Any], narrowing: Narrowing) -> dict[str, Any]:
    """The scope keys this tool accepts, spread last over the model's arguments."""
    if not narrowing.active:
        return arguments
    spec = tool_spec(tool)
    keys = spec.scope_keys if spec is not None else ()
    return apply_scope(arguments, {k: v for k, v in narrowing.scope.items() if k in keys})


def _axes(tool: str) -> tuple[FilterAxis, ...]:
    """The axes ``tool`` accepts (its row in the tool table), in tie-break order."""
    spec = tool_spec(tool)
    return spec.filter_axes if spec is not None else ()


# One axis value of one returned record; a month is (year, month).
Value = int | str | tuple[int, int]


def _level(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and (m := _LEVEL.search(value)):
        return int(m.group(1))
    return None


def _month(value: object) -> tuple[int, int] | None:
    if isinstance(value, str) and (m := _MONTH.match(value)) and 1 <= int(m.group(2)) <= 12:
        return int(m.group(1)), int(m.group(2))
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _record_date(record: Mapping[str, Any]) -> object:
    for name in _DATE_FIELDS:
        value = record.get(name)
        if isinstance(value, str):
            return value
    return None


Tally = Callable[[Sequence[Mapping[str, Any]]], "Counter[Value]"]


def _each(read: Callable[[Mapping[str, Any]], Value | None]) -> Tally:
    """An axis tallied by reading its value off every row."""
    return lambda rows: Counter(v for row in rows if (v := read(row)) is not None)


def _months(date_of: Callable[[Mapping[str, Any]], object]) -> Tally:
    """The date axis: a month is read off a date's first seven characters, so each
    distinct ``YYYY-MM`` is parsed once, not every row's date (3000 rows' dates were
    most of the narrowing's cost)."""

    def tally(rows: Sequence[Mapping[str, Any]]) -> Counter[Value]:
        prefixes = Counter(d[:7] for row in rows if isinstance(d := date_of(row), str))
        found: Counter[Value] = Counter()
        for prefix, count in prefixes.items():
            if (month := _month(prefix)) is not None:
                found[month] += count
        return found

    return tally


# Tallying an axis's values over returned records, and over cards (a card keeps
# only its level and date: the other axes need the records' typed fields).
_FROM_RECORD: Mapping[str, Tally] = {
    "level": _each(lambda r: _level(r.get("level_number"))),
    "date_range": _months(_record_date),
    "status": _each(lambda r: _text(r.get("status"))),
    "category": _each(lambda r: _text(r.get("category"))),
    "company": _each(lambda r: _text(r.get("company"))),
    "kind": _each(lambda r: _text(r.get("kind"))),
}
_FROM_CARD: Mapping[str, Tally] = {
    "level": _each(lambda c: _level(c.get("level"))),
    "date_range": _months(lambda c: c.get("date")),
}


def _tallies(
    evidence: Evidence, records: Sequence[Mapping[str, Any]] | None
) -> tuple[int, dict[str, Counter[Value]]]:
    """How many records came back, and the values each offerable axis takes on them."""
    if records is None:
        rows: Sequence[Mapping[str, Any]] = [
            *(c.model_dump() for c in evidence.citations),
            *evidence.unshown,
        ]
        readers = _FROM_CARD
    else:
        rows, readers = records, _FROM_RECORD
    tallies: dict[str, Counter[Value]] = {}
    # An axis the call already narrowed is not offered again ("photos on level 7" is
    # not asked "which level?"): its arguments went out with a value.
    sent = {
        axis.name
        for axis in _axes(evidence.tool)
        if any(evidence.arguments.get(key) is not None for key in axis.arguments)
    }
    for axis in offerable_axes(evidence.tool, tuple(readers)):
        if axis in sent:
            continue
        found = readers[axis](rows)
        if found:
            tallies[axis] = found
    return len(rows), tallies


def _ranked_axes(
    evidence: Evidence, records: Sequence[Mapping[str, Any]] | None
) -> list[tuple[str, list[Value]]]:
    """Grounded axes, best split first, each with its values most common first.

    An axis splits the sample when it takes two values or more on it; among those,
    the better split is the one whose offered options cover more of what came
    back. Ties go to the axis the tool's row lists first.
    """
    returned, tallies = _tallies(evidence, records)
    order = [axis.name for axis in _axes(evidence.tool)]
    ranked: list[tuple[tuple[int, float, int], str, list[Value]]] = []
    for axis, found in tallies.items():
        values = sorted(found, key=lambda v: (-found[v], v))
        covered = sum(found[v] for v in values[:MAX_OPTIONS]) / max(returned, 1)
        key = (0 if len(values) > 1 else 1, -covered, order.index(axis))
        ranked.append((key, axis, values))
    ranked.sort(key=lambda entry: entry[0])
    return [(axis, values) for _, axis, values in ranked]


def _named(names: Mapping[str, Mapping[str, str]], value: str, locale: str) -> str:
    locales = names.get(value)
    return locales.get(locale, locales["en"]) if locales else value


# Axes whose value is a word: its names by locale (a closed vocabulary; the
# upstream's own values, such as a company, are quoted as they came back), and
# the option's label and reply.
_WORDED: Mapping[
    str, tuple[Mapping[str, Mapping[str, str]], Mapping[str, str], Mapping[str, str]]
] = {
    "status": (STATUS_NAMES, STATUS_LABEL, STATUS_REPLY),
    "kind": (KIND_NAMES, KIND_LABEL, KIND_REPLY),
    "category": ({}, CATEGORY_LABEL, CATEGORY_REPLY),
    "company": ({}, COMPANY_LABEL, COMPANY_REPLY),
}


def _option(tool: str, axis: str, value: Value, locale: str) -> dict[str, Any]:
    """One option's copy and the scope that really narrows ``tool`` to ``value``,
    in the arguments the tool's row names for the axis."""
    spec = tool_spec(tool)
    assert spec is not None  # only a tool's own axes are ranked
    arguments = next(a.arguments for a in spec.filter_axes if a.name == axis)
    scope: dict[str, Any]
    if axis == "level":
        assert isinstance(value, int)
        label, reply = say(LEVEL_LABEL, locale, n=value), say(LEVEL_REPLY, locale, n=value)
        scope = {arguments[0]: value}
    elif axis == "date_range":
        assert isinstance(value, tuple)
        year, month = value
        last = calendar.monthrange(year, month)[1]
        words = {
            "year": year,
            "month": month,
            "month_name": MONTH_NAMES.get(locale, MONTH_NAMES["en"])[month - 1],
        }
        label, reply = say(DATE_LABEL, locale, **words), say(DATE_REPLY, locale, **words)
        date_from, date_to = arguments
        scope = {
            date_from: f"{year:04d}-{month:02d}-01",
            date_to: f"{year:04d}-{month:02d}-{last:02d}",
        }
    else:
        assert isinstance(value, str)
        names, label_table, reply_table = _WORDED[axis]
        word = _named(names, value, locale)
        label, reply = say(label_table, locale, value=word), say(reply_table, locale, value=word)
        scope = {arguments[0]: value}
    if spec.narrowed_page is not None:
        scope[PAGE_ARGUMENT] = spec.narrowed_page
    return {"label": label, "reply": reply, "scope": scope}


def offer_narrowing(
    evidence: Evidence, locale: str, records: Sequence[Mapping[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Counter-question options on the axis that splits the sample best.

    Only axes the tool accepts (its row's filter axes), only values that came back: the
    cards' levels and months, or — given the page's ``records`` — their typed
    fields too (status, category, company, kind). At most ``MAX_OPTIONS``, the
    most common value first and recommended; no count is promised.
    """
    ranked = _ranked_axes(evidence, records)
    if not ranked:
        return []
    axis, values = ranked[0]
    options = [_option(evidence.tool, axis, value, locale) for value in values[:MAX_OPTIONS]]
    return [
        {"label": o["label"], "reply": o["reply"], "recommended": i == 0, "scope": o["scope"]}
        for i, o in enumerate(options)
    ]


def narrowing_axes(
    evidence: Evidence, records: Sequence[Mapping[str, Any]] | None = None
) -> tuple[str, ...]:
    """The axes this sample could be narrowed by, best split first."""
    return tuple(axis for axis, _ in _ranked_axes(evidence, records))


def narrowing_hint(
    evidence: Evidence, locale: str, records: Sequence[Mapping[str, Any]] | None = None
) -> str | None:
    """How to narrow a sample when no option can be chosen (single mode), or None."""
    axes = [_named(AXIS_NAMES, axis, locale) for axis in narrowing_axes(evidence, records)]
    if not axes:
        return None
    joined = axes[0] if len(axes) == 1 else ", ".join(axes[:-1]) + say(AXIS_OR, locale) + axes[-1]
    return say(NARROW_HINT, locale, axes=joined)


def is_sample(evidence: Evidence) -> bool:
    verdict = evidence.verdict
    return bool(evidence.citations) and (verdict.grade is Grade.LOWER_BOUND or verdict.has_more)


def first_sample(evidence: Sequence[Evidence]) -> Evidence | None:
    return next((e for e in evidence if e.counted and not e.denied and is_sample(e)), None)
