"""The completion request as the stub model reads it, and the log of every one received
(``GET /dev/requests``): what each weighs, the transcript and anchors it carried."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from stub_server.rules_model import _json_blocks


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


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(message: ChatMessage) -> str:
    """A message's content as the model reads it (parts joined), tool calls included."""
    content = message.content
    text = content if isinstance(content, str) else _compact(content) if content else ""
    calls = (message.model_extra or {}).get("tool_calls")
    return text + (_compact(calls) if calls else "")


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
            # Per message, parallel to roles: what each part of the input weighs, and its
            # text (the bench splits a request into prompt, catalog, transcript, evidence
            # and counts their tokens).
            "message_bytes": [len(m.model_dump_json().encode()) for m in request.messages],
            "message_texts": [_text(m) for m in request.messages],
            "tools_text": _compact(request.tools) if request.tools else "",
            "tools_bytes": len(_compact(request.tools).encode()) if request.tools else 0,
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
