"""``GET /v1/quota/events``: the caller's remaining questions today, live.

The count and its pushes are ``beacon/server/quota.py``'s; this is the route and
its published event shape.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from beacon.server.context import Context, identify
from beacon.server.negotiation import EVENT_STREAM, serves
from beacon.server.openapi import AUTH, GUARDED, STREAM_HEADERS, errors
from beacon.server.quota import quota_unavailable
from beacon.store.errors import StoreError

log = logging.getLogger(__name__)
QUOTA_PATH = "/v1/quota/events"
router = APIRouter()


class QuotaEvent(BaseModel):
    """One ``quota`` event's data. Unlimited: ``{"remaining": null}`` and nothing else."""

    model_config = ConfigDict(extra="forbid")

    remaining: int | None = Field(ge=0, description="questions left today; null: no quota")
    limit: int | None = Field(default=None, ge=0, description="questions a day")
    reset_at: datetime | None = Field(default=None, description="when the count resets (UTC)")


QUOTA_STREAM: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "`quota` events: the remaining count on connect, then on each spend",
        "content": {
            "text/event-stream": {
                "itemSchema": {
                    "type": "object",
                    "required": ["event", "data"],
                    "properties": {
                        "event": {"const": "quota"},
                        "data": {
                            "type": "string",
                            "contentMediaType": "application/json",
                            "contentSchema": QuotaEvent.model_json_schema(),
                        },
                    },
                }
            }
        },
    }
}


@router.get(
    QUOTA_PATH,
    operation_id="quota_events",
    response_class=StreamingResponse,
    responses={**QUOTA_STREAM, **errors(*GUARDED, 406)},
    dependencies=[*AUTH, Depends(serves(EVENT_STREAM))],
)
async def quota_events(request: Request, context: Context) -> Any:
    """The caller's remaining questions today, live: one ``quota`` event at once
    (``{"remaining": null}`` without a quota), then one per question spent."""
    identity = identify(request)
    try:
        first = await context.quota.first(identity)
    except StoreError as exc:
        log.warning("the question quota cannot be read: %s", exc)
        return quota_unavailable()
    return StreamingResponse(
        context.quota.events(identity, first),
        media_type="text/event-stream",
        headers=STREAM_HEADERS,
    )
