"""OpenAI-compatible ``POST /v1/chat/completions`` serving the stub models.

Streams like the real wire: a role chunk, content or tool-call chunks, a
finish chunk, optional usage, then ``data: [DONE]``. The model answering is
``request.model``, unless the ``X-Beacon-Scenario`` in force names a scripted
one: the chat server always asks for ``beacon-rules`` and a scenario bends it.

``scripted:narrates`` answers with the narration a test registered beforehand
(``POST /dev/narrations``), keyed by the exact question, optionally as the
exact content chunks the stream must carry (a number split across chunks).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

import anyio
import uvicorn
from fastapi import FastAPI, Header, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import ValidationError

from beacon.wire.tools import TOOL_SPECS
from stub_server.llm_narrations import NarrationBook, NarrationIn
from stub_server.llm_requests import ChatRequest, RequestLog
from stub_server.pace import Pace, Sleep, pace_from_env
from stub_server.rules_any import plan_any
from stub_server.rules_model import Reply, _last_user, plan
from stub_server.rules_narrator import narrate
from stub_server.scenarios import UnknownScenario, load_scenario
from stub_server.scripted import RULES, Script, model_names, resolve, scripted_reply

MODELS = tuple(model_names())
CHUNK_CHARS = 12
NO_PACE = Pace()
# Past the chat server's 120 s answer deadline; tests set a short one by env.
DEFAULT_STALL_S = 130.0


def stall_seconds() -> float:
    raw = os.environ.get("BEACON_STUB_STALL_S", "")
    return float(raw) if raw else DEFAULT_STALL_S


_LOOPBACK = ("127.", "::1", "localhost")


def _is_loopback(request: Request) -> bool:
    host = request.client.host if request.client else ""
    return host.startswith(_LOOPBACK)


def _openai_error(
    status: int, code: str, message: str, type_: str = "invalid_request_error"
) -> JSONResponse:
    body = {"error": {"message": message, "type": type_, "code": code}}
    headers = {"Retry-After": "1"} if status == 429 else None
    return JSONResponse(body, status_code=status, headers=headers)


# The stub's own tools (SPEC §2.1): a catalog with none of them is another upstream's.
STUB_TOOL_NAMES = frozenset(TOOL_SPECS)


def respond(request: ChatRequest, script: Script | None = None) -> Reply:
    messages = [m.model_dump(exclude_none=True) for m in request.messages]
    names = {str(t.get("function", {}).get("name")) for t in request.tools or []}
    if script is not None:
        return scripted_reply(script, messages, names)
    if names and not names & STUB_TOOL_NAMES:
        # An upstream Beacon fronts through a contract: tools the planner never met.
        return plan_any(messages, list(request.tools or []))
    if names:
        return plan(messages, names)
    return Reply(narrate(messages))


def _usage(request: ChatRequest, reply: Reply) -> dict[str, int]:
    prompt = sum(len(json.dumps(m.model_dump())) for m in request.messages) // 4
    completion = (len(reply.content) + len(json.dumps(reply.tool_calls))) // 4
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


async def _chunks(
    request: ChatRequest,
    reply: Reply,
    stall_s: float,
    pieces: Sequence[str] | None = None,
    pace: Pace = NO_PACE,
    sleep: Sleep = anyio.sleep,
) -> AsyncIterator[str]:
    base = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": request.model,
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return f"data: {json.dumps(body)}\n\n"

    if stall_s > 0:
        # Headers are out, then silence: the client's deadline must fire. A client
        # that goes away cancels this sleep with the response task.
        await anyio.sleep(stall_s)
    if pace.first_s > 0:
        await sleep(pace.first_s)  # a real model's time to its first token
    yield chunk({"role": "assistant", "content": ""})
    if pieces is None:
        pieces = [
            reply.content[start : start + CHUNK_CHARS]
            for start in range(0, len(reply.content), CHUNK_CHARS)
        ]
    for piece in pieces:
        if pace.chunk_s > 0:
            await sleep(pace.chunk_s)
        yield chunk({"content": piece})
    for index, call in enumerate(reply.tool_calls):
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": call["id"],
                        "type": "function",
                        "function": {"name": call["function"]["name"], "arguments": ""},
                    }
                ]
            }
        )
        yield chunk(
            {
                "tool_calls": [
                    {"index": index, "function": {"arguments": call["function"]["arguments"]}}
                ]
            }
        )
    yield chunk({}, reply.finish_reason)
    if request.stream_options and request.stream_options.include_usage:
        yield f"data: {json.dumps({**base, 'choices': [], 'usage': _usage(request, reply)})}\n\n"
    yield "data: [DONE]\n\n"


def create_app(*, stall_s: float | None = None, pace: Pace | None = None) -> FastAPI:
    """``pace``: default from the environment (``stub_server.pace``)."""
    app = FastAPI(title="Beacon stub LLM")
    stall_for = stall_seconds() if stall_s is None else stall_s
    paced = pace_from_env() if pace is None else pace
    log = RequestLog()
    book = NarrationBook()

    @app.get("/dev/requests")
    async def requests_made() -> dict[str, Any]:
        return {"requests": log.entries()}

    @app.delete("/dev/requests", status_code=204)
    async def forget_requests() -> None:
        log.clear()

    @app.post("/dev/narrations", status_code=201, response_model=None)
    async def register_narration(request: Request) -> Any:
        if not _is_loopback(request):
            return JSONResponse({"error": "forbidden"}, status_code=403)
        try:
            wanted = NarrationIn.model_validate_json(await request.body())
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "(body)"
            return JSONResponse(
                {"error": "invalid_request", "field": field, "message": first["msg"]},
                status_code=422,
            )
        narration = book.register(wanted)
        chunks = None if narration.chunks is None else len(narration.chunks)
        return JSONResponse(
            {"question": wanted.question.strip(), "chars": len(narration.text), "chunks": chunks},
            status_code=201,
        )

    @app.get("/dev/narrations", response_model=None)
    async def registered_narrations(request: Request) -> Any:
        if not _is_loopback(request):
            return JSONResponse({"error": "forbidden"}, status_code=403)
        return {"questions": book.questions()}

    @app.delete("/dev/narrations", status_code=204, response_model=None)
    async def forget_narrations(request: Request, question: str | None = None) -> Response:
        if not _is_loopback(request):
            return JSONResponse({"error": "forbidden"}, status_code=403)
        book.forget(question)
        return Response(status_code=204)

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [
                {"id": m, "object": "model", "created": 0, "owned_by": "beacon-stub"}
                for m in MODELS
            ],
        }

    @app.post("/v1/chat/completions", response_model=None)
    async def completions(
        request: ChatRequest,
        authorization: str | None = Header(default=None),
        x_beacon_scenario: str | None = Header(default=None),
        x_beacon_turn: str | None = Header(default=None),
        traceparent: str | None = Header(default=None),
    ) -> Any:
        if not (authorization or "").lower().startswith("bearer "):
            return _openai_error(401, "invalid_api_key", "missing bearer API key")
        model = request.model
        if x_beacon_scenario is not None:
            try:
                scenario = load_scenario(x_beacon_scenario)
            except UnknownScenario as exc:
                return _openai_error(400, "unknown_scenario", str(exc))
            if scenario.model != RULES:
                model = scenario.model
        try:
            script = resolve(model)
        except KeyError:
            return _openai_error(404, "model_not_found", f"model {model!r} does not exist")
        earlier_answers = log.answer_calls(x_beacon_turn)
        log.record(request, model, x_beacon_scenario, x_beacon_turn, traceparent)
        if script is not None and script.once and not request.tools and earlier_answers:
            script = None  # the turn's repair: answer like beacon-rules
        if script is not None and script.failure is not None:
            failure = script.failure
            return _openai_error(failure.status, failure.code, failure.message, failure.type)
        stall = (
            stall_for
            if script is not None and script.stall and script.applies(bool(request.tools))
            else 0.0
        )
        pieces: tuple[str, ...] | None = None
        if script is not None and script.narrates and not request.tools:
            _, question = _last_user([m.model_dump(exclude_none=True) for m in request.messages])
            narration = book.get(question)
            if narration is None:
                return _openai_error(
                    409,
                    "narration_not_registered",
                    f"scripted:{script.name} has no narration for the question "
                    f"{question[:200]!r}: POST /dev/narrations first",
                )
            reply, pieces = Reply(narration.text), narration.chunks
        else:
            reply = respond(request, script)
        if request.stream:
            return StreamingResponse(
                _chunks(request, reply, stall, pieces, paced), media_type="text/event-stream"
            )
        if stall:
            await anyio.sleep(stall)
        if paced.first_s > 0:
            await anyio.sleep(paced.first_s)
        message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
        if reply.tool_calls:
            message["tool_calls"] = reply.tool_calls
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.model,
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
            "usage": _usage(request, reply),
        }

    return app


def serve(*, host: str = "127.0.0.1", port: int) -> None:
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
