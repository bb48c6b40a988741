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
import threading
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import uvicorn
from fastapi import FastAPI, Header, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from beacon.wire.tools import TOOL_SPECS
from stub_server.rules_any import plan_any
from stub_server.rules_model import Reply, _json_blocks, _last_user, plan
from stub_server.rules_narrator import narrate
from stub_server.scenarios import UnknownScenario, load_scenario
from stub_server.scripted import RULES, Script, model_names, resolve, scripted_reply

MODELS = tuple(model_names())
CHUNK_CHARS = 12
# Past the chat server's 120 s answer deadline; tests set a short one by env.
DEFAULT_STALL_S = 130.0


def stall_seconds() -> float:
    raw = os.environ.get("BEACON_STUB_STALL_S", "")
    return float(raw) if raw else DEFAULT_STALL_S


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


def _conversation(request: ChatRequest) -> list[dict[str, Any]]:
    messages = [m.model_dump(exclude_none=True) for m in request.messages]
    if not any('"conversation"' in str(m.get("content")) for m in messages):
        return []
    for block in _json_blocks(messages):
        turns = block.get("conversation")
        if isinstance(turns, list):
            return [
                {"question": t.get("question"), "citations": t.get("citations", [])}
                for t in turns
                if isinstance(t, dict)
            ]
    return []


def _anchor_kinds(request: ChatRequest) -> list[str]:
    """The kinds of the narration anchors the request carried, in order."""
    messages = [m.model_dump(exclude_none=True) for m in request.messages]
    if not any('"anchors"' in str(m.get("content")) for m in messages):
        return []
    for block in _json_blocks(messages):
        anchors = block.get("anchors")
        if isinstance(anchors, list):
            return [str(a.get("kind")) for a in anchors if isinstance(a, dict)]
    return []


class RequestLog:
    """Every physical completion request, in order (``GET /dev/requests``)."""

    def __init__(self) -> None:
        self._entries: list[dict[str, Any]] = []

    def record(
        self,
        request: ChatRequest,
        model: str,
        scenario: str | None,
        turn: str | None,
        traceparent: str | None = None,
    ) -> dict[str, Any]:
        entry = {
            "seq": len(self._entries) + 1,
            "model": model,
            "requested_model": request.model,
            "scenario": scenario,
            "turn": turn,
            "traceparent": traceparent,  # the caller's W3C trace context, as sent
            "tools": bool(request.tools),
            "messages": len(request.messages),
            "roles": [m.role for m in request.messages],
            "bytes": len(request.model_dump_json().encode()),
            # Per message, parallel to roles: what each part of the input weighs.
            "message_bytes": [len(m.model_dump_json().encode()) for m in request.messages],
            # The prior turns the request carried as data (questions, prior citations), so
            # a test can see which calls received the chat transcript.
            "conversation": _conversation(request),
            # The anchor kinds code decided for the answer call (what it was told to say).
            "anchors": _anchor_kinds(request),
        }
        self._entries.append(entry)
        return entry

    def answer_calls(self, turn: str | None) -> int:
        return sum(1 for e in self._entries if turn and e["turn"] == turn and not e["tools"])

    def entries(self) -> list[dict[str, Any]]:
        return list(self._entries)

    def clear(self) -> None:
        self._entries.clear()


# A registered narration is test data, bounded like any input.
MAX_QUESTION_CHARS = 4_000
MAX_NARRATION_CHARS = 64_000
MAX_NARRATION_CHUNKS = 512
_LOOPBACK = ("127.", "::1", "localhost")


class NarrationIn(BaseModel):
    """``POST /dev/narrations``: the answer ``scripted:narrates`` gives to ``question``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    text: str | None = Field(default=None, max_length=MAX_NARRATION_CHARS)
    chunks: list[str] | None = Field(default=None, min_length=1, max_length=MAX_NARRATION_CHUNKS)

    @model_validator(mode="after")
    def _text_or_chunks(self) -> NarrationIn:
        if self.text is None and self.chunks is None:
            raise ValueError("give `text`, `chunks`, or both")
        if self.chunks is not None:
            joined = "".join(self.chunks)
            if len(joined) > MAX_NARRATION_CHARS:
                raise ValueError(f"the chunks exceed {MAX_NARRATION_CHARS} characters")
            if self.text is not None and self.text != joined:
                raise ValueError("`text` must equal the concatenated `chunks`")
        if not self.question.strip():
            raise ValueError("`question` must not be blank")
        return self


@dataclass(frozen=True, slots=True)
class Narration:
    text: str
    chunks: tuple[str, ...] | None  # None: chunked like every other answer


class NarrationBook:
    """Registered narrations by exact (stripped) question, so concurrent tests never collide."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_question: dict[str, Narration] = {}

    def register(self, wanted: NarrationIn) -> Narration:
        chunks = tuple(wanted.chunks) if wanted.chunks is not None else None
        text = wanted.text if wanted.text is not None else "".join(chunks or ())
        narration = Narration(text, chunks)
        with self._lock:
            self._by_question[wanted.question.strip()] = narration
        return narration

    def get(self, question: str) -> Narration | None:
        with self._lock:
            return self._by_question.get(question.strip())

    def forget(self, question: str | None = None) -> None:
        with self._lock:
            if question is None:
                self._by_question.clear()
            else:
                self._by_question.pop(question.strip(), None)

    def questions(self) -> list[str]:
        with self._lock:
            return sorted(self._by_question)


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
    request: ChatRequest, reply: Reply, stall_s: float, pieces: Sequence[str] | None = None
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
    yield chunk({"role": "assistant", "content": ""})
    if pieces is None:
        pieces = [
            reply.content[start : start + CHUNK_CHARS]
            for start in range(0, len(reply.content), CHUNK_CHARS)
        ]
    for piece in pieces:
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


def create_app(*, stall_s: float | None = None) -> FastAPI:
    app = FastAPI(title="Beacon stub LLM")
    stall_for = stall_seconds() if stall_s is None else stall_s
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
                _chunks(request, reply, stall, pieces), media_type="text/event-stream"
            )
        if stall:
            await anyio.sleep(stall)
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
