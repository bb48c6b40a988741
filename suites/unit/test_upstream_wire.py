"""What the upstream client traces to say a tool call's request is on the wire: only a
tool call, only while someone waits, never a streamed body it would have to read
(the whole path over HTTP: suites/e2e/test_upstream_call_on_the_wire.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx2

from beacon.upstream.mcp_client import _Wire

CALL = b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_projects"}}'
LIST = b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}'


async def _streamed() -> AsyncIterator[bytes]:
    yield CALL


def test_only_a_tool_calls_request_is_traced_and_only_while_someone_waits() -> None:
    async def scenario() -> list[bool]:
        wire = _Wire()
        traced = []
        for waiting, body in ((False, CALL), (True, LIST), (True, CALL)):
            if waiting:
                wire.next_call()
            request = httpx2.Request("POST", "http://127.0.0.1:9/mcp", content=body)
            await wire.hook(request)
            traced.append("trace" in request.extensions)
        return traced

    assert asyncio.run(scenario()) == [False, False, True]


def test_a_streamed_body_is_neither_read_nor_traced() -> None:
    async def scenario() -> bool:
        wire = _Wire()
        wire.next_call()
        request = httpx2.Request("POST", "http://127.0.0.1:9/mcp", content=_streamed())
        await wire.hook(request)
        return "trace" in request.extensions

    assert asyncio.run(scenario()) is False


def test_the_waiters_hear_the_body_written_and_nothing_before() -> None:
    async def scenario() -> list[bool]:
        wire = _Wire()
        first, dropped = wire.next_call(), wire.next_call()
        dropped.cancel()
        heard = []
        for event in ("http11.send_request_headers.complete", "http11.send_request_body.started"):
            await wire._trace(event, {})
            heard.append(first.done())
        await wire._trace("http11.send_request_body.complete", {})
        heard.append(first.done() and not first.cancelled())
        return heard

    assert asyncio.run(scenario()) == [False, False, True]
