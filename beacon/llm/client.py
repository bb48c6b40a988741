"""Streaming chat completions over the OpenAI wire, with bounded time.

httpx rather than the ``openai`` package: Beacon owns retries (a request sent
on a connection closed under it goes out again; a refusal or a stream broken
after its head never does) and deadlines, and the ``openai`` client is kept as
an outside peer that checks the stub's wire in the contract tests.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from opentelemetry.trace import Span, StatusCode

from beacon.llm.errors import LlmError, LlmProtocolError, LlmRefused, LlmUnavailable
from beacon.telemetry import metrics
from beacon.telemetry.tracing import MODEL_SPAN, TURN_ID, inject, tracer
from beacon.wire.headers import SCENARIO_HEADER, TURN_HEADER

REFUSAL_STATUSES = frozenset({400, 401, 402, 403, 422, 429})


@dataclass(frozen=True, slots=True)
class LlmConfig:
    base_url: str
    api_key: str
    model: str
    timeout_s: float = 60.0


@dataclass(frozen=True, slots=True)
class ToolCallRequest:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class Completion:
    content: str
    tool_calls: tuple[ToolCallRequest, ...]
    finish_reason: str


@dataclass(frozen=False, slots=True)  # filled in as the stream's deltas arrive
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


def _finish_calls(partials: dict[int, _PartialCall]) -> tuple[ToolCallRequest, ...]:
    calls = []
    for index in sorted(partials):
        partial = partials[index]
        raw = "".join(partial.arguments) or "{}"
        try:
            arguments = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LlmProtocolError(f"tool call {partial.name!r} has malformed arguments") from exc
        if not partial.name or not isinstance(arguments, dict):
            raise LlmProtocolError("a tool call without a name or with non-object arguments")
        calls.append(ToolCallRequest(partial.id or f"call_{index}", partial.name, arguments))
    return tuple(calls)


def _read_chunk(chunk: dict[str, Any], partials: dict[int, _PartialCall]) -> tuple[str, str | None]:
    choices = chunk.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return "", None
    choice = choices[0]
    delta = choice.get("delta") or {}
    for call in delta.get("tool_calls") or []:
        partial = partials.setdefault(int(call.get("index", 0)), _PartialCall())
        partial.id = call.get("id") or partial.id
        function = call.get("function") or {}
        partial.name = function.get("name") or partial.name
        if function.get("arguments"):
            partial.arguments.append(function["arguments"])
    text = delta.get("content")
    finish = choice.get("finish_reason")
    return (text if isinstance(text, str) else ""), (finish if isinstance(finish, str) else None)


_LINES_AFTER_DONE = 4

# A kept-alive connection the endpoint closes as our next request goes out (its
# idle timer firing: uvicorn's is 5 s, a proxy's often less) fails that request
# before any response byte. The same request on another connection is the
# peer's own cure (the ``openai`` client retries connection errors twice): it is
# resent at most twice, and only when no response has begun, so no delta of a
# stream is ever read twice. A refused connection is not retried: nobody listens.
_STALE_RETRIES = 2
_STALE = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)


@asynccontextmanager
async def _opened(
    http: httpx.AsyncClient, request: httpx.Request, span: Span
) -> AsyncIterator[httpx.Response]:
    """The response to ``request`` with its head read, resent on a fresh connection
    when the one it went out on was closed under it."""
    for retry in range(_STALE_RETRIES + 1):
        try:
            response = await http.send(request, stream=True)
            break
        except _STALE:
            if retry == _STALE_RETRIES:
                raise
            span.add_event("beacon.resent", {"beacon.retry": retry + 1})
            metrics.model_resent()
    try:
        yield response
    finally:
        await response.aclose()


async def stream_completion(
    http: httpx.AsyncClient,
    config: LlmConfig,
    messages: list[dict[str, Any]],
    *,
    tools: list[dict[str, Any]] | None,
    scenario: str | None = None,
    turn_id: str | None = None,
) -> AsyncIterator[TextDelta | Completion]:
    """Yields text as it arrives, then exactly one ``Completion``.

    One span per request (planner or answer call), ended before the ``Completion``
    is yielded and never the current span across a yield: a caller that stops
    reading at the ``Completion`` leaves nothing open. Its context rides on the
    request as ``traceparent``."""
    purpose = "plan" if tools else "answer"
    attributes = {TURN_ID: turn_id or "", "beacon.purpose": purpose}
    span = tracer().start_span(MODEL_SPAN, attributes=attributes)
    ended = False
    try:
        async for event in _stream(http, config, messages, tools, scenario, turn_id, span):
            if isinstance(event, Completion):
                span.set_attribute("beacon.finish_reason", event.finish_reason)
                span.end()
                ended = True
            yield event
    except LlmError as exc:
        metrics.upstream_error("llm", exc.code)
        span.set_attribute("beacon.error", exc.code)
        span.set_status(StatusCode.ERROR)
        raise
    finally:
        if not ended:
            span.end()


async def _stream(
    http: httpx.AsyncClient,
    config: LlmConfig,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    scenario: str | None,
    turn_id: str | None,
    span: Span,
) -> AsyncIterator[TextDelta | Completion]:
    body: dict[str, Any] = {"model": config.model, "messages": messages, "stream": True}
    if tools:
        body["tools"] = tools
    headers = {"Authorization": f"Bearer {config.api_key}"}
    if scenario:
        headers[SCENARIO_HEADER] = scenario
    if turn_id:
        headers[TURN_HEADER] = turn_id
    inject(headers, span)
    url = config.base_url.rstrip("/") + "/chat/completions"
    partials: dict[int, _PartialCall] = {}
    content: list[str] = []
    finish: str | None = None
    request = http.build_request("POST", url, json=body, headers=headers, timeout=config.timeout_s)
    try:
        async with _opened(http, request, span) as response:
            if response.status_code in REFUSAL_STATUSES:
                detail = (await response.aread()).decode(errors="replace")[:300]
                raise LlmRefused(response.status_code, f"model endpoint refused: {detail}")
            if response.status_code != 200:
                raise LlmUnavailable(f"model endpoint answered HTTP {response.status_code}")
            after_done = 0
            async for line in response.aiter_lines():
                if after_done:
                    # Read the body's end so the connection goes back to the pool
                    # (leaving early closes it: a new TCP connection per request),
                    # but never wait on an endpoint that keeps talking after [DONE].
                    after_done += 1
                    if after_done > _LINES_AFTER_DONE:
                        break
                    continue
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    after_done = 1
                    continue
                try:
                    chunk = json.loads(data)
                except json.JSONDecodeError as exc:
                    raise LlmProtocolError("a stream chunk is not JSON") from exc
                text, chunk_finish = _read_chunk(chunk, partials)
                finish = chunk_finish or finish
                if text:
                    content.append(text)
                    yield TextDelta(text)
    except httpx.TimeoutException as exc:
        raise LlmUnavailable(f"model endpoint gave no answer within {config.timeout_s:g}s") from exc
    except httpx.TransportError as exc:
        raise LlmUnavailable(f"model endpoint unreachable: {exc!r}") from exc
    if finish is None:
        raise LlmProtocolError("the stream ended without a finish_reason")
    yield Completion("".join(content), _finish_calls(partials), finish)
