"""The subset gate: narrowing state across turns, as a transition table.

Rows are data. Every (state, event) pair not listed as legal is illegal; the
named illegal rows are the orderings we have seen models or clients attempt.
The events are the ones the loop steps. The model widening a scope is not one:
it cannot happen, since dispatch spreads the scope last over the model's
arguments (``apply_scope``); an EXACT answer is just answered, no gate step.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from beacon.adjudication.tables import build_rows


class GateState(StrEnum):
    IDLE = "idle"  # no scope in force
    SAMPLE = "sample"  # the last answer was a sample or a lower bound
    OFFERED = "offered"  # a narrowing counter-question is pending
    NARROWED = "narrowed"  # a scope chosen by the user is in force
    COMPLETE = "complete"  # the narrowed scope came back whole: EXACT
    RELEASED = "released"  # zero after narrowing: the next search covers everything


class GateEvent(StrEnum):
    SAMPLE_RESULT = "sample_result"
    OFFER = "offer"
    CHOOSE = "choose"
    NARROWED_COMPLETE = "narrowed_complete"
    NARROWED_PARTIAL = "narrowed_partial"
    NARROWED_ZERO = "narrowed_zero"
    RELEASE = "release"
    NEW_QUESTION = "new_question"


@dataclass(frozen=True, slots=True)
class GateRow:
    id: str
    source: GateState
    event: GateEvent
    target: GateState
    legal: bool


S, E = GateState, GateEvent
LEGAL_ROWS: tuple[tuple[str, GateState, GateEvent, GateState], ...] = (
    ("idle-sample", S.IDLE, E.SAMPLE_RESULT, S.SAMPLE),
    ("idle-new-question", S.IDLE, E.NEW_QUESTION, S.IDLE),
    ("sample-offer", S.SAMPLE, E.OFFER, S.OFFERED),
    ("sample-sample-again", S.SAMPLE, E.SAMPLE_RESULT, S.SAMPLE),
    ("sample-new-question", S.SAMPLE, E.NEW_QUESTION, S.IDLE),
    ("offered-choose", S.OFFERED, E.CHOOSE, S.NARROWED),
    ("offered-new-question", S.OFFERED, E.NEW_QUESTION, S.IDLE),
    ("narrowed-complete-promotes", S.NARROWED, E.NARROWED_COMPLETE, S.COMPLETE),
    ("narrowed-partial-stays", S.NARROWED, E.NARROWED_PARTIAL, S.NARROWED),
    ("narrowed-offer-further", S.NARROWED, E.OFFER, S.OFFERED),
    ("narrowed-zero-releases", S.NARROWED, E.NARROWED_ZERO, S.RELEASED),
    ("narrowed-user-release", S.NARROWED, E.RELEASE, S.IDLE),
    ("narrowed-new-question", S.NARROWED, E.NEW_QUESTION, S.IDLE),
    ("complete-release", S.COMPLETE, E.RELEASE, S.IDLE),
    ("complete-new-question", S.COMPLETE, E.NEW_QUESTION, S.IDLE),
    ("complete-narrowed-again", S.COMPLETE, E.NARROWED_COMPLETE, S.COMPLETE),
    ("released-release-clears", S.RELEASED, E.RELEASE, S.IDLE),
    ("released-new-question", S.RELEASED, E.NEW_QUESTION, S.IDLE),
    ("released-sample", S.RELEASED, E.SAMPLE_RESULT, S.SAMPLE),
)
# Illegal orderings worth a name: each one a thing a model or client tried.
NAMED_ILLEGAL: dict[tuple[GateState, GateEvent], str] = {
    (S.IDLE, E.CHOOSE): "choose-without-an-offer",
    (S.SAMPLE, E.CHOOSE): "choose-before-the-offer",
    (S.IDLE, E.NARROWED_COMPLETE): "complete-without-a-scope",
    (S.SAMPLE, E.NARROWED_COMPLETE): "promotion-without-narrowing",
    (S.IDLE, E.OFFER): "offer-when-the-answer-is-exact",
    (S.OFFERED, E.OFFER): "second-offer-while-one-is-pending",
    (S.OFFERED, E.NARROWED_COMPLETE): "result-before-the-choice",
    (S.RELEASED, E.NARROWED_ZERO): "narrowed-zero-after-release",
}


def build_table() -> tuple[GateRow, ...]:
    legal = {(src, ev): (row_id, dst) for row_id, src, ev, dst in LEGAL_ROWS}
    return build_rows(GateState, GateEvent, legal, NAMED_ILLEGAL, GateRow)


GATE_TABLE: tuple[GateRow, ...] = build_table()
_INDEX = {(row.source, row.event): row for row in GATE_TABLE}


def gate_step(state: GateState, event: GateEvent) -> GateRow:
    """The row for (state, event); an illegal row leaves the state unchanged."""
    return _INDEX[(state, event)]
