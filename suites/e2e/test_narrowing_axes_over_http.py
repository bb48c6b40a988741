"""Narrowing on a non-level axis, over real HTTP.

A ``query_data`` listing that saturates the upstream's row cap is a sample;
the counter-question offers months (the axis that splits the returned cards
best), and choosing one narrows the upstream call itself: the stub's request
log shows the date range dispatch spread over the planner's arguments, and
the result is exactly that month's panoramas, checked against the corpus.
"""

from __future__ import annotations

import calendar
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from stub_server.corpus import build_corpus

pytestmark = pytest.mark.e2e
HARBOR = "prj-harbor-tower"
PANORAMAS = "List all panoramas in Harbor Tower"


def one(events: list[SseEvent], kind: str) -> dict[str, Any]:
    (found,) = [e.json() for e in events if e.event == kind]
    return found


def notices(events: list[SseEvent], kind: str) -> list[dict[str, Any]]:
    return [e.json() for e in events if e.event == "notice" and e.json()["kind"] == kind]


def query_calls(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    log = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in log if e["turn"] == turn_id and e["tool"] == "query_data"]


def test_a_chosen_month_narrows_a_query_data_listing_to_that_months_set(stack: Stack) -> None:
    token = stack.token(sub="month-narrower")
    first = run_turn(stack.chat_url, {"mode": "chat", "message": PANORAMAS}, token=token)
    session = first[0].json()["session_id"]
    (count,) = one(first, "references")["counts"]
    assert count["grade"] == "LOWER_BOUND"
    (question,) = notices(first, "counter_question")
    options = question["options"]
    assert 2 <= len(options) <= 3
    assert [o["recommended"] for o in options] == [True] + [False] * (len(options) - 1)
    # Months, not levels: "October 2025" names a month of the calendar and a year.
    names = [o["label"].split() for o in options]
    assert all(len(n) == 2 and n[0] in calendar.month_name[1:] for n in names)
    year, month = int(names[0][1]), list(calendar.month_name).index(names[0][0])

    second = run_turn(
        stack.chat_url,
        {"mode": "chat", "session_id": session, "message": options[0]["reply"]},
        token=token,
    )
    (call,) = query_calls(stack, second[0].json()["turn_id"])
    last = calendar.monthrange(year, month)[1]
    assert call["arguments"]["date_from"] == f"{year:04d}-{month:02d}-01"
    assert call["arguments"]["date_to"] == f"{year:04d}-{month:02d}-{last:02d}"
    assert call["arguments"]["question"] == PANORAMAS  # the planner repeated it; dispatch scoped it

    expected = {
        c.id
        for c in build_corpus().captures
        if c.project_id == HARBOR and c.captured_at.startswith(f"{year:04d}-{month:02d}-")
    }
    refs = one(second, "references")
    (narrowed,) = refs["counts"]
    assert narrowed["grade"] == "EXACT" and narrowed["has_more"] is False
    assert narrowed["total"] == len(expected)
    cited = {c["id"] for c in refs["citations"]}
    assert cited and cited <= expected
    assert second[-1].event == "done"


def test_without_a_session_the_turn_says_which_axes_would_narrow_it(stack: Stack) -> None:
    events = run_turn(stack.chat_url, {"message": PANORAMAS}, token=stack.token())
    assert not notices(events, "counter_question")
    (hint,) = notices(events, "disclosure")
    assert "month" in hint["text"] and "level" in hint["text"]
    assert events[-1].event == "done"
