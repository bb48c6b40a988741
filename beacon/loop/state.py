"""What one turn carries between its stages: its request, its dependencies, what it found.

The stages (``gather``, ``dispatch``, ``answer``) are functions over this state;
the orchestrator only sequences them. Frames leave through ``emit``, which
makes and queues a frame without an await in between, so frames keep their
sequence order whichever stage makes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from beacon.adjudication.constraints import Constraint
from beacon.auth.verify import Identity
from beacon.llm.client import LlmConfig
from beacon.loop.evidence import Evidence
from beacon.loop.filters import NO_FILTERS, Filters
from beacon.loop.finalize import ANSWER_DEADLINE_S
from beacon.loop.frames import Frame, FrameMaker
from beacon.loop.language import answer_locale
from beacon.loop.narrowing_state import Narrowing
from beacon.loop.offers import Offer
from beacon.loop.prompts import turn_block
from beacon.loop.sets import Extreme
from beacon.policy.audit import AuditRow
from beacon.store.turns import TurnStore
from beacon.upstream.link import UpstreamLink
from beacon.wire.turns import TurnRequest

HEARTBEAT_S = 10.0
# The longest a frame waits for a tool call's request to leave (``TurnState.holding``):
# writing a request takes a few passes of the loop; a new connection, a round trip.
HOLD_S = 0.02


async def no_pause() -> None:
    """The default pause before an upstream or model request: none."""


async def nothing_stored() -> bool:
    """Where no one stores a turn's frames (a turn run bare, in tests), its answer is
    not stored either (it rides with its frames): the turn keeps its audit rows."""
    return False


@dataclass(frozen=True, slots=True)
class TurnDeps:
    upstream: UpstreamLink
    llm: LlmConfig
    http: httpx.AsyncClient
    sentinel: int
    store: TurnStore
    answer_deadline_s: float = ANSWER_DEADLINE_S
    heartbeat_s: float = HEARTBEAT_S
    filters: Filters = NO_FILTERS  # none: every question and answer passes
    # Awaited before each upstream or model request: the server's yields to turns
    # whose stream is opening (beacon/server/openings.py).
    pause: Callable[[], Awaitable[None]] = no_pause
    # Awaited after the answer, before the upstream session closes: until the turn's
    # terminal is published (or its publishing stopped), so the session's teardown
    # (a DELETE, its tasks cancelled: ~1 ms of the loop) runs after the last frame
    # is out, not between the terminal's commit and its write (beacon/server/hub.py).
    # True when that terminal is `done`: the answer was stored with it.
    published: Callable[[], Awaitable[bool]] = nothing_stored


def new_turn_id() -> str:
    return f"t_{uuid.uuid4().hex[:20]}"


@dataclass(frozen=False, slots=True)  # the turn's working state: each stage fills it in
class TurnState:
    request: TurnRequest
    identity: Identity
    scenario: str | None
    deps: TurnDeps
    frames: FrameMaker
    session_id: str | None
    queue: asyncio.Queue[Frame] = field(default_factory=asyncio.Queue)
    evidence: list[Evidence] = field(default_factory=list)
    # Every call dispatch made or refused, context rounds' too: the turn's tool_calls rows.
    made: list[Evidence] = field(default_factory=list)
    calls: int = 0  # tool calls so far: each gets its own slot, c1, c2 …
    history: list[dict[str, Any]] = field(default_factory=list)  # the planner's transcript
    conversation: list[dict[str, Any]] = field(default_factory=list)  # the answer call's
    turn_block: str = field(default_factory=lambda: turn_block([], None))
    narrowing: Narrowing = field(default_factory=Narrowing)
    audit: list[AuditRow] = field(default_factory=list)  # PEP rows, saved with the answer
    # A safety filter's block (screen.py): narration_audit rows written when the turn ends.
    filter_audit: list[dict[str, str]] = field(default_factory=list)
    # The counted pages load-more can go on from, per slot: their page records are
    # made (and saved with the answer) while the model writes the answer.
    paged: dict[str, Evidence] = field(default_factory=dict)
    directory: list[dict[str, str]] = field(default_factory=list)  # round 0's projects
    # What the question limits its set by, read by code once the directory is known
    # (a chat's follow-up: with what it carries from the questions before it).
    constraints: tuple[Constraint, ...] = ()
    # What the question counts, as it names it ("findings"): a count of other records
    # is of another set (adjudication/record_kinds.py).
    asked_records: Constraint | None = None
    # The field the question reads from its records ("which companies", "who … the most").
    field_asked: Extreme | None = None
    # A counter-question code asked before anything ran (offers.py): the turn's answer.
    offer: Offer | None = None
    # While a tool call's request is on its way out: resolved once it is written.
    hold: asyncio.Future[None] | None = None

    @property
    def turn_id(self) -> str:
        return self.frames.turn_id

    @property
    def locale(self) -> str:
        return answer_locale(self.request)

    def emit(self, frame_type: str, **fields: Any) -> None:
        # make + put without an await between: frames queue in seq order.
        self.queue.put_nowait(self.frames.make(frame_type, **fields))

    @contextlib.contextmanager
    def holding(self, written: asyncio.Future[None]) -> Iterator[None]:
        """While a tool call goes out: the frames made meanwhile (its ``tool_call``, the
        last call's ``tool_result``) are stored and sent once its request is written
        (``written``) or the call ends, so the store's commit and the client's write
        run while the upstream works, not between the call and its request leaving."""
        held, self.hold = self.hold, written
        try:
            yield
        finally:
            self.hold = held
            if not written.done():
                written.cancel()

    async def released(self) -> None:
        """Until no tool call's request is on its way out (at most ``HOLD_S``)."""
        hold = self.hold
        if hold is not None and not hold.done():
            await asyncio.wait({hold}, timeout=HOLD_S)

    def next_slot(self) -> str:
        self.calls += 1
        return f"c{self.calls}"
