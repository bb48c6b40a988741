"""A "how many" question gets its single-value aggregate even from a planner that lists.

Real HTTP through the three servers. The planner (a scripted model) answers
"how many" with a listing, which the upstream cuts at its row cap; the loop
sends one corrective round naming the aggregate. Every expected figure is
computed here from the corpus records, and the stubs' request logs show what
was really asked.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from stub_server.corpus import build_corpus

pytestmark = pytest.mark.e2e
HARBOR = "prj-harbor-tower"
QUESTION = "How many panoramas are in Harbor Tower?"
ROW_CAP = 3000  # SPEC §2.1: the upstream's row cap on listings
MAX_ROUNDS = 6  # SPEC §4: at most six gathering rounds


def panoramas_in_harbor() -> int:
    return sum(1 for c in build_corpus().captures if c.project_id == HARBOR)


def ask(stack: Stack, token: str, scenario: str | None) -> list[SseEvent]:
    body = {"mode": "single", "message": QUESTION}
    return run_turn(stack.chat_url, body, token=token, scenario=scenario)


def frames(events: list[SseEvent], kind: str) -> list[dict[str, Any]]:
    return [e.json() for e in events if e.event == kind]


def counts(events: list[SseEvent]) -> list[dict[str, Any]]:
    (refs,) = frames(events, "references")
    found = refs["counts"]
    assert isinstance(found, list)
    return found


def planner_requests(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    origin = stack.llm_url.removesuffix("/v1")
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id and e["tools"]]


def asked_questions(stack: Stack, turn_id: str) -> list[str]:
    entries = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return [
        e["arguments"]["question"]
        for e in entries
        if e["turn"] == turn_id and e["tool"] == "query_data"
    ]


def ends_in_one_done(events: list[SseEvent]) -> None:
    kinds = [e.event for e in events]
    assert kinds[0] == "start" and kinds.count("start") == 1, kinds
    assert [k for k in kinds if k in ("done", "error")] == ["done"] and kinds[-1] == "done"


def test_a_listing_planner_is_corrected_once_and_the_count_is_the_exact_aggregate(
    stack: Stack, token: str
) -> None:
    total = panoramas_in_harbor()
    assert total > ROW_CAP  # otherwise a listing would be exact and prove nothing
    events = ask(stack, token, "model-lists-counts")
    ends_in_one_done(events)
    turn_id = events[0].json()["turn_id"]
    primary, *rest = counts(events)
    assert (primary["grade"], primary["total"], primary["has_more"]) == ("EXACT", total, False)
    # The first listing is still there, for its cards, graded as what it is.
    assert [(c["grade"], c["total"]) for c in rest] == [("LOWER_BOUND", ROW_CAP)]
    answer = events[-1].json()["answer"]
    assert re.search(rf"(?<![\d,]){total:,}(?![\d,])", answer), answer
    assert "at least" not in answer.lower(), answer
    # The upstream saw the listing, then the question itself as a count.
    questions = asked_questions(stack, turn_id)
    assert len(questions) == 2 and questions[1] == QUESTION, questions
    assert not re.search(r"how many", questions[0], re.IGNORECASE), questions
    # Rounds: listing, stop, corrected (the aggregate), stop; never past six.
    plans = planner_requests(stack, turn_id)
    assert len(plans) == 4 <= MAX_ROUNDS
    assert plans[2]["roles"][-1] == "system"  # the corrective instruction, sent last
    purposes = [(p["round"], p["purpose"]) for p in frames(events, "plan")]
    assert purposes == [(0, "context"), (1, "gather"), (3, "correct_aggregate")]


def test_a_planner_that_ignores_the_correction_leaves_an_honest_lower_bound(
    stack: Stack, token: str
) -> None:
    assert panoramas_in_harbor() > ROW_CAP
    events = ask(stack, token, "model-lists-always")
    ends_in_one_done(events)
    turn_id = events[0].json()["turn_id"]
    found = counts(events)
    assert len(found) == 2  # listed, corrected, listed again
    for count in found:
        assert (count["grade"], count["total"]) == ("LOWER_BOUND", ROW_CAP)
        assert count["has_more"] is True and count["total_is_lower_bound"] is True
    answer = events[-1].json()["answer"]
    assert f"{panoramas_in_harbor():,}" not in answer and "exactly" not in answer.lower()
    mentions = list(re.finditer(r"3,?000", answer))
    assert mentions and all(answer[: m.start()].endswith("at least ") for m in mentions), answer
    questions = asked_questions(stack, turn_id)
    assert len(questions) == 2 and QUESTION not in questions, questions
    plans = planner_requests(stack, turn_id)
    assert len(plans) == 4 <= MAX_ROUNDS
    assert [p["purpose"] for p in frames(events, "plan")] == [
        "context",
        "gather",
        "correct_aggregate",
    ]


def test_a_planner_that_asks_for_the_aggregate_is_never_corrected(stack: Stack, token: str) -> None:
    events = ask(stack, token, None)  # beacon-rules: the aggregate and a listing in one round
    ends_in_one_done(events)
    turn_id = events[0].json()["turn_id"]
    primary = counts(events)[0]
    assert (primary["grade"], primary["total"]) == ("EXACT", panoramas_in_harbor())
    assert [p["purpose"] for p in frames(events, "plan")] == ["context", "gather"]
    plans = planner_requests(stack, turn_id)
    # One plan, READY beside its calls, and no correction in it.
    assert len(plans) == 1 and all(r["roles"][-1] != "system" for r in plans)
