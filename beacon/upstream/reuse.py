"""The MCP session's requests share their connections instead of opening one each.

The SDK reads a POST's event stream only until the event that answers its request,
then closes the response. httpx keeps a connection only once its response was read
to the end; one closed earlier is dropped. So every request of a session opened a
TCP connection of its own, eight in a turn of three tool calls, and against an
upstream over TLS eight handshakes, each a round trip before its request could leave.

An upstream following the transport's rules ends a POST's stream right after that
answer, so its end (a chunked body's last, empty chunk) is already on its way. A
response closed early is first read to its end here (bounded in time and bytes),
which returns its connection to the pool for the session's next request. A stream
that does not end soon, or says more, is closed as before: nothing waits on it but
the SDK's task for that one request, and what the caller receives never changes.

Sessions share too: each turn's session has its own client (its bearer and headers),
lent the process's one pool (``shared_connections``, opened by the server's lifespan),
so a turn's ``initialize`` goes out on a connection an earlier turn left idle. Only
the session's event stream (the SDK's GET, cancelled at its end) is new each turn.

A kept connection can be closed by the upstream just as a request goes out on it (a
server whose idle timer is shorter than ours). The pool then sends the request again
on another connection, as the model client does, but only when a second copy changes
nothing upstream (``resendable``); a tool call's failure reaches the turn.
"""

from __future__ import annotations

import json
import urllib.request
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import httpx2

from beacon.telemetry import metrics
from beacon.wire.connections import (
    IDLE_CONNECTION_S,
    SHARED_MAX_CONNECTIONS,
    SHARED_MAX_IDLE,
    client_tls,
)

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


# The connections already counted, by their network stream (httpcore names it on
# every response); weak, so a closed connection's entry goes with it.
_COUNTED: weakref.WeakSet[object] = weakref.WeakSet()


async def count_connection(response: httpx2.Response) -> None:
    """A response hook: a response on a connection not seen before counts one opened
    (``beacon_upstream_connections_total``), so an operator sees reuse stop (behind a
    proxy, or an upstream whose streams end late): about one a request."""
    stream = response.extensions.get("network_stream")
    if stream is not None and stream not in _COUNTED:
        _COUNTED.add(stream)
        metrics.upstream_connection_opened()


# What a request meets on a kept-alive connection the upstream closed as it was sent
# (a server whose idle timer is shorter than ours): no response begun.
_STALE = (httpx2.RemoteProtocolError, httpx2.ReadError, httpx2.WriteError)
_RESENDS = 2
# The JSON-RPC methods a second copy changes nothing for; a tool call is never sent
# twice (it may act on the upstream), and neither is anything not named here.
RESENDABLE = frozenset({"initialize", "notifications/initialized", "tools/list", "ping"})


def jsonrpc_method(request: httpx2.Request) -> str | None:
    """The JSON-RPC method a request's body names: None for a body that is no single
    message (a batch, no JSON, none at all) or is streamed (reading it would consume it)."""
    try:
        message = json.loads(request.content)
    except (httpx2.RequestNotRead, ValueError):
        return None
    method = message.get("method") if isinstance(message, dict) else None
    return method if isinstance(method, str) else None


def resendable(request: httpx2.Request) -> bool:
    """The session's event stream (GET), its end (DELETE), or a POST of a method above."""
    return request.method in ("GET", "DELETE") or jsonrpc_method(request) in RESENDABLE


class _Lent(httpx2.AsyncBaseTransport):
    """The process's pool, lent to one session's client: closing that client (at the
    session's end) leaves the pool and its idle connections to the next session.

    A request the pool sent on a connection closed under it, before any response, goes
    out again on another when sending it twice is harmless (``resendable``), as the
    model client does; a tool call's failure is the caller's to see."""

    def __init__(self, pool: httpx2.AsyncHTTPTransport) -> None:
        self._pool = pool

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        resent = 0
        while True:
            try:
                return await self._pool.handle_async_request(request)
            except _STALE:
                if resent == _RESENDS or not resendable(request):
                    raise
                resent += 1
                metrics.upstream_resent()

    async def aclose(self) -> None:
        return None


@asynccontextmanager
async def shared_connections(url: str) -> AsyncIterator[httpx2.AsyncBaseTransport | None]:
    """One pool of connections to the upstream for every session of the process (its
    lifespan's), so a turn's session starts on a connection the last one left: no
    handshake. None where a proxy is configured for the upstream's scheme: each
    session's own client then applies the proxy settings, as httpx does."""
    proxies = urllib.request.getproxies()
    if httpx2.URL(url).scheme in proxies or "all" in proxies:
        yield None
        return
    pool = httpx2.AsyncHTTPTransport(
        verify=client_tls(),
        # A connection per running session's event stream and per request in flight;
        # idle ones dropped before the server drops them (beacon/wire/connections.py).
        limits=httpx2.Limits(
            max_connections=SHARED_MAX_CONNECTIONS,
            max_keepalive_connections=SHARED_MAX_IDLE,
            keepalive_expiry=IDLE_CONNECTION_S,
        ),
    )
    async with pool:
        yield _Lent(pool)
