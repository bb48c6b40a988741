"""In chat mode the answer call, not only the planner, reads the conversation.

Seen from the stub model's side of the wire: the second turn's tool-free
answer call carries the first turn's question, and the first turn's
citations as ``prior:<id>`` (a namespace apart from this turn's ``cite:<id>``).
Single mode carries none.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from harness.stack import Stack

pytestmark = pytest.mark.e2e
FIRST = "Photos of missing hard hats in Harbor Tower"
SECOND = "List all panoramas in Harbor Tower"


def answer_calls(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    origin = stack.llm_url.removesuffix("/v1")
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id and not e["tools"]]


def test_the_answer_call_receives_the_prior_turns_and_their_citations(
    stack: Stack, token: str
) -> None:
    first = run_turn(stack.chat_url, {"mode": "chat", "message": FIRST}, token=token)
    session = first[0].json()["session_id"]
    (refs,) = [e.json() for e in first if e.event == "references"]
    shown = [c["id"] for c in refs["citations"]]
    assert shown, "the first turn must cite something for the namespace to be seen"
    second = run_turn(
        stack.chat_url, {"mode": "chat", "session_id": session, "message": SECOND}, token=token
    )
    assert second[-1].event == "done"
    (opening,) = answer_calls(stack, first[0].json()["turn_id"])
    assert opening["conversation"] == []
    (follow_up,) = answer_calls(stack, second[0].json()["turn_id"])
    (prior,) = follow_up["conversation"]
    assert prior["question"] == FIRST
    assert prior["citations"] == [f"prior:{c}" for c in shown]


def test_a_single_question_carries_no_conversation(stack: Stack, token: str) -> None:
    events = run_turn(stack.chat_url, {"mode": "single", "message": FIRST}, token=token)
    (call,) = answer_calls(stack, events[0].json()["turn_id"])
    assert call["conversation"] == []
