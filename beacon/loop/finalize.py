"""The answer call: one tool-free request over evidence, at most one repair.

Its input is evidence as untrusted JSON data — no tool definitions, no
protocol-role history, no gathering preamble — because an endpoint that still
sees tool-call history keeps writing tool calls. The whole answer is read
before anything is published: a candidate that opens with protocol markup,
is empty, or tries to call a tool is rejected and repaired once with the same
evidence and without the rejected text. One deadline covers both attempts; a
refusal (400/401/402/403/422/429), a content filter or an unknown finish is
final.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
import httpx

from beacon.adjudication import starts_with_protocol_markup
from beacon.llm.client import Completion, LlmConfig, stream_completion
from beacon.llm.errors import LlmRefused
from beacon.loop.errors import FinalizationError

MAX_IO_BYTES = 1024 * 1024
ANSWER_DEADLINE_S = 120.0
REPAIR_INSTRUCTION = (
    "Your previous answer could not be published: it was not plain prose. Answer the "
    "question again in plain prose from the evidence only, using the slots you were given."
)
_FINAL_FINISHES = frozenset({"stop"})
_REPAIRABLE_FINISHES = frozenset({"tool_calls", "function_call"})


@dataclass(frozen=True, slots=True)
class FinalAnswer:
    text: str
    finish_reason: str
    attempts: int


def input_bytes(messages: list[dict[str, Any]]) -> int:
    return len(json.dumps(messages, ensure_ascii=False).encode())


def _verdict(completion: Completion) -> str | None:
    """None when publishable, else why the candidate is rejected (repairable)."""
    if completion.finish_reason in _REPAIRABLE_FINISHES or completion.tool_calls:
        return "the answer tried to call a tool"
    if not completion.content.strip():
        return "the answer was empty"
    if starts_with_protocol_markup(completion.content):
        return "the answer opened with protocol markup"
    return None


async def _attempt(
    http: httpx.AsyncClient,
    config: LlmConfig,
    messages: list[dict[str, Any]],
    scenario: str | None,
    turn_id: str,
    heard: Callable[[str], object] | None = None,
) -> Completion:
    size = 0
    async for event in stream_completion(
        http, config, messages, tools=None, scenario=scenario, turn_id=turn_id
    ):
        if isinstance(event, Completion):
            return event
        if heard is not None:
            heard(event.text)
        size += len(event.text.encode())
        if size > MAX_IO_BYTES:
            raise FinalizationError("answer_too_large", "the answer exceeded 1 MiB")
    raise AssertionError("stream_completion always ends with a Completion")


def _final_or_raise(completion: Completion) -> None:
    finish = completion.finish_reason
    if finish == "content_filter":
        raise FinalizationError("answer_filtered", "the provider's content filter cut the answer")
    if finish not in _FINAL_FINISHES | _REPAIRABLE_FINISHES:
        raise FinalizationError("answer_unfinished", f"the answer ended with {finish!r}")


async def finalize(
    http: httpx.AsyncClient,
    config: LlmConfig,
    messages: list[dict[str, Any]],
    *,
    scenario: str | None,
    turn_id: str,
    deadline_s: float = ANSWER_DEADLINE_S,
    heard: Callable[[str], object] | None = None,
) -> FinalAnswer:
    """``heard`` is given the first attempt's text as it streams (the guard judges
    its complete sentences early); a repair's is read at its end only."""
    if input_bytes(messages) > MAX_IO_BYTES:
        raise FinalizationError("input_too_large", "the answer call's input exceeds 1 MiB")
    try:
        with anyio.fail_after(deadline_s):
            first = await _attempt(http, config, messages, scenario, turn_id, heard)
            _final_or_raise(first)
            if _verdict(first) is None:
                return FinalAnswer(first.content, first.finish_reason, 1)
            # Same evidence, no rejected text: the repair must not see what it wrote.
            repair = [*messages, {"role": "system", "content": REPAIR_INSTRUCTION}]
            second = await _attempt(http, config, repair, scenario, turn_id)
            _final_or_raise(second)
            why = _verdict(second)
            if why is not None:
                raise FinalizationError("answer_rejected", f"{why}, twice")
            return FinalAnswer(second.content, second.finish_reason, 2)
    except TimeoutError as exc:
        raise FinalizationError(
            "answer_deadline", f"no publishable answer within {deadline_s:g}s"
        ) from exc
    except LlmRefused as exc:
        raise FinalizationError("answer_refused", str(exc)) from exc
