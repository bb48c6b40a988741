"""The answer call's bounds, against a real OpenAI-wire stream from a tiny transport."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest

from beacon.llm.client import LlmConfig
from beacon.loop.errors import FinalizationError
from beacon.loop.finalize import MAX_IO_BYTES, REPAIR_INSTRUCTION, finalize

CONFIG = LlmConfig("http://127.0.0.1:9/v1", "key", "beacon-rules", 10.0)
MESSAGES = [{"role": "system", "content": "evidence"}, {"role": "user", "content": "q"}]


def sse(text: str, finish: str = "stop", chunk: int = 65536) -> bytes:
    def frame(delta: dict[str, object], reason: str | None = None) -> str:
        body = {"choices": [{"index": 0, "delta": delta, "finish_reason": reason}]}
        return f"data: {json.dumps(body)}\n\n"

    parts = [frame({"content": text[i : i + chunk]}) for i in range(0, len(text), chunk)]
    return ("".join(parts) + frame({}, finish) + "data: [DONE]\n\n").encode()


def transport(answers: list[bytes], seen: list[list[dict[str, str]]]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content)["messages"])
        return httpx.Response(
            200,
            content=answers[min(len(seen), len(answers)) - 1],
            headers={"content-type": "text/event-stream"},
        )

    return httpx.MockTransport(handle)


async def run(
    answers: list[bytes], messages: list[dict[str, str]] = MESSAGES, deadline: float = 5.0
) -> tuple[Callable[[], object], list[list[dict[str, str]]]]:
    seen: list[list[dict[str, str]]] = []
    async with httpx.AsyncClient(transport=transport(answers, seen)) as http:
        try:
            result: object = await finalize(
                http, CONFIG, messages, scenario=None, turn_id="t", deadline_s=deadline
            )
        except FinalizationError as exc:
            result = exc
    return (lambda: result), seen


async def test_an_input_over_one_mebibyte_is_refused_before_any_request() -> None:
    big = [{"role": "system", "content": "x" * MAX_IO_BYTES}]
    result, seen = await run([sse("fine")], messages=big)
    assert isinstance(result(), FinalizationError) and result().code == "input_too_large"  # type: ignore[attr-defined]
    assert seen == []


async def test_an_answer_over_one_mebibyte_is_not_published() -> None:
    result, seen = await run([sse("y" * (MAX_IO_BYTES + 10))])
    assert result().code == "answer_too_large"  # type: ignore[attr-defined]
    assert len(seen) == 1


async def test_a_rejected_candidate_is_repaired_once_without_its_text() -> None:
    markup = "<｜DSML｜function_calls></｜DSML｜function_calls>"
    result, seen = await run([sse(markup), sse("Plain prose.")])
    answer = result()
    assert getattr(answer, "text", None) == "Plain prose." and getattr(answer, "attempts", 0) == 2
    assert seen[1] == [*MESSAGES, {"role": "system", "content": REPAIR_INSTRUCTION}]
    assert markup not in json.dumps(seen[1])


@pytest.mark.parametrize(
    ("finish", "code"),
    [
        pytest.param("content_filter", "answer_filtered", id="content-filter"),
        pytest.param("insufficient_system_resource", "answer_unfinished", id="unknown-finish"),
        pytest.param("length", "answer_unfinished", id="cut-by-length"),
    ],
)
async def test_final_finishes_are_never_retried(finish: str, code: str) -> None:
    result, seen = await run([sse("partial", finish=finish), sse("never asked")])
    assert result().code == code and len(seen) == 1  # type: ignore[attr-defined]


async def test_a_second_rejection_is_final() -> None:
    result, seen = await run([sse(""), sse("   ")])
    assert result().code == "answer_rejected" and len(seen) == 2  # type: ignore[attr-defined]


async def test_the_first_attempts_text_is_heard_as_it_streams_and_a_repairs_is_not() -> None:
    heard: list[str] = []
    seen: list[list[dict[str, str]]] = []
    answers = [sse("<tool_call>x</tool_call>", chunk=5), sse("Three open findings.", chunk=7)]
    async with httpx.AsyncClient(transport=transport(answers, seen)) as http:
        final = await finalize(
            http, CONFIG, MESSAGES, scenario=None, turn_id="t", heard=heard.append
        )
    assert final.attempts == 2 and final.text == "Three open findings."
    # The rejected first attempt's deltas, in order and whole; nothing of the repair.
    assert heard == ["<tool", "_call", ">x</t", "ool_c", "all>"]
