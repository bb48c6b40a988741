"""The MCP session's requests share their connections instead of opening one each.

The SDK reads a POST's event stream only until the event that answers its request,
then closes the response. httpx keeps a connection only once its response was read
to the end; one closed earlier is dropped. So every request of a session opened a
TCP connection of its own: seven a turn, and against an upstream over TLS, seven
handshakes, each at least one round trip before the request could leave.

An upstream following the transport's rules ends a POST's stream right after that
answer, so its end (a chunked body's last, empty chunk) is already on its way. A
response closed early is first read to its end here (bounded in time and bytes),
which returns its connection to the pool for the session's next request. A stream
that does not end soon, or says more, is closed as before: nothing waits on it but
the SDK's task for that one request, and what the caller receives never changes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import httpx2

# The end of a stream that answered is in flight already: a few milliseconds on a
# slow network. Past these bounds the connection is closed, as it was before.
DRAIN_S = 0.25
DRAIN_BYTES = 64 * 1024


class _ReadToTheEnd(httpx2.AsyncByteStream):
    """A response body that, closed before its end, reads the rest first (bounded)."""

    def __init__(self, inner: httpx2.AsyncByteStream) -> None:
        self._inner = inner
        # One iterator, read by the client and then, if it stops early, by aclose:
        # the client's ``async for`` ending never closes it.
        self._parts = inner.__aiter__()
        self._closed = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for part in self._parts:
            yield part

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self._read_rest()
        finally:
            # Read to its end: the connection goes back to the pool. Otherwise it closes.
            await self._inner.aclose()

    async def _read_rest(self) -> None:
        left = DRAIN_BYTES
        with anyio.move_on_after(DRAIN_S):
            async for part in self._parts:
                left -= len(part)
                if left < 0:
                    return


async def read_to_the_end(response: httpx2.Response) -> None:
    """A response hook: the response's body, closed early, is read to its end first."""
    if isinstance(response.stream, httpx2.AsyncByteStream):
        response.stream = _ReadToTheEnd(response.stream)
