"""The SSE frame FSM as data: 6 states × 10 frame types = 60 rows.

The emitter consults this table for every frame, so an illegal ordering
raises inside the process and never reaches a client. Illegal rows that
clients or models have produced elsewhere carry their own names. A stream that
closes before its terminal is the client's to name: `unterminated` in the
panel's state table (beacon/panel/state_table.js).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from beacon.adjudication.tables import build_rows
from beacon.wire.frames import FRAME_TYPES, FrameType


class TurnState(StrEnum):
    IDLE = "idle"  # nothing sent yet
    STARTED = "started"  # `start` sent
    GATHERING = "gathering"  # planning and tool calls under way
    REFERENCED = "referenced"  # the structured channel is fixed
    STREAMING = "streaming"  # narration under way
    TERMINATED = "terminated"  # `done` or `error` sent


FRAME_EVENTS: tuple[FrameType, ...] = FRAME_TYPES


@dataclass(frozen=True, slots=True)
class FrameRow:
    id: str
    source: TurnState
    event: str
    target: TurnState
    legal: bool
    side_effect: str


T = TurnState
_GATHER = ("plan", "tool_call", "tool_result")
# (source, event) -> (target, side effect); everything else is illegal.
_LEGAL: dict[tuple[TurnState, str], tuple[TurnState, str]] = {
    (T.IDLE, "start"): (T.STARTED, "register the turn for reattach"),
    (T.STARTED, "notice"): (T.STARTED, "show the notice"),
    (T.STARTED, "heartbeat"): (T.STARTED, "keep the connection warm"),
    (T.STARTED, "references"): (T.REFERENCED, "fix citations and counts"),
    (T.STARTED, "error"): (T.TERMINATED, "persist the failure, close the stream"),
    **{(T.STARTED, e): (T.GATHERING, "record the gathering step") for e in _GATHER},
    **{(T.GATHERING, e): (T.GATHERING, "record the gathering step") for e in _GATHER},
    (T.GATHERING, "notice"): (T.GATHERING, "show the notice"),
    (T.GATHERING, "heartbeat"): (T.GATHERING, "keep the connection warm"),
    (T.GATHERING, "references"): (T.REFERENCED, "fix citations and counts"),
    (T.GATHERING, "error"): (T.TERMINATED, "persist the failure, close the stream"),
    (T.REFERENCED, "delta"): (T.STREAMING, "append narration"),
    (T.REFERENCED, "notice"): (T.REFERENCED, "show the notice"),
    (T.REFERENCED, "heartbeat"): (T.REFERENCED, "keep the connection warm"),
    (T.REFERENCED, "done"): (T.TERMINATED, "the saved turn is published"),
    (T.REFERENCED, "error"): (T.TERMINATED, "persist the failure, close the stream"),
    (T.STREAMING, "delta"): (T.STREAMING, "append narration"),
    (T.STREAMING, "notice"): (T.STREAMING, "show the notice"),
    (T.STREAMING, "heartbeat"): (T.STREAMING, "keep the connection warm"),
    (T.STREAMING, "done"): (T.TERMINATED, "the saved turn is published"),
    (T.STREAMING, "error"): (T.TERMINATED, "persist the failure, close the stream"),
}
NAMED_ILLEGAL: dict[tuple[TurnState, str], str] = {
    (T.IDLE, "delta"): "delta-before-start",
    (T.IDLE, "done"): "done-before-start",
    (T.IDLE, "error"): "error-before-start",
    (T.IDLE, "plan"): "plan-before-start",
    (T.STARTED, "start"): "duplicate-start",
    (T.GATHERING, "start"): "duplicate-start-while-gathering",
    (T.STARTED, "delta"): "delta-before-references",
    (T.GATHERING, "delta"): "delta-while-gathering",
    (T.STARTED, "done"): "done-without-references",
    (T.GATHERING, "done"): "done-while-gathering",
    (T.REFERENCED, "plan"): "plan-after-references",
    (T.REFERENCED, "references"): "second-references",
    (T.STREAMING, "plan"): "plan-after-delta",
    (T.STREAMING, "tool_call"): "tool-call-after-delta",
    (T.STREAMING, "references"): "references-after-delta",
    (T.TERMINATED, "done"): "duplicate-terminal",
    (T.TERMINATED, "error"): "duplicate-terminal-error",
    (T.TERMINATED, "delta"): "delta-after-terminal",
    (T.TERMINATED, "heartbeat"): "heartbeat-after-terminal",
}


def _row(row_id: str, state: TurnState, event: str, target: TurnState, legal: bool) -> FrameRow:
    effect = _LEGAL[(state, event)][1] if legal else "rejected in-process"
    return FrameRow(row_id, state, event, target, legal, effect)


def _build() -> tuple[FrameRow, ...]:
    legal = {key: (f"{key[0]}-{key[1]}", target) for key, (target, _) in _LEGAL.items()}
    return build_rows(TurnState, FRAME_EVENTS, legal, NAMED_ILLEGAL, _row)


FRAME_TABLE: tuple[FrameRow, ...] = _build()
_INDEX = {(row.source, row.event): row for row in FRAME_TABLE}


def frame_step(state: TurnState, event: str) -> FrameRow:
    return _INDEX[(state, event)]
