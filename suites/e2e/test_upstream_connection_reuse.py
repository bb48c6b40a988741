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
    assert later == 0
    assert [o.result.get("isError") is not True for o in outcomes] == [True] * 3
