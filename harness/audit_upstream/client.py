"""The auditor's MCP client: streamable HTTP (with a bearer) or a stdio command.

Results are read raw: ``send_request`` with the protocol's own result type, not
``call_tool``, whose output-schema check raises on exactly the results this audit
exists to report (schema-violation, error-as-result).
"""

from __future__ import annotations

import os
import shlex
import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import httpx2
from mcp import ClientSession, MCPError, types
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from beacon.upstream import lean_reading
from harness.audit_upstream.errors import TargetUnavailable

# The SDK client's work that buys nothing, taken out (beacon/upstream/lean_reading.py):
# an audit reads the largest results a server gives.
lean_reading.apply()

# A capped 3000-row table arrives as one event; the SDK's default is 1 MiB.
MAX_EVENT_BYTES = 16 * 1024 * 1024
# tools/list pages are followed to the end, but not forever.
MAX_LIST_PAGES = 1000


@dataclass(frozen=True, slots=True)
class Target:
    url: str | None = None
    token: str | None = None
    stdio: str | None = None
    timeout_s: float = 30.0

    @property
    def label(self) -> str:
        return self.url if self.url is not None else f"stdio:{self.stdio}"


@dataclass(frozen=True, slots=True)
class CallAnswer:
    """A tools/call's raw result (camelCase, as sent), or the JSON-RPC error it got."""

    result: dict[str, Any] | None
    rpc_error: str | None = None


@dataclass(frozen=False, slots=True)  # the response hook appends each status seen
class _Statuses:
    seen: list[int] = field(default_factory=list)

    async def hook(self, response: httpx2.Response) -> None:
        self.seen.append(response.status_code)

    def refused(self) -> int | None:
        return next((s for s in reversed(self.seen) if s in (401, 403)), None)


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _unavailable(target: Target, exc: BaseException, statuses: _Statuses) -> TargetUnavailable:
    refused = statuses.refused()
    if refused is not None:
        return TargetUnavailable(f"{target.label} refused the authorization (HTTP {refused})")
    leaf = _leaves(exc)[0]
    detail = str(leaf).splitlines()[0] if str(leaf) else type(leaf).__name__
    return TargetUnavailable(f"{target.label} is unreachable: {detail}")


class Upstream:
    def __init__(self, session: ClientSession, timeout_s: float) -> None:
        self._session = session
        self._timeout_s = timeout_s

    async def list_tools(self) -> tuple[list[dict[str, Any]], int]:
        """Every tool, following ``nextCursor`` to the end, and how many pages it took."""
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        pages = 0
        while pages < MAX_LIST_PAGES:
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            with anyio.fail_after(self._timeout_s):
                listed = await self._session.send_request(
                    types.ListToolsRequest(params=params), types.ListToolsResult
                )
            pages += 1
            tools += [
                t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed.tools
            ]
            cursor = listed.next_cursor
            if not cursor:
                break
        return tools, pages

    async def call(self, name: str, arguments: dict[str, Any]) -> CallAnswer:
        request = types.CallToolRequest(
            params=types.CallToolRequestParams(name=name, arguments=arguments)
        )
        try:
            with anyio.fail_after(self._timeout_s):
                result = await self._session.send_request(request, types.CallToolResult)
        except MCPError as exc:
            return CallAnswer(None, f"JSON-RPC error {exc.error.code}: {exc.error.message}")
        raw = result.model_dump(
            by_alias=True, mode="json", exclude_none=True, exclude={"structured_content"}
        )
        if result.structured_content is not None or "structured_content" in (
            result.model_fields_set
        ):
            raw["structuredContent"] = result.structured_content
        return CallAnswer(raw)


@asynccontextmanager
async def connect(target: Target) -> AsyncIterator[Upstream]:
    """An initialized session; ``TargetUnavailable`` when it cannot be had."""
    statuses = _Statuses()
    entered = False
    errlog: TextIO = tempfile.TemporaryFile("w+")  # noqa: SIM115 - closed below
    try:
        async with AsyncExitStack() as stack:
            if target.stdio is not None:
                words = shlex.split(target.stdio)
                params = StdioServerParameters(
                    command=words[0], args=words[1:], env=dict(os.environ), cwd=os.getcwd()
                )
                streams = await stack.enter_async_context(stdio_client(params, errlog=errlog))
            else:
                assert target.url is not None
                headers = {"Authorization": f"Bearer {target.token}"} if target.token else {}
                client = httpx2.AsyncClient(
                    headers=headers,
                    timeout=httpx2.Timeout(target.timeout_s, connect=5.0),
                    event_hooks={"response": [statuses.hook]},
                )
                await stack.enter_async_context(client)
                streams = await stack.enter_async_context(
                    streamable_http_client(
                        target.url, http_client=client, max_sse_event_size=MAX_EVENT_BYTES
                    )
                )
            session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
            with anyio.fail_after(target.timeout_s):
                await session.initialize()
            entered = True
            yield Upstream(session, target.timeout_s)
    except TargetUnavailable:
        raise
    except Exception as exc:
        if (
            entered
            and not statuses.refused()
            and not any(
                isinstance(leaf, OSError | httpx2.TransportError | anyio.ClosedResourceError)
                for leaf in _leaves(exc)
            )
        ):
            raise
        raise _unavailable(target, exc, statuses) from exc
    finally:
        errlog.close()
