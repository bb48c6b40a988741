"""A turn's frames as a served event stream: counted while open, led by the
reconnect hint on the streams a ticket opens, and the ``interrupted`` terminal a
turn gets when the process running it stopped."""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
from fastapi.responses import StreamingResponse

from beacon.loop.frames import terminal_error
from beacon.server.openapi import STREAM_HEADERS
from beacon.store.turns import TurnStore
from beacon.telemetry import metrics

# A reconnecting EventSource waits this long (ms) after a cut; after the terminal
# it is answered 204, which ends its reconnecting for good. Sent on the streams a
# ticket opens, the only ones an EventSource can open (it sends no header): a
# client with a bearer header reads frames from a fetch body and reconnects by its
# own rule, and its stream stays the exact frames, so a cut stream and the rest
# after it join byte for byte into the saved turn.
RETRY_HINT = b"retry: 1000\n\n"


def interrupted(turn_id: str, seq: int) -> bytes:
    message = "the server process running this turn stopped before it finished"
    return terminal_error(turn_id, seq, "interrupted", message).encode()


def stream(
    chunks: AsyncIterator[bytes],
    headers: dict[str, str] | None = None,
    *,
    hint: bool = False,
    route: str = "events",
) -> StreamingResponse:
    return StreamingResponse(
        _counted(_with_retry_hint(chunks) if hint else chunks, route),
        media_type="text/event-stream",
        headers={**STREAM_HEADERS, **(headers or {})},
    )


async def ended_before(store: TurnStore, turn_id: str, after: int) -> bool:
    """Whether the turn has ended and its client already has every frame: a
    reconnect after the terminal, answered 204 so EventSource stops."""
    status, frames = await anyio.to_thread.run_sync(store.frames_since, turn_id, after)
    return status not in (None, "running") and not frames


async def _counted(chunks: AsyncIterator[bytes], route: str) -> AsyncIterator[bytes]:
    """An SSE stream's chunks, counted in ``beacon_sse_streams_active`` while served."""
    metrics.stream_opened(route)
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        metrics.stream_closed(route)


async def _with_retry_hint(chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """The stream's chunks, the first one led by the reconnect hint (in one write,
    so the first frame arrives no later than before)."""
    hint = RETRY_HINT
    async for chunk in chunks:
        yield hint + chunk
        hint = b""
    if hint:
        yield hint
