"""An upstream request started before work that does not need its reply.

A turn waits on its upstreams (the MCP server, the model) more than it computes,
and on one event loop Beacon's own CPU work (the question's constraints, the
cards a capped page keeps) would otherwise sit between two requests on the
turn's critical path. ``beside`` starts the request as a task, lets the loop
carry it to the socket, and only then gives the block its turn; a block that
leaves early (its own answer, an error, a cancellation) takes the request
with it, its failure read and dropped so that nothing is left unretrieved.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

# Passes of the event loop before the block runs: the request goes from its
# client to the socket in these. The MCP SDK's path is the longer (the session's
# memory stream, its writer task, a task per POST, then httpx2): with 4 passes the
# catalog request still left after the question's work (the turn timeline: 1.4 ms
# later than the relay's); with 12 it leaves first (0.5 ms; 1.17x against 1.23x
# per question over three A/B pairs of 120 turns).
REQUEST_PASSES = 12


@contextlib.asynccontextmanager
async def beside(request: Coroutine[Any, Any, T]) -> AsyncIterator[asyncio.Task[T]]:
    task = asyncio.create_task(request)
    try:
        for _ in range(REQUEST_PASSES):
            await asyncio.sleep(0)
        yield task
    finally:
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task  # a failure the block did not read is not its business
