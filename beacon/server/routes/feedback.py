"""``POST /v1/turns/{turn_id}/feedback``: thumbs up or down on an answer."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from beacon.server.context import Context, owned_turn
from beacon.server.openapi import AUTH, GUARDED, TurnId, errors
from beacon.wire.turns import FeedbackRequest

router = APIRouter()


@router.post(
    "/v1/turns/{turn_id}/feedback",
    operation_id="feedback",
    status_code=204,
    response_class=Response,
    response_model=None,
    responses=errors(*GUARDED, 404),
    dependencies=AUTH,
)
async def feedback(
    request: Request, turn_id: TurnId, body: FeedbackRequest, context: Context
) -> Any:
    """Thumbs up or down on an answer, with an optional comment (sealed at rest)."""
    identity = await owned_turn(context, request, turn_id)
    if isinstance(identity, JSONResponse):
        return identity
    await anyio.to_thread.run_sync(
        lambda: context.store.save_feedback(
            turn_id, owner=identity.sub, rating=body.rating, comment=body.comment
        )
    )
    return Response(status_code=204)
