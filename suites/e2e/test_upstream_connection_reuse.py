"""Beacon's MCP session sends its requests over one connection, over real HTTP
against the stack's stub: the SDK closes each POST's event stream at its answer,
and the client reads the stream's end first so the connection is kept (issue 32;
the rule's bounds: suites/unit/test_connection_reuse.py).
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from beacon.upstream.mcp_client import connect
from beacon.upstream.reuse import shared_connections
from harness.stack import Stack

pytestmark = pytest.mark.e2e

# Long enough for a stream's end to be read on a loaded machine.
PAUSE_S = 0.1


def _opened(caplog: pytest.LogCaptureFixture) -> int:
    return sum(r.getMessage().startswith("connect_tcp.complete") for r in caplog.records)


async def test_a_sessions_requests_share_one_connection_beside_its_event_stream(
    stack: Stack, caplog: pytest.LogCaptureFixture
) -> None:
    # A request sent while the one before still reads its stream's end (a loaded
    # machine) takes a second connection; once each has come back, none is opened.
    with caplog.at_level(logging.DEBUG, logger="httpcore2.connection"):
        async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=30) as upstream:
            await asyncio.sleep(PAUSE_S)
            opening = _opened(caplog)
            await upstream.list_tools()
            outcomes = []
            for _ in range(3):
                await asyncio.sleep(PAUSE_S)
                outcomes.append(await upstream.call_tool("list_projects", {}))
            later = _opened(caplog) - opening
    # initialize, initialized and the server's event stream (the SDK's GET): two,
    # or three when initialize's end came late; then tools/list and three calls on
    # those. Each request took its own before: eight in all.
    assert opening <= 3
    # One more at most: a stream's end read later than the pause on a loaded machine.
    assert later <= 1, later
    assert [o.result.get("isError") is not True for o in outcomes] == [True] * 3


async def test_a_later_session_starts_on_a_connection_an_earlier_one_left(
    stack: Stack, caplog: pytest.LogCaptureFixture
) -> None:
    """Sessions lent the process's pool (as the chat server's turns are): a turn's
    session opens only its own event stream; its requests go out on the pool's."""
    opened: list[int] = []
    with caplog.at_level(logging.DEBUG, logger="httpcore2.connection"):
        async with shared_connections(stack.mcp_url) as lent:
            assert lent is not None
            for _ in range(5):
                before = _opened(caplog)
                async with connect(
                    stack.mcp_url, bearer=stack.token(), timeout_s=30, transport=lent
                ) as upstream:
                    await asyncio.sleep(PAUSE_S)
                    await upstream.call_tool("list_projects", {})
                    await asyncio.sleep(PAUSE_S)
                opened.append(_opened(caplog) - before)
                await asyncio.sleep(PAUSE_S)  # the DELETE's connection back in the pool
    # The first: its requests' connection and its event stream (a third when a
    # request went out before a stream's end was read). A later one: its event
    # stream, unless the last one's was ended by the server (its DELETE) and kept.
    # Sessions with their own clients opened two each: ten.
    assert opened[0] <= 3, opened
    assert sum(opened) <= 8, opened


async def test_a_proxy_for_the_upstreams_scheme_leaves_each_session_its_own_client(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    async with shared_connections(stack.mcp_url) as lent:
        assert lent is None
    monkeypatch.delenv("HTTP_PROXY")
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")  # another scheme's proxy
    async with shared_connections(stack.mcp_url) as lent:
        assert lent is not None
