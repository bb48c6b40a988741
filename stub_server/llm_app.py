"""OpenAI-compatible ``POST /v1/chat/completions`` serving the stub models.

Streams like the real wire: a role chunk, content or tool-call chunks, a
finish chunk, optional usage, then ``data: [DONE]``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any, Literal

import uvicorn
from fastapi import FastAPI, Header
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from stub_server.rules_model import Reply, plan
from stub_server.rules_narrator import narrate
from stub_server.scenarios import UnknownScenario, load_scenario

MODELS = ("beacon-rules",)
CHUNK_CHARS = 12


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")

    role: Literal["system", "user", "assistant", "tool", "developer"]
    content: str | list[dict[str, Any]] | None = None


class StreamOptions(BaseModel):
    include_usage: bool = False


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="allow")

    model: str = Field(min_length=1)
    messages: list[ChatMessage] = Field(min_length=1)
    tools: list[dict[str, Any]] | None = None
    stream: bool = False
    stream_options: StreamOptions | None = None


def _openai_error(status: int, code: str, message: str) -> JSONResponse:
    body = {"error": {"message": message, "type": "invalid_request_error", "code": code}}
    return JSONResponse(body, status_code=status)


def respond(request: ChatRequest) -> Reply:
    messages = [m.model_dump(exclude_none=True) for m in request.messages]
    if request.tools:
        names = {str(t.get("function", {}).get("name")) for t in request.tools}
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


def _chunks(request: ChatRequest, reply: Reply) -> Iterator[str]:
    base = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": request.model,
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return f"data: {json.dumps(body)}\n\n"

    yield chunk({"role": "assistant", "content": ""})
    for start in range(0, len(reply.content), CHUNK_CHARS):
        yield chunk({"content": reply.content[start : start + CHUNK_CHARS]})
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


def create_app() -> FastAPI:
    app = FastAPI(title="Beacon stub LLM")

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
    ) -> Any:
        if not (authorization or "").lower().startswith("bearer "):
            return _openai_error(401, "invalid_api_key", "missing bearer API key")
        if x_beacon_scenario is not None:
            try:
                load_scenario(x_beacon_scenario)
            except UnknownScenario as exc:
                return _openai_error(400, "unknown_scenario", str(exc))
        if request.model not in MODELS:
            return _openai_error(404, "model_not_found", f"model {request.model!r} does not exist")
        reply = respond(request)
        if request.stream:
            return StreamingResponse(_chunks(request, reply), media_type="text/event-stream")
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
