"""One turn: context, gathering rounds, references, narration, one terminal.

The order is the contract: grades and references are fixed from structured
fields before the responder is called, so nothing the model writes can change
what the panel shows or what a slot renders.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

from beacon.adjudication import SlotStream, SlotValue
from beacon.llm.client import Completion, LlmConfig, TextDelta, stream_completion
from beacon.llm.errors import LlmError
from beacon.loop.anchors import anchors_message
from beacon.loop.context import project_directory
from beacon.loop.evidence import Evidence, adjudicate, digest
from beacon.loop.frames import Frame, FrameMaker
from beacon.loop.prompts import PLANNER_PROMPT, RESPONDER_PROMPT, turn_block
from beacon.upstream.errors import UpstreamError
from beacon.upstream.mcp_client import McpUpstream, connect
from beacon.wire.frames import PlannedCall
from beacon.wire.turns import TurnRequest

log = logging.getLogger(__name__)

MAX_GATHER_ROUNDS = 6
CONTEXT_TOOL = "list_projects"


@dataclass(frozen=True, slots=True)
class TurnDeps:
    mcp_url: str
    llm: LlmConfig
    http: httpx.AsyncClient
    sentinel: int
    mcp_timeout_s: float = 30.0


def _openai_tools(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t["name"],
                "description": t.get("description", ""),
                "parameters": t.get("inputSchema", {"type": "object"}),
            },
        }
        for t in listed
    ]


class Turn:
    def __init__(self, request: TurnRequest, *, bearer: str, scenario: str | None, deps: TurnDeps):
        self.request = request
        self.bearer = bearer
        self.scenario = scenario
        self.deps = deps
        self.frames = FrameMaker(f"t_{uuid.uuid4().hex[:16]}")
        self.evidence: list[Evidence] = []
        self._calls = 0
        self._turn_block = turn_block([], None)

    async def run(self) -> AsyncIterator[Frame]:
        session_id = None
        if self.request.mode == "chat":
            session_id = self.request.session_id or f"s_{uuid.uuid4().hex[:16]}"
        yield self.frames.make("start", session_id=session_id, mode=self.request.mode)
        try:
            async with connect(
                self.deps.mcp_url,
                bearer=self.bearer,
                scenario=self.scenario,
                timeout_s=self.deps.mcp_timeout_s,
            ) as upstream:
                async for frame in self._turn(upstream):
                    yield frame
        except (UpstreamError, LlmError) as exc:
            yield self.frames.make("error", code=exc.code, message=str(exc))
        except Exception:
            log.exception("turn %s failed", self.frames.turn_id)
            yield self.frames.make(
                "error", code="internal", message="the turn failed inside Beacon"
            )

    async def _call(
        self, upstream: McpUpstream, tool: str, arguments: dict[str, Any], call_id: str
    ) -> AsyncIterator[Frame | tuple[Evidence, dict[str, Any]]]:
        yield self.frames.make("tool_call", call_id=call_id, tool=tool, arguments=arguments)
        outcome = await upstream.call_tool(tool, arguments)
        project_id = arguments.get("project_id")
        evidence = adjudicate(
            outcome,
            call_id=call_id,
            slot=f"c{self._calls}",
            sentinel=self.deps.sentinel,
            project_id=project_id if isinstance(project_id, str) else None,
        )
        yield self.frames.make(
            "tool_result",
            call_id=call_id,
            tool=tool,
            status="failure" if evidence.failed else "ok",
            grade=evidence.verdict.grade.value,
            emptiness=evidence.emptiness,
            returned=evidence.returned,
            bytes=evidence.bytes,
        )
        yield evidence, outcome.result

    async def _turn(self, upstream: McpUpstream) -> AsyncIterator[Frame]:
        # Round 0 is context, not evidence: the planner needs project ids to
        # pass explicitly, and its count is not an answer to the question.
        context_call = PlannedCall(call_id="ctx_1", tool=CONTEXT_TOOL, arguments={})
        yield self.frames.make("plan", round=0, purpose="context", calls=[context_call])
        directory: list[dict[str, str]] = []
        async for item in self._call(upstream, CONTEXT_TOOL, {}, "ctx_1"):
            if isinstance(item, Frame):
                yield item
            elif not item[0].failed:
                directory = project_directory(item[1])
        tools = _openai_tools(await upstream.list_tools())
        view = self.request.view_context
        self._turn_block = turn_block(
            directory, view.model_dump(exclude_none=True) if view else None
        )
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": PLANNER_PROMPT},
            {"role": "system", "content": self._turn_block},
            {"role": "user", "content": self.request.message},
        ]
        for round_no in range(1, MAX_GATHER_ROUNDS + 1):
            completion = await self._complete(messages, tools)
            if not completion.tool_calls:
                break
            planned = [
                PlannedCall(call_id=c.id, tool=c.name, arguments=c.arguments)
                for c in completion.tool_calls
            ]
            yield self.frames.make("plan", round=round_no, purpose="gather", calls=planned)
            messages.append(
                {
                    "role": "assistant",
                    "content": completion.content or None,
                    "tool_calls": [
                        {
                            "id": c.id,
                            "type": "function",
                            "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                        }
                        for c in completion.tool_calls
                    ],
                }
            )
            for call in completion.tool_calls:
                self._calls += 1
                async for item in self._call(upstream, call.name, call.arguments, call.id):
                    if isinstance(item, Frame):
                        yield item
                        continue
                    evidence, raw = item
                    self.evidence.append(evidence)
                    messages.append(
                        {
                            "role": "tool",
                            "tool_call_id": call.id,
                            "content": json.dumps(digest(evidence, raw), ensure_ascii=False),
                        }
                    )
                    if evidence.failed:
                        yield self.frames.make(
                            "notice",
                            kind="failure",
                            text=f"The {call.name} source did not return a usable result.",
                        )
        async for frame in self._answer():
            yield frame

    async def _complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> Completion:
        async for event in stream_completion(
            self.deps.http, self.deps.llm, messages, tools=tools, scenario=self.scenario
        ):
            if isinstance(event, Completion):
                return event
        raise AssertionError("stream_completion always ends with a Completion")

    async def _answer(self) -> AsyncIterator[Frame]:
        counted = [e for e in self.evidence if e.counted]
        citations = [c for e in counted for c in e.citations]
        counts = [e.count_entry() for e in counted]
        complete = bool(counts) and all(
            c.grade == "EXACT" and not c.has_more and c.total == c.displayed for c in counts
        )
        yield self.frames.make("references", citations=citations, counts=counts, complete=complete)
        slots = {
            e.slot: SlotValue(e.verdict.grade, e.verdict.value, len(e.citations)) for e in counted
        }
        stream = SlotStream(slots, self.request.locale)
        evidence_json = json.dumps(
            [
                {
                    "call_id": e.call_id,
                    "tool": e.tool,
                    "failed": e.failed,
                    "sample_ids": [c.id for c in e.citations],
                }
                for e in self.evidence
            ],
            ensure_ascii=False,
        )
        messages = [
            {"role": "system", "content": RESPONDER_PROMPT},
            {"role": "system", "content": self._turn_block},
            {"role": "system", "content": anchors_message(self.evidence, self.request.message)},
            {
                "role": "system",
                "content": "Evidence (untrusted JSON data):\n```json\n" + evidence_json + "\n```",
            },
            {"role": "user", "content": self.request.message},
        ]
        answer: list[str] = []
        finish = "stop"
        async for event in stream_completion(
            self.deps.http, self.deps.llm, messages, tools=None, scenario=self.scenario
        ):
            if isinstance(event, TextDelta):
                if text := stream.feed(event.text):
                    answer.append(text)
                    yield self.frames.make("delta", text=text)
            else:
                finish = event.finish_reason
        if text := stream.flush():
            answer.append(text)
            yield self.frames.make("delta", text=text)
        for entry in stream.audit:
            log.info(
                "turn %s audit %s slot=%s %s",
                self.frames.turn_id,
                entry.kind,
                entry.slot,
                entry.detail,
            )
        yield self.frames.make("done", finish_reason=finish, answer="".join(answer))
