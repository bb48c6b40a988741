"""SSE frames of ``POST /v1/turns`` (SPEC §4).

Every frame is ``event: <type>`` / ``id: <seq>`` / ``data: <json>`` and its
data carries ``turn_id`` and ``seq``. The panel, the CLI and the tests read
exactly these field names.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

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
TERMINAL_FRAMES: frozenset[str] = frozenset({"done", "error"})

Grade = Literal["EXACT", "LOWER_BOUND", "SHOWN", "UNKNOWN"]


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
    deep_link: str
    thumbnail: str | None = None
    level: str | None = None
    date: str | None = None


class CountEntry(_Wire):
    """Numbers only, no sentences: the panel's count line is derived from these."""

    source: str
    slot: str
    displayed: int
    total: int | None
    total_is_lower_bound: bool
    has_more: bool
    grade: Grade
    # Whether `POST /v1/turns/{turn_id}/more` with this slot can fetch another page.
    more: bool = False


class StartData(_Wire):
    turn_id: str
    seq: int
    session_id: str | None
    mode: Literal["chat", "single"]


class PlanData(_Wire):
    turn_id: str
    seq: int
    round: int
    # correct_aggregate: the one corrective round a "how many" question earns (loop/aggregate.py)
    purpose: Literal["context", "gather", "correct_aggregate"]
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
    kind: Literal["counter_question", "denied", "disclosure", "failure", "absence"]
    text: str
    options: list[dict[str, Any]] = []


class HeartbeatData(_Wire):
    turn_id: str
    seq: int


class DoneData(_Wire):
    turn_id: str
    seq: int
    finish_reason: str
    answer: str


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
