"""``GET /v1/sessions/{session_id}``: a chat session's transcript, to its owner."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Depends, Request

from beacon.policy.capabilities import withheld_capability
from beacon.policy.notices import denial_notice
from beacon.server.context import Context, identify
from beacon.server.negotiation import JSON, serves
from beacon.server.openapi import AUTH, GUARDED, SessionId, errors
from beacon.server.replies import Session, not_found

router = APIRouter()


@router.get(
    "/v1/sessions/{session_id}",
    operation_id="get_session",
    responses={200: {"model": Session}, **errors(*GUARDED, 404, 406)},
    dependencies=[*AUTH, Depends(serves(JSON))],
)
async def get_session(request: Request, session_id: SessionId, context: Context) -> Any:
    identity = identify(request)
    store = context.store
    owner = await anyio.to_thread.run_sync(store.session_owner, session_id)
    if owner != identity.sub:
        return not_found("session")
    messages = await anyio.to_thread.run_sync(store.transcript, session_id)
    used = await anyio.to_thread.run_sync(
        store.capabilities_used, sorted({m.turn_id for m in messages})
    )

    def shown(turn_id: str, role: str, text: str) -> str:
        # The answer of a turn that used a capability the caller has lost becomes
        # its denial; the question is the caller's own. Order and count unchanged.
        lost = withheld_capability(used.get(turn_id, ()), identity.tiers)
        return denial_notice(lost) if lost is not None and role == "assistant" else text

    return {
        "session_id": session_id,
        "messages": [
            {"turn_id": m.turn_id, "role": m.role, "text": shown(m.turn_id, m.role, m.text)}
            for m in messages
        ],
    }
