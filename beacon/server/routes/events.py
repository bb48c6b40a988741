"""``GET /v1/turns/{turn_id}/events``: a turn's frames after a seq, to its owner.

Live from this process's hub, followed from the store when another process
drives it, replayed when it has ended; ``Last-Event-ID`` and ``after`` both
resume, and a reconnect after the terminal is a 204 (EventSource stops). Every
path decides the turn for the token as it stands; a running turn whose grant is
unknown is answered to a narrower token only after it ended.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response, StreamingResponse

from beacon.policy.capabilities import CAPABILITIES, withheld_capability
from beacon.policy.notices import denial_notice
from beacon.server.context import Context, identify
from beacon.server.follow import StoreFollowers
from beacon.server.negotiation import EVENT_STREAM, serves
from beacon.server.openapi import GUARDED, SSE, TICKET_AUTH, TurnId, errors
from beacon.server.replies import error, not_found, store_unavailable
from beacon.server.sse import ended_before, interrupted, stream
from beacon.server.ticket_edge import TICKET_PARAM
from beacon.store.records import TurnRecord
from beacon.store.turns import TurnStore
from beacon.wire.turns import LAST_EVENT_ID_PATTERN, MAX_SEQ

log = logging.getLogger(__name__)
router = APIRouter()


@router.get(
    "/v1/turns/{turn_id}/events",
    operation_id="turn_events",
    response_class=StreamingResponse,
    responses={**SSE, **errors(*GUARDED, 403, 404, 406)},
    dependencies=[*TICKET_AUTH, Depends(serves(EVENT_STREAM))],
)
async def turn_events(
    request: Request,
    turn_id: TurnId,
    context: Context,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    last_event_id: Annotated[
        str | None, Header(pattern=LAST_EVENT_ID_PATTERN, max_length=9)
    ] = None,
) -> Any:
    """A turn's frames after ``after`` (or ``Last-Event-ID``), to its owner, for the
    token as it stands: live while the turn runs, replayed once it ended, and 204
    when the client already holds them all. A running turn whose grant is unknown
    (started by an older server version during a rolling upgrade) is answered to a
    token short of any capability only once it has ended."""
    identity = identify(request)
    store = context.store
    # Present only if the edge opened it (a ticket, when sent, decides alone).
    ticketed = TICKET_PARAM in request.query_params
    if last_event_id is not None:  # ASCII digits only: "³" is a digit to str.isdigit
        after = max(after, int(last_event_id))
    live = context.hub.get(turn_id)
    if live is not None:
        if live.owner != identity.sub:
            return not_found("turn")
        # Ended here: its answer and audit rows are stored; running: its grant.
        may_use = None if live.ended else live.granted
        refused = await _refusal(store, turn_id, identity.tiers, may_use)
        if refused is not None:
            return refused
        if after and await ended_before(store, turn_id, after):
            return Response(status_code=204)
        return stream(live.follow(after), hint=ticketed)
    record = await anyio.to_thread.run_sync(store.turn, turn_id)
    if record is None or record.owner != identity.sub:
        return not_found("turn")
    # Read for the token as it stands, like load-more: a replay is all or nothing
    # (its bytes are the live stream's), so a turn that used a capability the
    # caller has lost is refused whole — and one still running, if it may yet use
    # one (what its starter was granted: its frames to come are not known).
    may_use = None
    if record.status == "running":
        # Stored as running, driven by no process here. If its process died, it
        # ends now, once, after every frame its clients received; if another
        # process drives it (a shared store), it is followed from the store.
        ended = await anyio.to_thread.run_sync(store.interrupt_running, interrupted, turn_id)
        may_use = None if turn_id in ended else record.granted
        if (
            turn_id not in ended
            and may_use is None
            and context.followers is not None
            and withheld_capability(CAPABILITIES, identity.tiers) is not None
        ):
            # Running, with no grant kept: its row was made by an older version of
            # the server (a rolling upgrade onto one database), so what it may yet
            # use is unknown. A token that grants every capability follows it live;
            # any other is answered once it has ended, decided by what it used:
            # late, never a frame it may not see.
            log.info("turn %s: its grant is unknown; a follower waits for its end", turn_id)
            record = await _once_ended(context.followers, store, turn_id)
            if record is None:
                return store_unavailable()
    refused = await _refusal(store, turn_id, identity.tiers, may_use)
    if refused is not None:
        return refused
    if record.status == "running" and context.followers is not None:
        # The first read here: a record this process cannot open is a coded
        # error now, not a stream cut after its headers.
        first = await anyio.to_thread.run_sync(store.frames_since, turn_id, after)
        if first[0] != "running" and not first[1]:
            return Response(status_code=204)
        return stream(context.followers.follow(turn_id, after, first), hint=ticketed)
    frames = await anyio.to_thread.run_sync(store.frames_after, turn_id, after)
    if not frames:
        # Ended, and every frame is the client's already: nothing will ever follow.
        return Response(status_code=204)

    async def replay() -> AsyncIterator[bytes]:
        for encoded in frames:
            yield encoded

    return stream(replay(), hint=ticketed)


async def _once_ended(
    followers: StoreFollowers, store: TurnStore, turn_id: str
) -> TurnRecord | None:
    """The turn's record after it stopped running; None if the store stayed away
    (or the turn outlived a follower's bound) meanwhile."""
    if not await followers.until_ended(turn_id):
        return None
    record = await anyio.to_thread.run_sync(store.turn, turn_id)
    return record if record is not None and record.status != "running" else None


async def _refusal(
    store: TurnStore, turn_id: str, tiers: Iterable[object], may_use: frozenset[str] | None
) -> Response | None:
    """A 403 ``denied`` when the token no longer grants a capability the turn used
    (its audit rows, stored with its answer) or, given ``may_use``, one a running
    turn may still use; None when it may read the turn."""
    if may_use is None:
        used = await anyio.to_thread.run_sync(store.capabilities_used, [turn_id])
        may_use = frozenset(used.get(turn_id, ()))
    lost = withheld_capability(may_use, tiers)
    return None if lost is None else error(403, "denied", denial_notice(lost))
