"""What the turn store hands back and keeps, and the refusals it raises (apart from
how it stores).

The sealed JSON records (a source's load-more record, a session's narrowing) are
frozen pydantic models: the store writes their JSON and validates it on read, so a
record that opens but does not parse is ``SealedRecordError`` (``record_unreadable``),
never a dict with a key missing further on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from beacon.adjudication import GateState, Grade
from beacon.store.errors import SealedReason, SealedRecordError, StoreError
from beacon.wire.accounting import PageSummary

if TYPE_CHECKING:
    from beacon.policy.audit import AuditRow

__all__ = [
    "AnswerRows",
    "Message",
    "NarrowingOption",
    "NarrowingRecord",
    "PageRecord",
    "SaveFailed",
    "SessionNotOwned",
    "TurnRecord",
    "parse_record",
]


class SessionNotOwned(StoreError):
    """The session exists and belongs to someone else."""

    code = "session_not_found"


class SaveFailed(StoreError):
    """The database refused to persist the answer."""

    code = "save_failed"


@dataclass(frozen=True, slots=True)
class AnswerRows:
    """A turn's answer and what it leaves behind — its sources, load-more pages, audit
    and narration rows, tool-call rows, the session's transcript lines and narrowing —
    stored whole in one commit: the commit of the frames that publish the answer
    (``TurnStore.append_frames``), so the answer is stored exactly when its ``done``
    is, or its own (``TurnStore.save_answer``)."""

    turn_id: str
    question: str
    answer: str
    session_id: str | None = None  # chat mode: the transcript it joins
    sources: Sequence[dict[str, Any]] = ()
    pages: Mapping[str, PageRecord] = field(default_factory=dict)
    audit: Sequence[AuditRow] = ()
    narrowing: tuple[str, NarrowingRecord | None] | None = None
    narration: Sequence[Mapping[str, str]] = ()
    tool_calls: Sequence[Mapping[str, Any]] = ()


@dataclass(frozen=True, slots=True)
class Message:
    turn_id: str
    role: str
    text: str


@dataclass(frozen=True, slots=True)
class TurnRecord:
    id: str
    session_id: str | None
    owner: str
    mode: str
    status: str
    # What its starter's token granted; None for a row made before it was kept.
    granted: frozenset[str] | None = None


class _Sealed(BaseModel):
    # Unknown keys are ignored: a record written by a later version still opens.
    model_config = ConfigDict(frozen=True, extra="ignore")


class PageRecord(_Sealed):
    """What load-more needs to fetch and stitch the next page of one counted source
    (one per turn and slot): the call, the upstream's cursor, the pages stitched so
    far, the card ids on screen, the packed cards of a page in hand, the turn's
    count (grade, has_more, total, scope), the reply's locale and the anchors
    load-more learned (a discarded stitch)."""

    tool: str
    arguments: dict[str, Any]
    cursor: str | None
    pages: tuple[PageSummary, ...]
    shown: tuple[str, ...]
    # A packed card (``beacon.loop.citations.pack_card``); older records kept whole cards.
    pending: tuple[list[Any] | dict[str, Any], ...] = ()
    grade: Grade
    has_more: bool
    total: int | None
    locale: str = "en"
    scope: dict[str, Any] | None = None
    anchors: tuple[dict[str, Any], ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _legacy_total(cls, data: Any) -> Any:
        # Records saved before the turn's total was kept carry it on their first page.
        if isinstance(data, dict) and "total" not in data:
            pages = data.get("pages")
            if isinstance(pages, list) and pages and isinstance(pages[0], dict):
                return {**data, "total": pages[0].get("total")}
        return data


class NarrowingOption(_Sealed):
    """One offered narrowing: its label, the reply that chooses it, and its scope."""

    label: str
    reply: str
    recommended: bool = False
    scope: dict[str, Any]


class NarrowingRecord(_Sealed):
    """A session's narrowing between turns (dispatch owns it, not the model)."""

    state: GateState
    tool: str | None = None
    arguments: dict[str, Any] = {}
    scope: dict[str, Any] = {}
    options: tuple[NarrowingOption, ...] = ()


R = TypeVar("R", bound=BaseModel)


def parse_record(kind: type[R], text: str) -> R:
    """``text`` (an opened record's JSON) as ``kind``; a record that does not parse
    is unreadable, like one that does not open."""
    try:
        return kind.model_validate_json(text)
    except ValidationError as exc:
        raise SealedRecordError(
            SealedReason.MALFORMED_RECORD, f"the {kind.__name__} does not parse"
        ) from exc
