"""A bare relay server: a Beacon turn's upstream traffic, served the way a chat
server serves it, with nothing of Beacon's own (turn_overhead's baseline).

It runs as its own process beside the stack (``python -m bench.relay``), on the
same web stack as the chat server (FastAPI on uvicorn, a streaming SSE
response), so the comparison isolates what Beacon adds — bearer verification,
adjudication, frames, the store — and not the cost of serving HTTP at all.

A schedule (``PUT /schedules/{name}``) is the traffic of one recorded turn:
MCP ``tools/call``s, ``tools/list`` and streaming chat completions, in order.
``POST /relay/{name}`` replays it in one MCP session (official SDK, streamable
HTTP, the caller's bearer) and streams every completion's text to the client as
SSE ``delta`` events, then ``done``; like the chat server, it ends the response
at ``done`` and closes the MCP session afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from typing import Annotated, Any, Literal

import httpx
import httpx2
import uvicorn
from fastapi import FastAPI, Header, HTTPException
from fastapi.responses import StreamingResponse
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from pydantic import BaseModel, ConfigDict, Field

# The chat server's SSE event limit: a 3000-row page is one event. Importing its
# client module also makes this process read results as the chat server does
# (beacon/upstream/lean_reading.py: none of the SDK's work that buys nothing).
from beacon.loop.beside import REQUEST_PASSES
from beacon.upstream.mcp_client import MAX_EVENT_BYTES
from beacon.upstream.reuse import read_to_the_end, shared_connections
from beacon.wire.headers import SCENARIO_HEADER, TURN_HEADER
from harness.chat_process import running_server

# The same one-per-process TLS context as the chat server: a fair relay does not
# rebuild the CA bundle for every session either.
_TLS = ssl.create_default_context()


class Step(BaseModel):
    """One piece of upstream traffic: an MCP call, ``tools/list``, or a completion."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["call", "list_tools", "llm"]
    tool: str = ""
    arguments: dict[str, Any] = Field(default_factory=dict)
    body: dict[str, Any] | None = None
    # Sent without waiting for its answer, which the next completion waits for (the
    # chat server asks for the catalog beside its context call).
    beside: bool = False


@asynccontextmanager
async def mcp_session(
    url: str,
    bearer: str,
    turn: str,
    scenario: str | None = None,
    transport: httpx2.AsyncBaseTransport | None = None,
) -> AsyncIterator[ClientSession]:
    """One MCP session over streamable HTTP with the official SDK, as a relay would open."""
    headers = {"Authorization": f"Bearer {bearer}", TURN_HEADER: turn}
    if scenario is not None:
        headers[SCENARIO_HEADER] = scenario
    async with AsyncExitStack() as stack:
        client = await stack.enter_async_context(
            httpx2.AsyncClient(
                headers=headers,
                verify=_TLS,
                timeout=httpx2.Timeout(30.0, connect=5.0),
                # The chat server's connection reuse (beacon/upstream/reuse.py) too.
                event_hooks={"response": [read_to_the_end]},
                transport=transport,
            )
        )
        streams = await stack.enter_async_context(
            streamable_http_client(url, http_client=client, max_sse_event_size=MAX_EVENT_BYTES)
        )
        session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
        await session.initialize()
        yield session


async def call_tool(
    session: ClientSession, tool: str, arguments: dict[str, Any]
) -> types.CallToolResult:
    # send_request, as the chat server does: no client-side output-schema check.
    return await session.send_request(
        types.CallToolRequest(params=types.CallToolRequestParams(name=tool, arguments=arguments)),
        types.CallToolResult,
    )


async def stream_completion(
    http: httpx.AsyncClient, llm_url: str, body: dict[str, Any], turn: str
) -> AsyncIterator[str]:
    """Stream one completion, yielding its text deltas, to the end of its body."""
    url = llm_url.rstrip("/") + "/chat/completions"
    headers = {"Authorization": "Bearer bench", TURN_HEADER: turn}
    async with http.stream("POST", url, json=body, headers=headers, timeout=30.0) as response:
        response.raise_for_status()
        done = False
        async for line in response.aiter_lines():
            # Read to the body's end after [DONE], as the chat server does, so the
            # connection is reused: the relay gets every courtesy the server gets.
            if done or not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                continue
            chunk = json.loads(data)
            for choice in chunk.get("choices") or []:
                text = (choice.get("delta") or {}).get("content")
                if isinstance(text, str) and text:
                    yield text


def sse(event: str, seq: int, data: dict[str, Any]) -> bytes:
    return f"id: {seq}\nevent: {event}\ndata: {json.dumps(data)}\n\n".encode()


def create_app(mcp_url: str, llm_url: str) -> FastAPI:
    schedules: dict[str, list[Step]] = {}
    tasks: set[asyncio.Task[None]] = set()
    state: dict[str, httpx.AsyncClient] = {}
    lent: list[httpx2.AsyncBaseTransport | None] = [None]

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
        # The chat server's one pool of MCP connections for all sessions, too.
        async with httpx.AsyncClient(limits=limits) as http, shared_connections(mcp_url) as pool:
            state["http"] = http
            lent[0] = pool
            yield
            for task in list(tasks):
                await task

    app = FastAPI(title="bare relay (bench)", lifespan=lifespan)

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.put("/schedules/{name}", status_code=204)
    async def put_schedule(name: str, steps: list[Step]) -> None:
        schedules[name] = steps

    async def replay(
        steps: list[Step], bearer: str, turn: str, out: asyncio.Queue[bytes | None]
    ) -> None:
        seq = 0
        try:
            async with mcp_session(mcp_url, bearer, turn, transport=lent[0]) as session:
                pending: list[asyncio.Task[Any]] = []
                try:
                    for step in steps:
                        if step.kind == "call":
                            await call_tool(session, step.tool, step.arguments)
                        elif step.kind == "list_tools" and step.beside:
                            pending.append(asyncio.create_task(session.list_tools()))
                            # Its request reaches the socket first, as the server's does.
                            for _ in range(REQUEST_PASSES):
                                await asyncio.sleep(0)
                        elif step.kind == "list_tools":
                            await session.list_tools()
                        else:
                            assert step.body is not None
                            while pending:
                                await pending.pop()
                            async for text in stream_completion(
                                state["http"], llm_url, step.body, turn
                            ):
                                seq += 1
                                out.put_nowait(sse("delta", seq, {"text": text}))
                    while pending:
                        await pending.pop()
                finally:
                    for task in pending:
                        task.cancel()
                seq += 1
                out.put_nowait(sse("done", seq, {}))
                out.put_nowait(None)
        except Exception as exc:  # a failed replay must end the client's stream too
            out.put_nowait(sse("error", seq + 1, {"message": repr(exc)}))
            out.put_nowait(None)

    @app.post("/relay/{name}")
    async def relay(
        name: str,
        authorization: Annotated[str | None, Header()] = None,
        x_beacon_turn: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        steps = schedules.get(name)
        if steps is None:
            raise HTTPException(404, f"no schedule {name!r}")
        bearer = (authorization or "").partition(" ")[2].strip()
        out: asyncio.Queue[bytes | None] = asyncio.Queue()
        task = asyncio.create_task(replay(steps, bearer, x_beacon_turn or name, out))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

        async def frames() -> AsyncIterator[bytes]:
            # Ends at the terminal event; the session closes in the task afterwards.
            while (item := await out.get()) is not None:
                yield item

        return StreamingResponse(frames(), media_type="text/event-stream")

    return app


@contextmanager
def running_relay(mcp_url: str, llm_url: str) -> Iterator[str]:
    """The relay server as a process beside the stack; yields its origin."""
    command = [sys.executable, "-m", "bench.relay", "--mcp-url", mcp_url, "--llm-url", llm_url]
    with running_server(command) as origin:
        yield origin


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.relay")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mcp-url", required=True)
    parser.add_argument("--llm-url", required=True)
    args = parser.parse_args(argv)
    app = create_app(args.mcp_url, args.llm_url)
    # The same HTTP implementation as `beacon serve` (h11, for its header cap), so the
    # ratio compares what Beacon adds, not two HTTP parsers.
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", http="h11")


if __name__ == "__main__":
    main()
