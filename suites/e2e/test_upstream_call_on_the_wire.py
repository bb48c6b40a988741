"""The upstream client says when a tool call's request is on the wire, over real HTTP
against the stack's stub: the turn reads its question ahead only then, so the read
never holds the context call back (issue 32; the turn's side:
suites/unit/test_turn_opening_overlap.py).
"""

from __future__ import annotations

import asyncio

import pytest

from beacon.upstream.mcp_client import connect
from harness.stack import Stack

pytestmark = pytest.mark.e2e


async def test_a_tool_calls_request_is_on_the_wire_before_its_result_is_read(
    stack: Stack,
) -> None:
    order: list[str] = []
    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=30) as upstream:
        written = upstream.next_call_written()
        written.add_done_callback(lambda _: order.append("written"))
        await upstream.list_tools()
        await asyncio.sleep(0.05)
        assert not written.done(), "a listing is no tool call"
        outcome = await upstream.call_tool("list_projects", {})
        order.append("answered")
        # Once written, the next call's waiter is a new one: nothing resolves it early.
        later = upstream.next_call_written()
        await asyncio.sleep(0.05)
        assert not later.done()
    assert outcome.result.get("isError") is not True
    assert order == ["written", "answered"]


async def test_the_wire_is_heard_while_a_slow_upstream_is_still_at_work(stack: Stack) -> None:
    async with connect(
        stack.mcp_url, bearer=stack.token(), scenario="slow-upstream", timeout_s=30
    ) as upstream:
        written = upstream.next_call_written()
        call = asyncio.create_task(upstream.call_tool("list_projects", {}))
        await asyncio.wait_for(written, timeout=10)
        assert not call.done(), "heard only once the upstream answered"
        outcome = await call
    assert outcome.result.get("isError") is not True
