"""A turn opens its upstream session while its ``start`` is stored and sent, and
makes no tool call or model request before that frame is out (issue 32).

``Turn.run`` is driven as the server's hub drives it: the first frame is taken,
and the next is asked for only once ``start`` is published. The upstream is a
recording fake; the store, the model and the HTTP client are never reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest

import beacon.loop.gather as gather_module
from beacon.auth.verify import Identity
from beacon.llm.client import LlmConfig
from beacon.loop.orchestrator import Turn, TurnDeps
from beacon.store.turns import TurnStore
from beacon.upstream.errors import UpstreamUnavailable
from beacon.upstream.link import UpstreamLink
from beacon.upstream.mcp_client import ToolOutcome
from beacon.wire.turns import TurnRequest

# The context call's answer: two projects, counted exactly.
PROJECTS: dict[str, Any] = {
    "content": [{"type": "text", "text": "2 projects"}],
    "structuredContent": {
        "items": [
            {"id": "prj-harbor-tower", "name": "Harbor Tower"},
            {"id": "prj-maple-clinic", "name": "Maple Clinic"},
        ],
        "total": 2,
        "total_is_exact": True,
        "next_cursor": None,
    },
}


class RecordingLink:
    """An upstream link whose session logs what the turn does with it; its requests
    fail as an unreachable upstream's would, which ends the turn with an error."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.wire: list[asyncio.Future[None]] = []

    def next_call_written(self) -> asyncio.Future[None]:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.wire.append(waiter)
        return waiter

    def written(self) -> None:
        """A call's request is on the wire: what the client's trace would say."""
        for waiter in self.wire:
            if not waiter.done():
                waiter.set_result(None)
        self.wire = []

    @asynccontextmanager
    async def open(
        self, *, bearer: str, scenario: str | None, turn_id: str | None
    ) -> AsyncIterator[RecordingLink]:
        self.log.append("open")
        try:
            yield self
        finally:
            self.log.append("close")

    async def list_tools(self) -> list[dict[str, Any]]:
        self.log.append("tools/list")
        raise UpstreamUnavailable("the recording upstream lists nothing")

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        self.log.append(f"tools/call {tool}")
        self.written()
        if tool != "list_projects":
            raise UpstreamUnavailable("the recording upstream answers no call")
        return ToolOutcome(tool, arguments, PROJECTS, 200, len(json.dumps(PROJECTS)))


def _nothing(*_: object, **__: object) -> None:
    return None


def _turn(
    link: RecordingLink,
    http: httpx.AsyncClient,
    question: str = "List all panoramas in Harbor Tower",
) -> Turn:
    deps = TurnDeps(
        upstream=cast(UpstreamLink, link),
        llm=LlmConfig("http://127.0.0.1:9/v1", "unused", "unused"),
        http=http,
        sentinel=3000,
        # A single-mode turn reads no session; what it would write goes nowhere.
        store=cast(
            TurnStore,
            SimpleNamespace(writes_on_loop=True, save_answer=_nothing, record_audit=_nothing),
        ),
    )
    identity = Identity(
        sub="u-overlap",
        tiers=frozenset({"enterprise_ai"}),
        expires_at=datetime.now(UTC) + timedelta(hours=1),
    )
    return Turn(
        TurnRequest(message=question),
        identity=identity,
        bearer="bearer",
        scenario=None,
        deps=deps,
        turn_id="t_overlap",
        session_id=None,
    )


async def _settle(passes: int = 20) -> None:
    for _ in range(passes):
        await asyncio.sleep(0)


def test_a_turns_upstream_session_opens_while_its_start_is_stored_and_no_call_goes_out() -> None:
    async def scenario() -> list[str]:
        link = RecordingLink()
        async with httpx.AsyncClient() as http:
            frames = _turn(link, http).run()
            start = await anext(frames)
            assert start.type == "start"
            await _settle()  # `start` is being stored: the next frame is not asked for
            assert link.log == ["open"], "the session opens beside the start, and waits"
            await frames.aclose()  # the store refused `start`: the turn ends there
        return link.log

    assert asyncio.run(scenario()) == ["open", "close"]


def test_once_start_is_out_the_turn_makes_its_first_call() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        link = RecordingLink()
        async with httpx.AsyncClient() as http:
            types = [frame.type async for frame in _turn(link, http).run()]
        return link.log, types

    log, types = asyncio.run(scenario())
    assert log[0] == "open"
    assert log[1].startswith("tools/"), log  # the first request, once `start` is out
    assert log[-1] == "close"
    assert types[0] == "start" and types[-1] == "error"


def test_a_turn_its_upstream_fails_leaves_the_operator_one_line_with_code_and_cause(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> list[str]:
        link = RecordingLink()
        async with httpx.AsyncClient() as http:
            return [frame.type async for frame in _turn(link, http).run()]

    with caplog.at_level(logging.WARNING, logger="beacon.loop.orchestrator"):
        types = asyncio.run(scenario())
    assert types[-1] == "error"
    lines = [r.getMessage() for r in caplog.records if "t_overlap" in r.getMessage()]
    assert len(lines) == 1, lines
    assert "failed: upstream_unavailable: the recording upstream" in lines[0], lines


def test_the_catalog_is_asked_for_before_the_context_call_and_the_question_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = RecordingLink()
    read = gather_module.asked_set

    def reading(*args: Any, **kwargs: Any) -> Any:
        link.log.append("question read")
        return read(*args, **kwargs)

    monkeypatch.setattr(gather_module, "asked_set", reading)
    needed = gather_module.needed_tools

    def intent(question: str) -> tuple[str, ...]:
        link.log.append("intent read")
        return needed(question)

    monkeypatch.setattr(gather_module, "needed_tools", intent)

    async def scenario() -> None:
        async with httpx.AsyncClient() as http:
            _ = [frame async for frame in _turn(link, http).run()]

    asyncio.run(scenario())
    # The upstream lists its tools while the context call runs and Beacon works out
    # the question's constraints: no round trip waits for another.
    assert link.log[:4] == ["open", "tools/list", "tools/call list_projects", "question read"]


class OverlapLink(RecordingLink):
    """Answers its context call only while a listing is in flight: a turn that made
    the call and then asked for the catalog finds its call waiting alone."""

    def __init__(self) -> None:
        super().__init__()
        self.listing = asyncio.Event()

    async def list_tools(self) -> list[dict[str, Any]]:
        self.listing.set()
        return await super().list_tools()

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        if tool == "list_projects":
            try:
                await asyncio.wait_for(self.listing.wait(), timeout=2)
            except TimeoutError:
                self.log.append("context call waited alone")
        return await super().call_tool(tool, arguments)


def test_the_context_call_is_made_while_the_catalog_request_is_in_flight() -> None:
    async def scenario() -> list[str]:
        link = OverlapLink()
        async with httpx.AsyncClient() as http:
            _ = [frame async for frame in _turn(link, http).run()]
        return link.log

    log = asyncio.run(scenario())
    # One round trip the turn no longer waits for in turn.
    assert "context call waited alone" not in log, log
    assert "tools/call list_projects" in log


def test_a_counter_question_leaves_the_catalog_unread_and_its_failure_unheard() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        link = RecordingLink()
        async with httpx.AsyncClient() as http:
            turn = _turn(link, http, question="How many open safety findings are there?")
            types = [frame.type async for frame in turn.run()]
        return link.log, types

    log, types = asyncio.run(scenario())
    # Two projects and none named: which one is asked first; the listing that failed
    # meanwhile is not the turn's error.
    assert "notice" in types and types[-1] == "done", types
    assert log[-1] == "close"


class InFlightLink(RecordingLink):
    """A context call that takes many passes of the loop to reach the wire (as the
    SDK's does) and then stays out a while; its directory can be changed between turns."""

    def __init__(self, projects: dict[str, Any] = PROJECTS) -> None:
        super().__init__()
        self.projects = projects

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        if tool != "list_projects":
            return await super().call_tool(tool, arguments)
        await _settle(60)  # the client's own passes before the socket
        self.log.append("tools/call list_projects")
        self.written()
        await asyncio.sleep(0.02)  # the upstream at work
        self.log.append("context answered")
        return ToolOutcome(tool, arguments, self.projects, 200, len(json.dumps(self.projects)))


def _reads(monkeypatch: pytest.MonkeyPatch, link: RecordingLink) -> None:
    monkeypatch.setattr(gather_module, "_DIRECTORIES", OrderedDict())
    read = gather_module.asked_set

    def reading(*args: Any, **kwargs: Any) -> Any:
        link.log.append("question read")
        return read(*args, **kwargs)

    monkeypatch.setattr(gather_module, "asked_set", reading)
    needed = gather_module.needed_tools

    def intent(question: str) -> tuple[str, ...]:
        link.log.append("intent read")
        return needed(question)

    monkeypatch.setattr(gather_module, "needed_tools", intent)


def _two_turns(link: RecordingLink, second: str) -> Turn:
    async def scenario() -> Turn:
        async with httpx.AsyncClient() as http:
            _ = [frame async for frame in _turn(link, http).run()]
            link.log.append("second turn")
            turn = _turn(link, http, question=second)
            _ = [frame async for frame in turn.run()]
        return turn

    return asyncio.run(scenario())


def test_a_callers_question_is_read_ahead_once_its_context_call_is_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = InFlightLink()
    _reads(monkeypatch, link)
    _two_turns(link, "List all panoramas in Harbor Tower")
    first, second = " ".join(link.log).split("second turn")
    # No directory seen yet: the question is read once the context call answered.
    assert first.index("context answered") < first.index("question read"), first
    # The caller's last directory: read while the call is out, never before it left,
    # and not again once the same directory came back.
    assert second.count("question read") == 1, second
    sent, answered = second.index("tools/call list_projects"), second.index("context answered")
    assert sent < second.index("question read") < answered, second
    # And the tools its intent needs (the PEP's to deny), in the same window, once.
    assert second.count("intent read") == 1, second
    assert sent < second.index("intent read") < answered, second


def test_a_reading_ahead_against_another_directory_is_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = InFlightLink()
    _reads(monkeypatch, link)
    grown = json.loads(json.dumps(PROJECTS))
    grown["structuredContent"]["items"].append({"id": "prj-cedar-school", "name": "Cedar School"})
    grown["structuredContent"]["total"] = 3

    async def scenario() -> Turn:
        async with httpx.AsyncClient() as http:
            _ = [frame async for frame in _turn(link, http).run()]
            link.projects = grown  # a project added between the caller's turns
            turn = _turn(link, http, question="List all panoramas in Cedar School")
            _ = [frame async for frame in turn.run()]
        return turn

    turn = asyncio.run(scenario())
    # Read ahead against the old directory (no Cedar School), then against the new one.
    assert link.log.count("question read") == 3, link.log
    projects = [c.value for c in turn.state.constraints if c.axis == "project"]
    assert projects == ["prj-cedar-school"]


def test_a_turn_closes_its_upstream_session_only_once_its_terminal_is_published(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import beacon.loop.orchestrator as orchestrator

    link = RecordingLink()

    async def gathered(state: Any, upstream: Any) -> None:
        link.log.append("gathered")

    async def answered(state: Any) -> None:
        state.emit("references", citations=[], counts=[], complete=False)
        state.emit("done", finish_reason="stop", answer="Hello.")

    monkeypatch.setattr(orchestrator, "gather", gathered)
    monkeypatch.setattr(orchestrator, "answer", answered)

    async def scenario() -> list[str]:
        published = asyncio.Event()

        async def wait_published() -> None:
            await published.wait()

        async with httpx.AsyncClient() as http:
            turn = _turn(link, http)
            object.__setattr__(
                turn.state, "deps", replace(turn.state.deps, published=wait_published)
            )
            frames = turn.run()
            types = [(await anext(frames)).type for _ in range(3)]
            await _settle(40)  # the terminal is stored and written meanwhile
            link.log.append(f"{types[-1]} published")
            published.set()
            with contextlib.suppress(StopAsyncIteration):
                await anext(frames)
        return link.log

    assert asyncio.run(scenario()) == ["open", "gathered", "done published", "close"]
