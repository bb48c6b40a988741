"""A request sent on a kept-alive connection the upstream closed under it goes out
again on another only when a second copy is harmless; a tool call never does.

Over a real socket: a loopback HTTP/1.1 server that answers each connection's first
request and closes the connection, unanswered, at its second (an upstream whose idle
timer fired as the request arrived), and the pool the chat server lends its sessions.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

import httpx2
import pytest
from prometheus_client import REGISTRY

from beacon.upstream.reuse import RESENDABLE, resendable, shared_connections

Attempt = Callable[[httpx2.AsyncClient, str], Awaitable[httpx2.Response]]


_WRITERS: list[asyncio.StreamWriter] = []


async def _answer_once_per_connection(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    _WRITERS.append(writer)
    try:
        await _serve(reader, writer)
    except asyncio.IncompleteReadError:
        pass  # the client closed the connection first
    finally:
        writer.close()


async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    for turn in range(2):
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            (
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            ),
            0,
        )
        await reader.readexactly(length)
        if turn == 1:
            break  # the second request on this connection: closed, unanswered
        body = b'{"jsonrpc": "2.0", "id": 1, "result": {}}'
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
        await writer.drain()


def _post(method: str) -> Attempt:
    async def post(client: httpx2.AsyncClient, url: str) -> httpx2.Response:
        message = {"jsonrpc": "2.0", "id": 2, "method": method, "params": {}}
        return await client.post(url, json=message)

    return post


def _resent() -> float:
    return REGISTRY.get_sample_value("beacon_upstream_resends_total") or 0.0


async def _second_request(attempt: Attempt) -> tuple[int | str, float]:
    """The second request of a session, on the connection its first one left: its
    status (or the error it raised) and how many resends that took."""
    server = await asyncio.start_server(_answer_once_per_connection, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"
    before = _resent()
    try:
        async with shared_connections(url) as lent, httpx2.AsyncClient(transport=lent) as client:
            assert (await _post("initialize")(client, url)).status_code == 200
            try:
                outcome: int | str = (await attempt(client, url)).status_code
            except httpx2.TransportError as exc:
                outcome = type(exc).__name__
    finally:
        server.close()
        for writer in _WRITERS:  # connections still open: a server's close leaves them
            writer.close()
        _WRITERS.clear()
        await server.wait_closed()
        await asyncio.sleep(0)
    return outcome, _resent() - before


@pytest.mark.parametrize("method", ["tools/list", "initialize", "ping"])
def test_a_harmless_request_goes_out_again_on_a_fresh_connection(method: str) -> None:
    assert asyncio.run(_second_request(_post(method))) == (200, 1)


def test_a_tool_call_closed_under_is_never_sent_twice() -> None:
    assert asyncio.run(_second_request(_post("tools/call"))) == ("RemoteProtocolError", 0)


def test_the_event_stream_and_the_sessions_end_go_out_again() -> None:
    async def delete(client: httpx2.AsyncClient, url: str) -> httpx2.Response:
        return await client.delete(url)

    assert asyncio.run(_second_request(delete)) == (200, 1)


def test_what_may_be_resent_is_read_from_the_request_itself() -> None:
    def post(body: bytes) -> httpx2.Request:
        return httpx2.Request("POST", "http://upstream/mcp", content=body)

    for method in ("initialize", "notifications/initialized", "tools/list", "ping"):
        assert resendable(post(json.dumps({"method": method}).encode()))
    assert {"initialize", "notifications/initialized", "tools/list", "ping"} == RESENDABLE
    assert not resendable(post(b'{"method": "tools/call", "params": {"name": "ping"}}'))
    assert not resendable(post(b'[{"method": "tools/list"}]'))  # a batch: not ours to split
    assert not resendable(post(b"not json"))
    assert resendable(httpx2.Request("GET", "http://upstream/mcp"))
    assert resendable(httpx2.Request("DELETE", "http://upstream/mcp"))
