"""From the model's answer to what may be published: guard, slots, fallback, audit.

The model's text goes through the narration guard a sentence at a time
(``beacon.adjudication.guard.judge``) against the turn's standing — its counted
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

from beacon.adjudication import AbsenceCause
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.judge import Drop, judge
from beacon.adjudication.guard.slots import (
    SLOT,
    AuditEntry,
    render_sentence,
    render_slot,
    split_sentences,
)
from beacon.adjudication.guard.standing import Standing, build_standing, strings_in
from beacon.lexicon.copy import say
from beacon.lexicon.levels import level_numbers
from beacon.lexicon.narration import NOTHING_SAYABLE
from beacon.loop.evidence import Evidence
from beacon.loop.fallback_narrator import narrate
from beacon.wire.audit import AuditKind

# Japanese runs its sentences on after 。; the other locales put a space between.
SENTENCE_JOINER: Mapping[str, str] = {"ja": ""}


@dataclass(frozen=True, slots=True)
class ShownSpan:
    """A rendered ``{{shown:slot}}`` in the published text (code-point offsets, end
    exclusive): the number, and the sentence it sits in. The wire's ``done.shown_spans``."""

    slot: str
    start: int
    end: int
    sentence_start: int
    sentence_end: int

    def moved(self, by: int) -> ShownSpan:
        return ShownSpan(
            self.slot,
            self.start + by,
            self.end + by,
            self.sentence_start + by,
            self.sentence_end + by,
        )

    def wire(self) -> dict[str, str | int]:
        return {
            "slot": self.slot,
            "start": self.start,
            "end": self.end,
            "sentence_start": self.sentence_start,
            "sentence_end": self.sentence_end,
        }


@dataclass(frozen=True, slots=True)
class Narration:
    text: str
    drops: tuple[Drop, ...]
    slot_audit: tuple[AuditEntry, ...]
    fallback: bool  # the model's narration was wholly dropped; code's was published
    shown: tuple[ShownSpan, ...] = ()

    def audit_records(self) -> list[dict[str, str]]:
        rows = [d.record() for d in self.drops]
        rows += [{"kind": e.kind, "rule": e.slot or "", "token": e.detail} for e in self.slot_audit]
        if self.fallback:
            rows.append({"kind": AuditKind.NARRATION_FALLBACK, "rule": "all_dropped", "token": ""})
        return rows


_DATE_OR_TIME = re.compile(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}:\d{2}\b")


def bound_values(arguments: Mapping[str, Any]) -> Iterator[str]:
    """The dates and times of day inside a call's arguments, and nothing else of them."""
    for text in strings_in(dict(arguments)):
        yield from (m.group() for m in _DATE_OR_TIME.finditer(text))


def count_of(item: Evidence) -> Counted:
    """The one record a counted result reaches the guard in: its slot's rendering and
    its standing both read this, built once a turn from the count verdict."""
    verdict = item.verdict
    grounded_zero = verdict.complete and verdict.value == 0
    searched_empty = item.absence is not None and item.absence.cause is AbsenceCause.ZERO_FROM_START
    # A set code read from every record (its leaders, its latest day) is whole whatever
    # the page showed: "counted over every matching record" is code's claim, and true.
    read_whole = item.enumeration is not None and item.enumeration.complete
    return Counted(
        item.slot,
        verdict.grade,
        verdict.value,
        len(item.citations),
        has_more=verdict.has_more and not read_whole,
        emptiness=item.emptiness,
        may_say_none=grounded_zero or searched_empty,
        unapplied=tuple(c.phrase for c in (*item.scope.unapplied, *item.scope.added)),
    )


def turn_standing(
    counts: Iterable[Counted],
    evidence: Sequence[Evidence],
    directory: Iterable[Mapping[str, str]],
    view_context: Mapping[str, Any] | None,
) -> Standing:
    """The turn's counts (``count_of`` each counted result) and every non-count value its
    evidence carries:
    card ids, titles, levels and dates, enumerated field values, project names, the
    host's view. The arguments a call went out with are the planner's words, not the
    upstream's: they protect only what is bound to a field — a level in a level's
    forms, a date in a date's, a time of day as a time — never a bare string."""
    counted = [e for e in evidence if e.counted]
    values: list[str] = []
    levels: list[int] = list(level_numbers(view_context or {}))
    for item in counted:
        for card in item.citations:
            values.extend(v for v in (card.id, card.title, card.level, card.date) if v)
        values.extend(bound_values(item.arguments))
        levels.extend(level_numbers(item.arguments))
        if item.enumeration is not None:
            values.extend(str(m) for m in item.enumeration.members)
    for project in directory:
        values.extend(strings_in(dict(project)))
    values.extend(strings_in(view_context or {}))
    return build_standing(counts, values, levels)


def _shown_spans(
    sentence: str, rendered: str, at: int, slots: Mapping[str, Counted], locale: str
) -> Iterator[ShownSpan]:
    """Where each shown slot of ``sentence`` landed in ``rendered`` (which starts at
    ``at`` in the published text). Rendering replaces each slot by its phrase and
    nothing else, so a slot's place moves by what the slots before it grew or shrank."""
    body_start = at + len(rendered) - len(rendered.lstrip())
    body_end = at + len(rendered.rstrip())
    grown = 0
    for match in SLOT.finditer(sentence):
        kind, slot_id = match.group(1), match.group(2)
        phrase = render_slot(kind, slots[slot_id], locale) or ""
        start = at + match.start() + grown
        if kind == "shown":
            yield ShownSpan(slot_id, start, start + len(phrase), body_start, body_end)
        grown += len(phrase) - len(match.group())


@dataclass(frozen=True, slots=True)
class _Published:
    text: str
    drops: tuple[Drop, ...]
    audit: tuple[AuditEntry, ...]
    shown: tuple[ShownSpan, ...]


# Past this much streamed text the answer is judged after its end only: what is
# judged early is kept per sentence, and a long answer is not worth the memory.
# A sentence still open past OPEN_CHARS stops it too: each new chunk that might end
# a sentence splits the open text again, and that must stay cheap whatever the
# model streams (a 16 KiB run of one-character chunks, no sentence ever ending).
PREJUDGE_CHARS = 16_384
OPEN_CHARS = 2_048
_FULL_STOPS = "。！？"  # end a sentence with no space after them
# An open sentence whose text so far ends as a sentence can ("cards.") is judged at
# once: the answer may end there, and then its last sentence is judged already. One
# that goes on ("3." of "3.5") wastes that verdict, so these early verdicts stop
# after this many characters judged (a stream of "1." chunks, never a space).
_MAY_END = frozenset(".!?。！？")
SPECULATE_CHARS = 4_096


class Prejudged:
    """The guard's verdicts on an answer's sentences, made while it streams.

    ``judge`` is a pure function of the sentence, the turn's standing and the
    locale, so a sentence judged as soon as it is complete (the text after it has
    begun) gets the verdict it would get at the end: the guard then reads the kept
    verdict of every sentence the finished text splits into alike, and judges the
    rest (the last sentence, always) as before. A real model streams for seconds,
    so only the last sentence's judging is left between its last token and the
    answer's publication.
    """

    __slots__ = ("_locale", "_open", "_seen", "_speculated", "_standing", "verdicts")

    def __init__(self, standing: Standing, locale: str) -> None:
        self._standing, self._locale = standing, locale
        self._open = ""  # text after the last complete sentence
        self._seen = 0
        self._speculated = 0  # characters of open sentences judged (_MAY_END)
        self.verdicts: dict[str, Drop | None] = {}

    def warm(self) -> None:
        """Build what judging reads once a turn (the protected values and their folded
        forms) now, while the model works, rather than at the first sentence."""
        _ = self._standing.forms

    def heard(self, text: str) -> None:
        self._seen += len(text)
        if self._seen > PREJUDGE_CHARS:
            return
        # A sentence ends at a space, a newline or a full stop of its own (after which
        # the next character ends it): only such a chunk, or one after such a stop,
        # splits the open text again.
        ends_after = self._open != "" and self._open[-1] in _FULL_STOPS
        self._open += text
        if ends_after or any(c.isspace() or c in _FULL_STOPS for c in text):
            *complete, self._open = split_sentences(self._open) or [""]
            for sentence in complete:
                if sentence not in self.verdicts:
                    self.verdicts[sentence] = judge(sentence, self._standing, self._locale)
        if len(self._open) > OPEN_CHARS:
            self._seen = PREJUDGE_CHARS + 1
        elif (
            self._open[-1:] in _MAY_END
            and self._open not in self.verdicts
            and self._speculated < SPECULATE_CHARS
        ):
            self._speculated += len(self._open)
            self.verdicts[self._open] = judge(self._open, self._standing, self._locale)

    def judge(self, sentence: str, standing: Standing, locale: str) -> Drop | None:
        if standing is self._standing and locale == self._locale and sentence in self.verdicts:
            return self.verdicts[sentence]
        return judge(sentence, standing, locale)


def _publish(
    text: str,
    slots: Mapping[str, Counted],
    standing: Standing,
    locale: str,
    prejudged: Prejudged | None = None,
) -> _Published:
    """The guard a sentence at a time, then the kept sentences' slots rendered (what
    ``GuardedStream`` yields for the whole text), with where each shown slot landed;
    the result is stripped and the spans moved with it."""
    out: list[str] = []
    drops: list[Drop] = []
    audit: list[AuditEntry] = []
    shown: list[ShownSpan] = []
    at = 0
    verdict = prejudged.judge if prejudged is not None else judge
    for sentence in split_sentences(text):
        drop = verdict(sentence, standing, locale)
        if drop is not None:
            drops.append(drop)
            continue
        rendered, entries = render_sentence(sentence, slots, locale)
        audit.extend(entries)
        if rendered:
            shown.extend(_shown_spans(sentence, rendered, at, slots, locale))
        out.append(rendered)
        at += len(rendered)
    published = "".join(out)
    lead = len(published) - len(published.lstrip())
    return _Published(
        published.strip(), tuple(drops), tuple(audit), tuple(s.moved(-lead) for s in shown)
    )


def guarded(
    text: str,
    slots: Mapping[str, Counted],
    standing: Standing,
    locale: str,
    *,
    records: Sequence[Mapping[str, Any]],
    projects: Mapping[str, str],
    question: str = "",
    prejudged: Prejudged | None = None,
) -> Narration:
    model = _publish(text, slots, standing, locale, prejudged)
    if model.text:
        return Narration(model.text, model.drops, model.audit, False, model.shown)
    # Nothing the model wrote may be said: code narrates the same anchors, and its
    # sentences pass the same guard (they are built never to trip it).
    said = narrate(records, locale, projects=projects, question=question, slots=slots)
    built = SENTENCE_JOINER.get(locale, " ").join(said)
    code = _publish(built, slots, standing, locale)
    drops = (*model.drops, *code.drops)
    audit = (*model.audit, *code.audit)
    if not code.text:
        return Narration(say(NOTHING_SAYABLE, locale), drops, audit, True)
    return Narration(code.text, drops, audit, True, code.shown)
