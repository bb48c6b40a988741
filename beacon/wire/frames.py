"""SSE frames of ``POST /v1/turns`` (SPEC §4).

Every frame is ``event: <type>`` / ``id: <seq>`` / ``data: <json>`` and its
data carries ``turn_id`` and ``seq``. The panel, the CLI and the tests read
exactly these field names.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

# A citation's target (its place, camera view, BIM reference and host scope) has a
# module of its own; it is re-exported here, beside the Citation that carries it.
from beacon.wire.targets import CitationTarget as CitationTarget
from beacon.wire.turns import Locale

FrameType = Literal[
    "start",
    "plan",
    "tool_call",
    "tool_result",
    "references",
    "delta",
    "notice",
    "heartbeat",
    "done",
    "error",
]
# The ten types in emission order, read by the frame table and the panel's vocabulary.
FRAME_TYPES: tuple[FrameType, ...] = get_args(FrameType)
TERMINAL_FRAMES: frozenset[str] = frozenset({"done", "error"})


class Grade(StrEnum):
    """A count's grade (SPEC §3), decided by ``beacon.adjudication.counts`` from
    structured fields; on the wire as its value ("EXACT")."""

    EXACT = "EXACT"
    LOWER_BOUND = "LOWER_BOUND"
    SHOWN = "SHOWN"
    UNKNOWN = "UNKNOWN"


# The axes a question's constraints are read on (the tool table's SCOPE_AXES).
ScopeAxis = Literal[
    "project", "level", "status", "category", "company", "kind", "date", "person", "topic"
]


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlannedCall(_Wire):
    call_id: str
    tool: str
    arguments: dict[str, Any]


class Citation(_Wire):
    id: str
    source: str
    kind: str
    title: str
    # The target as a host-neutral URI (``beacon:<kind>/<id>?project=<id>``), never a
    # host's address: a host resolves ``target``, a log or a transcript can quote this.
    deep_link: str = Field(pattern=r"^beacon:")
    target: CitationTarget
    thumbnail: str | None = None
    level: str | None = None
    date: str | None = None


class AppliedConstraint(_Wire):
    """A constraint of the question that the counted call's arguments carried."""

    axis: ScopeAxis
    value: str


class UnappliedConstraint(_Wire):
    """A constraint of the question the counted call did not apply: the count is of
    another set, and is disclosed as such (never narrated as the answer)."""

    axis: ScopeAxis
    phrase: str


class CountScope(_Wire):
    """Every constraint the question named, as code read it, against what the call sent."""

    applied: list[AppliedConstraint] = Field(default_factory=list)
    unapplied: list[UnappliedConstraint] = Field(default_factory=list)


class CountEntry(_Wire):
    """Numbers only, no sentences: the panel's count line is derived from these."""

    source: str
    slot: str
    displayed: int
    total: int | None
    total_is_lower_bound: bool
    has_more: bool
    grade: Grade
    # Additive: the count is the whole set (exact, nothing beyond it), decided once by
    # beacon.adjudication.counts.is_complete; the panel reads it, never re-derives it.
    complete: bool = False
    # Whether `POST /v1/turns/{turn_id}/more` with this slot can fetch another page.
    more: bool = False
    scope: CountScope = Field(default_factory=CountScope)


class MoreNotice(_Wire):
    """A card the load-more reply earned: a discarded stitch, the page cap, a failed page."""

    kind: Literal["disclosure", "failure"]
    text: str


class MoreReply(_Wire):
    """The body of ``POST /v1/turns/{turn_id}/more``: the next cards of one counted source.

    Not a frame stream: ``count`` replaces the slot's entry of the references
    frame; ``anomalies`` name what the page stitcher found (a discarded stitch
    adds no citations); ``notices`` are shown like notice frames.
    """

    turn_id: str
    slot: str
    citations: list[Citation]
    count: CountEntry
    anomalies: list[str] = []
    failed: bool = False
    notices: list[MoreNotice] = []


class StartData(_Wire):
    turn_id: str
    seq: int
    session_id: str | None
    mode: Literal["chat", "single"]
    # Additive: the locale the answer is written in (the request's, else the question's
    # own language), so a client that sent none ("Automatic") formats its numbers alike.
    locale: Locale | None = None


class PlanData(_Wire):
    turn_id: str
    seq: int
    round: int
    # correct_aggregate: the one corrective round a "how many" question earns (loop/aggregate.py)
    purpose: Literal["context", "gather", "correct_aggregate", "correct_scope"]
    calls: list[PlannedCall]


class ToolCallData(_Wire):
    turn_id: str
    seq: int
    call_id: str
    tool: str
    arguments: dict[str, Any]


class ToolResultData(_Wire):
    """A digest of the result, never the raw upstream payload."""

    turn_id: str
    seq: int
    call_id: str
    tool: str
    status: Literal["ok", "failure", "denied"]
    grade: Grade
    emptiness: Literal["empty", "non_empty", "unknown"]
    returned: int | None
    bytes: int


class ReferencesData(_Wire):
    turn_id: str
    seq: int
    citations: list[Citation]
    counts: list[CountEntry]
    complete: bool
    # Sets read from typed fields ("which companies …"): method "enumerate", never a search.
    sets: list[dict[str, Any]] = []


class DeltaData(_Wire):
    turn_id: str
    seq: int
    text: str


class NoticeData(_Wire):
    turn_id: str
    seq: int
    # blocked: a safety filter stopped the turn (beacon/loop/filters.py); an error follows.
    kind: Literal["counter_question", "denied", "disclosure", "failure", "absence", "blocked"]
    text: str
    options: list[dict[str, Any]] = []


class HeartbeatData(_Wire):
    turn_id: str
    seq: int


class ShownSpan(_Wire):
    """Where the answer says how many cards it shows: offsets into ``done.answer`` in
    Unicode code points, end exclusive. ``start``/``end`` cover the number a
    ``{{shown:slot}}`` slot rendered; ``sentence_start``/``sentence_end`` the sentence
    holding it (trailing whitespace excluded). A client re-renders or highlights these
    spans instead of searching the prose for a number."""

    slot: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    sentence_start: int = Field(ge=0)
    sentence_end: int = Field(ge=0)


class DoneData(_Wire):
    turn_id: str
    seq: int
    finish_reason: str
    answer: str
    # Additive (clients that predate it ignore it; frames stored before it replay
    # without it): one entry per shown slot the answer rendered, in text order.
    shown_spans: list[ShownSpan] = Field(default_factory=list)


class ErrorData(_Wire):
    turn_id: str
    seq: int
    code: str
    message: str


# Each frame type's data model: the emitter validates with it, tests read with it.
FRAME_MODELS: dict[str, type[BaseModel]] = {
    "start": StartData,
    "plan": PlanData,
    "tool_call": ToolCallData,
    "tool_result": ToolResultData,
    "references": ReferencesData,
    "delta": DeltaData,
    "notice": NoticeData,
    "heartbeat": HeartbeatData,
    "done": DoneData,
    "error": ErrorData,
}
