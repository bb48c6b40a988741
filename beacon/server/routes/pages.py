"""``POST /v1/turns/{turn_id}/more``: the next page of one counted source (load more).

Its cards, the slot's new count entry, and a notice when the page was set aside.
Every page is decided again for the caller's token as it is now; calls on one slot
take turns (in this process, then across processes on a shared store), so each
gets the next page and none a page already served.
"""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from beacon.auth.verify import Identity
from beacon.loop.pages import decide_page, fetch_more, has_more, serve_pending
from beacon.server.context import AppContext, Context, bearer_of, owned_turn
from beacon.server.negotiation import JSON, serves
from beacon.server.openapi import AUTH, GUARDED, ScenarioHeader, TurnId, errors
from beacon.server.replies import error
from beacon.telemetry import metrics
from beacon.upstream.errors import UpstreamError
from beacon.wire.frames import MoreReply
from beacon.wire.turns import MoreRequest

router = APIRouter()


@router.post(
    "/v1/turns/{turn_id}/more",
    operation_id="load_more",
    response_model=MoreReply,
    responses=errors(*GUARDED, 403, 404, 406, 409, 429, 502),
    dependencies=[*AUTH, Depends(serves(JSON))],
)
async def more(
    request: Request,
    turn_id: TurnId,
    body: MoreRequest,
    context: Context,
    x_beacon_scenario: ScenarioHeader = None,
) -> Any:
    """The next page of one counted source of a finished turn (load more): its
    cards, the slot's new count entry, and a notice when the page was set aside.
    Every page is decided again for the caller's token as it is now; calls on one
    slot take turns, so each gets the next page and none a page already served."""
    identity = await owned_turn(context, request, turn_id)
    if isinstance(identity, JSONResponse):
        return identity
    store = context.store
    async with context.slot_locks.hold(turn_id, body.slot):
        # Then across processes (a shared store holds a lock per slot).
        held = await anyio.to_thread.run_sync(store.lock_slot, turn_id, body.slot)
        try:
            reply = await _next_page(
                context, request, identity, turn_id, body.slot, x_beacon_scenario
            )
        finally:
            await anyio.to_thread.run_sync(held.release)
    metrics.load_more_page(page_outcome(reply))
    return reply


async def _next_page(
    context: AppContext,
    request: Request,
    identity: Identity,
    turn_id: str,
    slot: str,
    scenario: str | None,
) -> Any:
    store = context.store
    pages = await anyio.to_thread.run_sync(store.load_page_record, turn_id, slot)
    if pages is None:
        return error(409, "no_more", "this source has no further page")
    permission = decide_page(pages, identity.tiers, turn_id=turn_id, sub=identity.sub)
    await anyio.to_thread.run_sync(store.record_audit, [permission.audit])
    metrics.permission_verdict(permission.decision.capability, permission.decision.allowed)
    if not permission.decision.allowed:
        return error(403, "denied", permission.denial)
    if not has_more(pages):
        return error(409, "no_more", "this source has no further page")
    served = serve_pending(pages, turn_id=turn_id, slot=slot)
    if served is not None:
        await anyio.to_thread.run_sync(store.save_pages, turn_id, slot, served[1])
        return served[0]
    try:
        async with context.link.open(
            bearer=bearer_of(request), scenario=scenario, turn_id=turn_id
        ) as upstream:
            reply, updated = await fetch_more(
                upstream, pages, turn_id=turn_id, slot=slot, sentinel=context.settings.sentinel
            )
    except UpstreamError as exc:
        metrics.upstream_error("mcp", exc.code)
        return error(502, exc.code, str(exc))
    await anyio.to_thread.run_sync(store.save_pages, turn_id, slot, updated)
    return reply


def page_outcome(reply: Any) -> str:
    """A load-more reply as the series counts it: served, denied, no_more or error."""
    status = getattr(reply, "status_code", 200)
    return {200: "served", 403: "denied", 409: "no_more"}.get(status, "error")
