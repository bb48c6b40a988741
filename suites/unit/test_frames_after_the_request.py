"""A tool call's request leaves before the frames made beside it are stored and sent:
the store's commit and the client's write run while the upstream works on the call,
not between the call and its request going out (issue 32, turn overhead)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest

import beacon.loop.state as state_module
from beacon.auth.verify import Identity
from beacon.llm.client import LlmConfig
from beacon.loop.frames import FrameMaker
from beacon.loop.orchestrator import Turn, TurnDeps
from beacon.loop.state import TurnState
from beacon.store.turns import TurnStore
from beacon.upstream.errors import UpstreamUnavailable
from beacon.upstream.link import UpstreamLink
from beacon.upstream.mcp_client import ToolOutcome
from beacon.wire.turns import TurnRequest

PROJECTS: dict[str, Any] = {
    "content": [{"type": "text", "text": "1 project"}],
    "structuredContent": {
        "items": [{"id": "prj-harbor-tower", "name": "Harbor Tower"}],
        "total": 1,
        "total_is_exact": True,
        "next_cursor": None,
    },
}


def _identity() -> Identity:
    expires = datetime.now(UTC) + timedelta(hours=1)
    return Identity(sub="u-wire", tiers=frozenset({"enterprise_ai"}), expires_at=expires)


class SlowWire:
    """An upstream whose client takes several passes of the loop to write a call's
    request (as the SDK's does: its streams and tasks), logging when it is written."""

    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.waiting: list[asyncio.Future[None]] = []

    def next_call_written(self) -> asyncio.Future[None]:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(waiter)
        return waiter

    @asynccontextmanager
    async def open(self, **_: object) -> AsyncIterator[SlowWire]:
        yield self

    async def list_tools(self) -> list[dict[str, Any]]:
        raise UpstreamUnavailable("this upstream lists nothing")

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        for _ in range(8):
            await asyncio.sleep(0)
        self.log.append(f"written {tool}")
        for waiter in self.waiting:
            if not waiter.done():
                waiter.set_result(None)
        return ToolOutcome(tool, arguments, PROJECTS, 200, len(json.dumps(PROJECTS)))


def _nothing(*_: object, **__: object) -> None:
    return None


def test_a_tool_calls_frame_is_sent_only_once_its_request_is_written() -> None:
    log: list[str] = []

    async def scenario() -> None:
        async with httpx.AsyncClient() as http:
            deps = TurnDeps(
                upstream=cast(UpstreamLink, SlowWire(log)),
                llm=LlmConfig("http://127.0.0.1:9/v1", "unused", "unused"),
                http=http,
                sentinel=3000,
                store=cast(
                    TurnStore,
                    SimpleNamespace(
                        writes_on_loop=True, save_answer=_nothing, record_audit=_nothing
                    ),
                ),
            )
            turn = Turn(
                TurnRequest(message="List all panoramas in Harbor Tower"),
                identity=_identity(),
                bearer="bearer",
                scenario=None,
                deps=deps,
                turn_id="t_wire",
                session_id=None,
            )
            async for frame in turn.run():
                log.append(f"frame {frame.type}")

    asyncio.run(scenario())
    assert "frame tool_call" in log, log
    assert log.index("written list_projects") < log.index("frame tool_call"), log


def _state() -> TurnState:
    return TurnState(
        request=TurnRequest(message="q"),
        identity=_identity(),
        scenario=None,
        deps=cast(TurnDeps, None),
        frames=FrameMaker("t_1"),
        session_id=None,
    )


def test_frames_wait_for_a_held_request_no_longer_than_it_is_held_or_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(state_module, "HOLD_S", 0.01)

    async def scenario() -> tuple[bool, bool, bool, bool]:
        state = _state()
        await asyncio.wait_for(state.released(), 1.0)  # nothing held: at once
        written: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with state.holding(written):
            waiting = asyncio.create_task(state.released())
            for _ in range(5):
                await asyncio.sleep(0)
            held = not waiting.done()
            written.set_result(None)
            await asyncio.wait_for(waiting, 1.0)
            # A request never written holds frames for the bound, no longer.
            never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            with state.holding(never):
                await asyncio.wait_for(state.released(), 1.0)
            restored = state.hold is written
        return held, never.cancelled(), restored, state.hold is None

    assert asyncio.run(scenario()) == (True, True, True, True)
