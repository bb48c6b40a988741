"""A response closed before its end is read to its end first (bounded), so its
connection serves the next request instead of a new one being opened: the MCP SDK
stops reading a POST's event stream at the event that answers it (issue 32).

Over real sockets: a uvicorn server in a thread, httpx's own pool, its connections
counted by the ``trace`` extension httpx hands to its transport.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import anyio
import httpx2
import pytest
from prometheus_client import REGISTRY
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from beacon.upstream import reuse
from beacon.upstream.reuse import DRAIN_BYTES, count_connection, read_to_the_end
from harness.inproc import serving

ANSWER = b'event: message\ndata: {"answer": 1}\n\n'


def _app(_: str) -> Starlette:
    async def answers(request: Request) -> StreamingResponse:
        async def body() -> AsyncIterator[bytes]:
            yield ANSWER
            await asyncio.sleep(0.005)  # its end follows, as an MCP server's does
            yield b": the end\n\n"

        return StreamingResponse(body(), media_type="text/event-stream")

    async def never_ends(request: Request) -> StreamingResponse:
        async def body() -> AsyncIterator[bytes]:
            yield ANSWER
            await asyncio.sleep(3600)
            yield b""

        return StreamingResponse(body(), media_type="text/event-stream")

    async def says_more(request: Request) -> StreamingResponse:
        async def body() -> AsyncIterator[bytes]:
            yield ANSWER
            for _ in range(2 * DRAIN_BYTES // 1024):
                yield b": " + b"x" * 1020 + b"\n\n"

        return StreamingResponse(body(), media_type="text/event-stream")

    routes = [
        Route("/answers", answers),
        Route("/never-ends", never_ends),
        Route("/says-more", says_more),
    ]
    return Starlette(routes=routes)


@pytest.fixture(autouse=True)
def _patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream's end read within a second, not the product's quarter: the server
    here is a thread of this process, and a loaded machine may hold it that long."""
    monkeypatch.setattr(reuse, "DRAIN_S", 1.0)


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with serving(_app) as url:
        yield url


class _Connections:
    def __init__(self) -> None:
        self.opened = 0

    async def trace(self, event: str, info: dict[str, object]) -> None:
        if event == "connection.connect_tcp.complete":
            self.opened += 1


async def _first_events(
    origin: str, paths: list[str], *, reuse: bool = True
) -> tuple[int, list[str]]:
    """Each path's first ``data:`` line, the response closed right after it (as the
    SDK closes a POST's stream at its answer); and how many connections that took."""
    connections = _Connections()
    hooks = {"response": [read_to_the_end, count_connection] if reuse else [count_connection]}
    read: list[str] = []
    async with httpx2.AsyncClient(event_hooks=hooks) as client:
        for path in paths:
            extensions = {"trace": connections.trace}
            async with client.stream("GET", origin + path, extensions=extensions) as response:
                async for line in response.aiter_lines():
                    if line.startswith("data:"):
                        read.append(line)
                        break
                await response.aclose()
    return connections.opened, read


def test_responses_closed_at_their_answer_share_one_connection(origin: str) -> None:
    opened, read = asyncio.run(_first_events(origin, ["/answers"] * 4))
    assert opened == 1
    assert read == ['data: {"answer": 1}'] * 4  # what the caller reads never changes


def test_without_reading_to_the_end_each_response_takes_a_connection(origin: str) -> None:
    # The measure the rule is for: httpx drops a connection whose body was not read.
    opened, _ = asyncio.run(_first_events(origin, ["/answers"] * 4, reuse=False))
    assert opened == 4


def test_a_stream_that_does_not_end_is_closed_within_the_bound_and_not_reused(
    origin: str,
) -> None:
    async def scenario() -> tuple[int, list[str]]:
        return await asyncio.wait_for(
            _first_events(origin, ["/never-ends", "/answers", "/answers"]), timeout=10
        )

    opened, read = asyncio.run(scenario())
    assert opened == 2  # the open stream's connection closed; the answers share one
    assert len(read) == 3


def test_a_stream_that_says_more_than_the_bound_is_closed_not_read_on(origin: str) -> None:
    opened, read = asyncio.run(_first_events(origin, ["/says-more", "/answers", "/answers"]))
    assert opened == 2
    assert len(read) == 3


def test_a_response_read_to_its_end_by_its_caller_is_reused_as_before(origin: str) -> None:
    async def scenario() -> tuple[int, list[bytes]]:
        connections = _Connections()
        bodies: list[bytes] = []
        async with httpx2.AsyncClient(event_hooks={"response": [read_to_the_end]}) as client:
            for _ in range(3):
                extensions = {"trace": connections.trace}
                response = await client.get(origin + "/answers", extensions=extensions)
                bodies.append(response.content)
        return connections.opened, bodies

    opened, bodies = asyncio.run(scenario())
    assert opened == 1
    assert bodies == [ANSWER + b": the end\n\n"] * 3


def test_a_close_inside_a_cancelled_scope_still_closes_the_response(origin: str) -> None:
    """The SDK aborts a cancelled request's POST by cancelling its scope: the close
    reads nothing more and the connection is let go, not left half-read in the pool."""

    async def scenario() -> tuple[int, bool]:
        connections = _Connections()
        async with httpx2.AsyncClient(event_hooks={"response": [read_to_the_end]}) as client:
            extensions = {"trace": connections.trace}
            with anyio.CancelScope() as scope:
                async with client.stream(
                    "GET", origin + "/never-ends", extensions=extensions
                ) as response:
                    async for line in response.aiter_lines():
                        if line.startswith("data:"):
                            break
                    scope.cancel()
                    await response.aclose()
            closed = response.is_closed
            after = await client.get(origin + "/answers", extensions=extensions)
            assert after.status_code == 200
        return connections.opened, closed

    opened, closed = asyncio.run(asyncio.wait_for(scenario(), timeout=10))
    assert closed
    assert opened == 2


def _counted() -> float:
    return REGISTRY.get_sample_value("beacon_upstream_connections_total") or 0.0


@pytest.mark.parametrize("reuse", [True, False])
def test_the_connections_metric_counts_each_connection_once(origin: str, reuse: bool) -> None:
    """Against httpx's own account of the connections it opened: one a response
    without reuse, one in all with it."""
    before = _counted()
    opened, _ = asyncio.run(_first_events(origin, ["/answers"] * 5, reuse=reuse))
    assert opened == (1 if reuse else 5)
    assert _counted() - before == opened
