"""From the model's answer to what may be published: guard, slots, fallback, audit.

The model's text goes through the narration guard a sentence at a time
(``beacon.adjudication.guard``) against the turn's standing — its counted
sources and the non-count values its evidence carries. What survives has its
slots rendered; if nothing survives, the narration code builds from the same
anchors is published instead (guarded too), so a model that ignores every
instruction leaves the user with the embedded narrator, never with silence.
Every verdict becomes an audit row saved with the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from beacon.adjudication import AbsenceCause, Grade, SlotValue
from beacon.adjudication.guard import Drop, GuardedStream
from beacon.adjudication.slots import AuditEntry
from beacon.adjudication.standing import Source, Standing, build_standing, strings_in
from beacon.loop.copy import say
from beacon.loop.evidence import Evidence
from beacon.loop.narrator import NOTHING_SAYABLE, narrate


@dataclass(frozen=True, slots=True)
class Narration:
    text: str
    drops: tuple[Drop, ...]
    slot_audit: tuple[AuditEntry, ...]
    fallback: bool  # the model's narration was wholly dropped; code's was published

    def audit_records(self) -> list[dict[str, str]]:
        rows = [d.record() for d in self.drops]
        rows += [{"kind": e.kind, "rule": e.slot or "", "token": e.detail} for e in self.slot_audit]
        if self.fallback:
            rows.append({"kind": "narration_fallback", "rule": "all_dropped", "token": ""})
        return rows


def _levels(value: Any) -> Iterator[int]:
    """Level numbers named by structured fields (``level_number: 3``), at any depth."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "level_number" and isinstance(item, int) and not isinstance(item, bool):
                yield item
            else:
                yield from _levels(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _levels(item)


_DATE_OR_TIME = re.compile(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}:\d{2}\b")


def bound_values(arguments: Mapping[str, Any]) -> Iterator[str]:
    """The dates and times of day inside a call's arguments, and nothing else of them."""
    for text in strings_in(dict(arguments)):
        yield from (m.group() for m in _DATE_OR_TIME.finditer(text))


def source(item: Evidence) -> Source:
    verdict = item.verdict
    grounded_zero = verdict.grade is Grade.EXACT and verdict.value == 0 and not verdict.has_more
    searched_empty = item.absence is not None and item.absence.cause is AbsenceCause.ZERO_FROM_START
    # A set code read from every record (its leaders, its latest day) is whole whatever
    # the page showed: "counted over every matching record" is code's claim, and true.
    read_whole = item.enumeration is not None and item.enumeration.complete
    return Source(
        item.slot,
        verdict.grade,
        verdict.value,
        verdict.has_more and not read_whole,
        item.emptiness,
        may_say_none=grounded_zero or searched_empty,
        shown=len(item.citations),
    )


def turn_standing(
    evidence: Sequence[Evidence],
    directory: Iterable[Mapping[str, str]],
    view_context: Mapping[str, Any] | None,
) -> Standing:
    """The turn's counted sources and every non-count value its evidence carries:
    card ids, titles, levels and dates, enumerated field values, project names, the
    host's view. The arguments a call went out with are the planner's words, not the
    upstream's: they protect only what is bound to a field — a level in a level's
    forms, a date in a date's, a time of day as a time — never a bare string."""
    counted = [e for e in evidence if e.counted]
    values: list[str] = []
    levels: list[int] = list(_levels(view_context or {}))
    for item in counted:
        for card in item.citations:
            values.extend(v for v in (card.id, card.title, card.level, card.date) if v)
        values.extend(bound_values(item.arguments))
        levels.extend(_levels(item.arguments))
        if item.enumeration is not None:
            values.extend(str(m) for m in item.enumeration.members)
    for project in directory:
        values.extend(strings_in(dict(project)))
    values.extend(strings_in(view_context or {}))
    return build_standing([source(e) for e in counted], values, levels)


def guarded(
    text: str,
    slots: Mapping[str, SlotValue],
    standing: Standing,
    locale: str,
    *,
    records: Sequence[Mapping[str, Any]],
    projects: Mapping[str, str],
    question: str = "",
) -> Narration:
    stream = GuardedStream(slots, standing, locale)
    published = stream.feed(text) + stream.flush()
    if published.strip():
        # A dropped last sentence leaves its predecessor's trailing space behind.
        return Narration(published.rstrip(), tuple(stream.drops), tuple(stream.audit), False)
    # Nothing the model wrote may be said: code narrates the same anchors, and its
    # sentences pass the same guard (they are built never to trip it).
    code = GuardedStream(slots, standing, locale)
    built = " ".join(narrate(records, locale, projects=projects, question=question))
    fallback = code.feed(built) + code.flush()
    if not fallback.strip():
        fallback = say(NOTHING_SAYABLE, locale)
    drops = (*stream.drops, *code.drops)
    return Narration(fallback.strip(), drops, (*stream.audit, *code.audit), True)
