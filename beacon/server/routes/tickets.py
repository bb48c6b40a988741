"""``POST /v1/turns/{turn_id}/ticket``: a stream ticket for a browser's EventSource."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from beacon.server.context import Context, owned_turn
from beacon.server.negotiation import JSON, serves
from beacon.server.openapi import AUTH, GUARDED, TurnId, errors
from beacon.server.replies import StreamTicket

router = APIRouter()


@router.post(
    "/v1/turns/{turn_id}/ticket",
    operation_id="stream_ticket",
    response_model=StreamTicket,
    responses=errors(*GUARDED, 404, 406),
    dependencies=[*AUTH, Depends(serves(JSON))],
)
async def stream_ticket(request: Request, turn_id: TurnId, context: Context) -> Any:
    """A short-lived ticket to follow one turn the caller owns with a browser's
    EventSource: ``GET /v1/turns/{turn_id}/events?ticket=…`` (it sends no
    Authorization header). Never the bearer in a URL: a URL is logged."""
    identity = await owned_turn(context, request, turn_id)
    if isinstance(identity, JSONResponse):
        return identity
    minted = context.tickets.mint(identity, turn_id)
    return JSONResponse(
        {"ticket": minted.ticket, "expires_in": minted.expires_in},
        headers={"Cache-Control": "no-store"},
    )
