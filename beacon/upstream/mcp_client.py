"""One MCP session per turn, with the caller's bearer and the scenario header.

The SDK turns a 401 into a generic JSON-RPC error, so the transport status is
captured by an httpx response hook and read *before* the body is judged.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
import httpx2
from mcp import ClientSession, MCPError, types
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CONNECTION_CLOSED

from beacon.telemetry.tracing import inject
from beacon.upstream import lean_reading
from beacon.upstream.errors import (
    UpstreamAuthError,
    UpstreamError,
    UpstreamProtocolError,
    UpstreamUnavailable,
)
from beacon.upstream.lean_reading import RESULT_BYTES
from beacon.upstream.reuse import count_connection, jsonrpc_method, read_to_the_end
from beacon.wire.connections import IDLE_CONNECTION_S, client_tls
from beacon.wire.headers import SCENARIO_HEADER, TURN_HEADER

# The SDK client's work that buys nothing, taken out (beacon/upstream/lean_reading.py).
lean_reading.apply()

# Larger than the SDK's 1 MiB default: a capped 3000-row table is one event.
MAX_EVENT_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    tool: str
    arguments: dict[str, Any]
    result: dict[str, Any]
    transport_status: int
    bytes: int


@dataclass(frozen=True, slots=True)
class _StatusLog:
    statuses: list[int] = field(default_factory=list)

    async def hook(self, response: httpx2.Response) -> None:
        self.statuses.append(response.status_code)

    def refused(self) -> int | None:
        return next((s for s in reversed(self.statuses) if s in (401, 403)), None)

    def client_error(self) -> int | None:
        return next((s for s in reversed(self.statuses) if 400 <= s < 500), None)


class _Wire:
    """When a tool call's request is on the wire (its body written to the socket: the
    ``trace`` extension httpx hands to its transport), for work that needs the loop
    only while the upstream works on the call (beacon/loop/gather.py)."""

    def __init__(self) -> None:
        self._waiting: list[asyncio.Future[None]] = []

    def next_call(self) -> asyncio.Future[None]:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting = [*(w for w in self._waiting if not w.done()), waiter]
        return waiter

    async def hook(self, request: httpx2.Request) -> None:
        # Only while someone waits, and only a tool call's request is traced (a streamed
        # body is never read: reading it here would consume it).
        if self._waiting and jsonrpc_method(request) == "tools/call":
            request.extensions["trace"] = self._trace

    async def _trace(self, event: str, _: dict[str, Any]) -> None:
        if event.endswith(".send_request_body.complete"):
            waiting, self._waiting = self._waiting, []
            for waiter in waiting:
                if not waiter.done():
                    waiter.set_result(None)


def leaf_errors(exc: BaseException) -> list[BaseException]:
    """The errors inside ``exc``: the SDK's task groups wrap them in exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in leaf_errors(inner)]
    return [exc]


# What a connection that went away raises: the transport's errors, and the SDK's
# streams closing under a request that was waiting on them.
_TRANSPORT = (
    httpx2.TransportError,
    OSError,
    TimeoutError,
    anyio.ClosedResourceError,
    anyio.BrokenResourceError,
    anyio.EndOfStream,
)


def _translate(exc: BaseException, log: _StatusLog, what: str) -> UpstreamError:
    status = log.refused()
    if status is not None:
        return UpstreamAuthError(
            f"the MCP upstream refused the bearer (HTTP {status}) during {what}"
        )
    status = log.client_error()
    if status is not None:
        return UpstreamProtocolError(f"the MCP upstream rejected {what} with HTTP {status}")
    for leaf in leaf_errors(exc):
        if isinstance(leaf, _TRANSPORT):
            return UpstreamUnavailable(f"the MCP upstream is unreachable during {what}: {leaf!r}")
        if isinstance(leaf, MCPError) and leaf.error.code == CONNECTION_CLOSED:
            # The SDK's answer for a request whose stream ended: the connection's
            # failure, not a JSON-RPC error the upstream chose to send.
            return UpstreamUnavailable(f"the MCP upstream went away during {what}: {leaf}")
        if isinstance(leaf, MCPError):
            return UpstreamProtocolError(f"the MCP upstream answered {what} with an error: {leaf}")
    return UpstreamUnavailable(f"the MCP upstream failed during {what}: {exc!r}")


class Upstream(Protocol):
    """What the loop calls: Beacon's stub (McpUpstream) or a contract-described
    upstream (beacon/upstream/contracted.py)."""

    async def list_tools(self) -> list[dict[str, Any]]: ...

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome: ...

    def next_call_written(self) -> asyncio.Future[None]: ...


_LISTINGS: dict[str, list[dict[str, Any]]] = {}
_LISTINGS_MAX = 64


class McpUpstream:
    def __init__(
        self, session: ClientSession, log: _StatusLog, timeout_s: float, wire: _Wire | None = None
    ) -> None:
        self._session = session
        self._log = log
        self._timeout_s = timeout_s
        self._wire = wire or _Wire()

    def next_call_written(self) -> asyncio.Future[None]:
        """Resolves once the next tool call's request is written to the upstream."""
        return self._wire.next_call()

    async def list_tools(self) -> list[dict[str, Any]]:
        try:
            with anyio.fail_after(self._timeout_s):
                listed = await self._session.list_tools()
        except Exception as exc:
            raise _translate(exc, self._log, "tools/list") from exc
        # One listing object per distinct catalog (by its wire JSON, which pydantic's
        # Rust core writes fast): the planner's compacted catalog is then known by
        # identity (beacon/loop/catalog.py). Shared between turns, so read-only.
        key = listed.model_dump_json(by_alias=True, exclude_none=True)
        found = _LISTINGS.get(key)
        if found is None:
            found = [
                t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed.tools
            ]
            if len(_LISTINGS) >= _LISTINGS_MAX:
                _LISTINGS.pop(next(iter(_LISTINGS)))
            _LISTINGS[key] = found
        return found

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        before = len(self._log.statuses)
        RESULT_BYTES.set(None)
        try:
            with anyio.fail_after(self._timeout_s):
                # send_request, not call_tool: the SDK's output-schema check
                # raises on a disguised failure, and judging it is our job.
                result = await self._session.send_request(
                    types.CallToolRequest(
                        params=types.CallToolRequestParams(name=tool, arguments=arguments)
                    ),
                    types.CallToolResult,
                )
        except Exception as exc:
            raise _translate(exc, self._log, f"tools/call {tool}") from exc
        statuses = self._log.statuses[before:]
        # The size is the result's bytes as the upstream sent them, read off the wire
        # (lean_reading.RESULT_BYTES); a result read another way is written out to be
        # measured. structuredContent is already plain JSON data as the SDK parsed
        # it: reused as is, not dumped and copied again (for 3000 rows that copy
        # cost more than everything Beacon adjudicates in the turn).
        size = RESULT_BYTES.get()
        if size is None:
            size = len(result.model_dump_json(by_alias=True, exclude_none=True).encode())
        payload = result.model_dump(
            by_alias=True, mode="json", exclude_none=True, exclude={"structured_content"}
        )
        if result.structured_content is not None:
            payload["structuredContent"] = result.structured_content
        return ToolOutcome(tool, arguments, payload, statuses[-1] if statuses else 200, size)


@asynccontextmanager
async def connect(
    url: str,
    *,
    bearer: str | None,
    scenario: str | None = None,
    timeout_s: float = 30.0,
    turn_id: str | None = None,
    transport: httpx2.AsyncBaseTransport | None = None,
) -> AsyncIterator[McpUpstream]:
    """One session. ``transport``: the process's pool lent to it (reuse.py), else
    the session's client opens its own connections (and honours proxy settings)."""
    # None: an upstream that takes no bearer (a third party is never sent the caller's).
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    if scenario:
        headers[SCENARIO_HEADER] = scenario
    if turn_id:
        headers[TURN_HEADER] = turn_id
    # The turn's trace context (W3C traceparent) on every request of the session.
    inject(headers)
    log = _StatusLog()
    wire = _Wire()
    client = httpx2.AsyncClient(
        headers=headers,
        verify=client_tls(),
        timeout=httpx2.Timeout(timeout_s, connect=5.0),
        # httpx's own pool sizes, an idle connection dropped before the server drops it
        # (a lent transport is the process's pool, with its own sizes and TLS context).
        limits=httpx2.Limits(
            max_connections=100, max_keepalive_connections=20, keepalive_expiry=IDLE_CONNECTION_S
        ),
        event_hooks={
            "request": [wire.hook],
            "response": [log.hook, read_to_the_end, count_connection],
        },
        transport=transport,
    )
    entered = False
    try:
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(client)
            streams = await stack.enter_async_context(
                streamable_http_client(url, http_client=client, max_sse_event_size=MAX_EVENT_BYTES)
            )
            session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
            with anyio.fail_after(timeout_s):
                await session.initialize()
            entered = True
            yield McpUpstream(session, log, timeout_s, wire)
    except UpstreamError:
        raise
    except Exception as exc:
        if entered and not _only_transport(exc):
            raise  # raised by the caller's own block: not ours to relabel
        # Before the session stood, or a session that died under the caller (the
        # upstream went away between calls): the upstream's failure, not Beacon's.
        raise _translate(exc, log, "the session" if entered else "initialize") from exc


def _only_transport(exc: BaseException) -> bool:
    """Every error inside ``exc`` is the connection's (closed, refused, reset)."""
    return all(isinstance(leaf, _TRANSPORT) for leaf in leaf_errors(exc))
