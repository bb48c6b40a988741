"""A model request that goes out on a kept-alive connection the endpoint has just
closed is sent again on a fresh one; a stream that broke after its head is not.

The endpoint is a raw socket server, so what it does to each connection is
exact: answer the first request and keep the connection open, then close it
without a word when the next request arrives on it — what an endpoint's idle
timer firing as the request is in flight looks like to the client.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import httpx
import pytest
from prometheus_client import REGISTRY

from beacon.llm.client import Completion, LlmConfig, TextDelta, stream_completion
from beacon.llm.errors import LlmUnavailable


def _sse(text: str) -> bytes:
    chunks = [
        {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


def _response(body: bytes) -> bytes:
    head = (
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
        f"content-length: {len(body)}\r\nconnection: keep-alive\r\n\r\n"
    )
    return head.encode() + body


@dataclass(frozen=False)  # counts what arrives as connections come
class Endpoint:
    """Counts requests per connection; ``act(connection, nth)`` says what to do."""

    act: Callable[[int, int], str]
    requests: list[tuple[int, int]] = field(default_factory=list)
    connections: int = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        connection, nth = self.connections, 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                await reader.readexactly(length)
                nth += 1
                self.requests.append((connection, nth))
                action = self.act(connection, nth)
                if action == "drop":
                    return
                if action == "break":
                    body = _sse("half")
                    writer.write(_response(body)[: -len(body) // 2])
                    await writer.drain()
                    return
                writer.write(_response(_sse(f"reply {connection}.{nth}")))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            writer.close()


@asynccontextmanager
async def serving(endpoint: Endpoint) -> AsyncIterator[LlmConfig]:
    server = await asyncio.start_server(endpoint.handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield LlmConfig(f"http://127.0.0.1:{port}/v1", "key", "m", timeout_s=10.0)


def _resends() -> float:
    return REGISTRY.get_sample_value("beacon_model_resends_total") or 0.0


async def _ask(http: httpx.AsyncClient, config: LlmConfig) -> tuple[str, Completion]:
    text, done = [], None
    async for event in stream_completion(
        http, config, [{"role": "user", "content": "hi"}], tools=None
    ):
        if isinstance(event, TextDelta):
            text.append(event.text)
        else:
            done = event
    assert done is not None
    return "".join(text), done


async def test_a_request_on_a_connection_closed_under_it_is_answered_on_a_fresh_one() -> None:
    # The second request on any connection finds it closed.
    endpoint = Endpoint(lambda connection, nth: "drop" if nth == 2 else "answer")
    resent_before = _resends()
    async with serving(endpoint) as config, httpx.AsyncClient() as http:
        first = await _ask(http, config)
        second = await _ask(http, config)
    assert _resends() == resent_before + 1  # an operator sees it in the metrics

    assert first[0] == "reply 1.1" and second[0] == "reply 2.1"
    assert second[1].finish_reason == "stop"
    # The second question went out twice: dropped on the kept connection, then answered.
    assert endpoint.requests == [(1, 1), (1, 2), (2, 1)]


async def test_an_endpoint_that_drops_every_request_is_unavailable_after_three_tries() -> None:
    endpoint = Endpoint(lambda connection, nth: "drop")
    async with serving(endpoint) as config, httpx.AsyncClient() as http:
        with pytest.raises(LlmUnavailable, match="unreachable"):
            await _ask(http, config)

    assert endpoint.requests == [(1, 1), (2, 1), (3, 1)]


async def test_a_stream_broken_after_its_head_is_never_sent_again() -> None:
    endpoint = Endpoint(lambda connection, nth: "break")
    async with serving(endpoint) as config, httpx.AsyncClient() as http:
        with pytest.raises(LlmUnavailable):
            await _ask(http, config)

    # Deltas may already be out to the user: a second answer would repeat them.
    assert endpoint.requests == [(1, 1)]
