"""``POST /v1/turns``: a turn started as a background task, its frames streamed.

A disconnect never cancels the turn; its frames are sealed into the store and
served live to any follower of its owner (``events.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

import anyio
from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse

from beacon.llm.client import LlmConfig
from beacon.loop.frames import Frame, terminal_error
from beacon.loop.orchestrator import Turn, TurnDeps, new_turn_id
from beacon.policy.capabilities import granted_capabilities
from beacon.server.context import AppContext, Context, bearer_of, identify
from beacon.server.hub import LiveTurn, Recovery
from beacon.server.negotiation import EVENT_STREAM, serves
from beacon.server.openapi import AUTH, GUARDED, SESSION_HEADER, STARTED, ScenarioHeader, errors
from beacon.server.openings import OPENING, Opening
from beacon.server.replies import busy, not_found, store_unavailable
from beacon.server.sse import stream
from beacon.server.timing import TIMING_HEADER, Phases
from beacon.store.errors import StoreUnavailable, TurnTaken
from beacon.store.frames import OpenTurn
from beacon.store.turns import TurnStore
from beacon.telemetry import metrics
from beacon.telemetry.tracing import extract
from beacon.wire.headers import TURN_HEADER
from beacon.wire.turns import TurnRequest

router = APIRouter()


@router.post(
    "/v1/turns",
    operation_id="start_turn",
    response_class=StreamingResponse,
    responses={**STARTED, **errors(*GUARDED, 404, 406, 429)},
    dependencies=[*AUTH, Depends(serves(EVENT_STREAM))],
)
async def post_turn(
    request: Request,
    body: TurnRequest,
    context: Context,
    x_beacon_scenario: ScenarioHeader = None,
) -> Any:
    phases = Phases(request.scope.get("state", {}))
    phases.mark("edge")
    identity = identify(request)
    store = context.store
    if not store.ready():
        return store_unavailable()
    running = context.hub.running()
    if running >= context.settings.max_turns:
        # Admission control: refused now, before anything is spent, not started late.
        metrics.turn_shed()
        return busy(running)
    session_id = None
    if body.mode == "chat":
        if body.session_id is None:
            session_id = f"s_{new_turn_id()[2:]}"
        else:
            # Session ids are the server's: one nobody started is as unknown as
            # another user's, so no client can plant or claim a name.
            owner = await anyio.to_thread.run_sync(store.session_owner, body.session_id)
            if owner != identity.sub:
                return not_found("session")
            session_id = body.session_id
    phases.mark("session")
    # Last before the turn starts (a request refused above spent nothing), and
    # before any model or upstream call: a question of the day's quota.
    refused = await context.quota.admit(identity)
    if refused is not None:
        if refused.status_code == 429:
            metrics.quota_refused()
        return refused
    phases.mark("quota")
    turn_id = new_turn_id()
    settings = context.settings
    granted = granted_capabilities(identity.tiers)
    live = LiveTurn(turn_id, identity.sub, granted)
    deps = TurnDeps(
        upstream=context.link,
        llm=LlmConfig(
            settings.llm_base_url,
            settings.llm_api_key,
            settings.llm_model,
            settings.llm_timeout_s,
        ),
        http=context.client(),
        sentinel=settings.sentinel,
        store=store,
        answer_deadline_s=settings.answer_deadline_s,
        heartbeat_s=settings.heartbeat_s,
        filters=settings.filters,
        # Before each upstream or model request: turns still opening go first
        # (other turns': this one's own opening overlaps its upstream session's).
        pause=partial(context.hub.openings.wait, opening_of(request)),
        published=live.wait_ended,
    )
    turn = Turn(
        body,
        identity=identity,
        bearer=bearer_of(request),
        scenario=x_beacon_scenario,
        deps=deps,
        turn_id=turn_id,
        session_id=session_id,
        # A W3C traceparent on the request is the turn span's parent.
        trace_parent=extract(request.headers),
    )
    context.hub.start(
        live,
        turn.run(),
        _persister(context, OpenTurn(turn_id, identity.sub, session_id, body.mode, granted)),
        lambda seq: terminal_error(turn_id, seq, "save_failed", "the turn could not be saved"),
        Recovery(_recoverable, _stored_after(store, turn_id), settings.store_retry_s),
    )
    phases.mark("start")
    ids = {TURN_HEADER: turn_id} | ({SESSION_HEADER: session_id} if session_id else {})
    return stream(live.follow(0), ids | {TIMING_HEADER: phases.header()}, route="turn")


def opening_of(request: Request) -> Opening | None:
    """The request's opening (``OpeningFirst``); None where the app runs without it."""
    found = request.scope.get("state", {}).get(OPENING)
    return found if isinstance(found, Opening) else None


def _persister(
    context: AppContext, opening: OpenTurn
) -> Callable[[Sequence[Frame]], Awaitable[None]]:
    """A turn's frames to the writer; its row goes with the batch holding seq 1
    (its ``start``, or the error that ends a turn whose start the store refused),
    so nothing is committed for it before that frame."""

    def persist(frames: Sequence[Frame]) -> Awaitable[None]:
        first = any(frame.seq == 1 for frame in frames)
        return context.writer.submit(opening.turn_id, frames, opening if first else None)

    return persist


def _recoverable(exc: BaseException) -> bool:
    return isinstance(exc, (StoreUnavailable, TurnTaken))


def _stored_after(store: TurnStore, turn_id: str) -> Callable[[int], Awaitable[Any]]:
    """The turn's stored frames after a seq, the last marked terminal when the turn
    is no longer running (the status is read before the frames)."""

    async def read(after: int) -> list[tuple[int, bytes, bool]]:
        status, frames = await anyio.to_thread.run_sync(store.frames_since, turn_id, after)
        ended = status not in (None, "running")
        last = len(frames) - 1
        return [(seq, body, ended and i == last) for i, (seq, body) in enumerate(frames)]

    return read
