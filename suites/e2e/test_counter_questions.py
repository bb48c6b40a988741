"""Counter-questions code asks, over real HTTP: the feasible part, the project, the release.

- A caller whose plan covers only part of a question (``professional``: no Photo AI,
  no Analytics) asking how many open safety findings *and* how many photos gets the
  two denial cards, then "here is what I can do with your access — shall I
  proceed?" with the findings listing as the recommended option, and nothing runs
  until it is chosen; sending that option's reply lists the findings with the
  filters applied, counted exactly by the list's own accounting (checked against
  the stub corpus).
- A fresh conversation's question that names no project gets one option per
  project, one recommended; the option's reply names the project and is answered.
- After a narrowed search comes back empty, the answer call is told the narrowing
  was released (seen from the model's side of the wire).
- A host list at its wire cap puts the view-list anchor in the answer call.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from stub_server.corpus import build_corpus

pytestmark = pytest.mark.e2e
HARBOR = "prj-harbor-tower"
MIXED = (
    "How many open safety findings and how many photos of missing hard hats are there in "
    "Harbor Tower?"
)


def frames(events: list[SseEvent], kind: str) -> list[dict[str, Any]]:
    return [e.json() for e in events if e.event == kind]


def notices(events: list[SseEvent], kind: str) -> list[dict[str, Any]]:
    return [n for n in frames(events, "notice") if n["kind"] == kind]


def ask(stack: Stack, token: str, message: str, session: str | None = None, **extra: Any) -> Any:
    body: dict[str, Any] = {"mode": "chat", "message": message, **extra}
    if session:
        body["session_id"] = session
    return run_turn(stack.chat_url, body, token=token)


def upstream_calls(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    log = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in log if e["turn"] == turn_id]


def answer_calls(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    origin = stack.llm_url.removesuffix("/v1")
    entries = httpx.get(f"{origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id and not e["tools"]]


def test_a_partly_entitled_question_offers_the_feasible_part_and_runs_nothing(
    stack: Stack,
) -> None:
    token = stack.token(sub="partly", tiers=("professional",))
    first = ask(stack, token, MIXED)
    turn_id, session = first[0].json()["turn_id"], first[0].json()["session_id"]
    denied = [n["text"] for n in notices(first, "denied")]
    assert len(denied) == 2 and any("Photo AI" in t for t in denied)
    assert any("Analytics" in t for t in denied)
    (offer,) = notices(first, "counter_question")
    assert "shall i proceed" in offer["text"].lower()
    (option,) = offer["options"]
    assert option["recommended"] is True
    assert "open safety findings" in option["reply"] and "Harbor Tower" in option["reply"]
    assert "photo" not in option["reply"].lower()
    # Nothing ran but the context round: no silent partial run, no answer call either.
    assert [c["tool"] for c in upstream_calls(stack, turn_id)] == ["list_projects"]
    assert answer_calls(stack, turn_id) == []
    answer = first[-1].json()["answer"]
    assert first[-1].event == "done" and "Shall I proceed?" in answer
    assert "could not be run" not in answer

    chosen = ask(stack, token, option["reply"], session)
    (call,) = [
        c
        for c in upstream_calls(stack, chosen[0].json()["turn_id"])
        if c["tool"] != "list_projects"
    ]
    assert call["tool"] == "list_annotations"
    assert call["arguments"]["status"] == "open" and call["arguments"]["kind"] == "safety"
    expected = sum(
        1
        for a in build_corpus().annotations
        if a.project_id == HARBOR and a.status == "open" and a.kind == "safety"
    )
    (count,) = frames(chosen, "references")[0]["counts"]
    assert (count["grade"], count["total"]) == ("EXACT", expected)
    assert f"exactly {expected}" in chosen[-1].json()["answer"]


def test_a_question_the_plan_cannot_answer_at_all_is_denied_without_an_offer(
    stack: Stack,
) -> None:
    token = stack.token(sub="unentitled", tiers=("professional",))
    events = ask(stack, token, "Show me photos of hard hats in Harbor Tower")
    assert len(notices(events, "denied")) == 1
    assert not notices(events, "counter_question")


def test_a_portfolio_question_offers_each_project_and_recommends_one(stack: Stack) -> None:
    token = stack.token(sub="portfolio")
    first = ask(stack, token, "How many open findings are there?")
    session = first[0].json()["session_id"]
    (offer,) = notices(first, "counter_question")
    names = {o["label"] for o in offer["options"]}
    assert names == {p.name for p in build_corpus().projects}
    assert sum(o["recommended"] for o in offer["options"]) == 1
    assert "which one" in first[-1].json()["answer"].lower()
    maple = next(o for o in offer["options"] if o["label"] == "Maple Clinic")
    second = ask(stack, token, maple["reply"], session)
    expected = sum(
        1
        for a in build_corpus().annotations
        if a.project_id == "prj-maple-clinic" and a.status == "open"
    )
    counts = frames(second, "references")[0]["counts"]
    assert ("EXACT", expected) in [(c["grade"], c["total"]) for c in counts]
    assert not notices(second, "counter_question") or all(
        "project" not in n["text"].lower() for n in notices(second, "counter_question")
    )


def test_a_single_question_naming_no_project_gets_the_offer_and_its_reply_stands_alone(
    stack: Stack,
) -> None:
    """Single mode keeps no conversation: the project is still asked with buttons, and
    an option's reply, sent as another single question, is answered on its own."""
    token = stack.token(sub="single-portfolio")
    first = ask(stack, token, "How many open findings are there?", mode="single")
    assert first[0].json()["session_id"] is None
    (offer,) = notices(first, "counter_question")
    assert {o["label"] for o in offer["options"]} == {p.name for p in build_corpus().projects}
    cedar = next(o for o in offer["options"] if o["label"] == "Cedar School")
    second = ask(stack, token, cedar["reply"], mode="single")
    expected = sum(
        1
        for a in build_corpus().annotations
        if a.project_id == "prj-cedar-school" and a.status == "open"
    )
    counts = frames(second, "references")[0]["counts"]
    assert ("EXACT", expected) in [(c["grade"], c["total"]) for c in counts]
    assert not notices(second, "counter_question")


def test_a_question_naming_its_project_gets_no_portfolio_offer(stack: Stack) -> None:
    events = ask(stack, stack.token(sub="named"), "How many open findings are in Maple Clinic?")
    assert not notices(events, "counter_question")


def test_zero_after_narrowing_tells_the_answer_call_the_narrowing_was_released(
    stack: Stack,
) -> None:
    token = stack.token(sub="released")
    first = ask(stack, token, "Photos of missing hard hats in Harbor Tower")
    session = first[0].json()["session_id"]
    option = notices(first, "counter_question")[0]["options"][0]
    body = {"mode": "chat", "message": option["reply"], "session_id": session}
    empty = run_turn(stack.chat_url, body, token=token, scenario="zero-hits")
    (call,) = answer_calls(stack, empty[0].json()["turn_id"])
    assert "narrowing_released" in call["anchors"]
    (opening,) = answer_calls(stack, first[0].json()["turn_id"])
    assert "narrowing_released" not in opening["anchors"]


def test_a_host_list_at_its_cap_puts_the_view_list_anchor_in_the_answer_call(
    stack: Stack,
) -> None:
    listed = [{"id": f"ann-{n:06d}", "title": "x"} for n in range(50)]
    view = {"project_id": HARBOR, "annotations": listed}
    token = stack.token(sub="viewer")
    full = run_turn(stack.chat_url, {"message": MIXED, "view_context": view}, token=token)
    (call,) = answer_calls(stack, full[0].json()["turn_id"])
    assert "view_list_truncated" in call["anchors"]
    short = run_turn(
        stack.chat_url,
        {"message": MIXED, "view_context": {**view, "annotations": listed[:49]}},
        token=token,
    )
    (call,) = answer_calls(stack, short[0].json()["turn_id"])
    assert "view_list_truncated" not in call["anchors"]


def test_a_one_sided_comparison_asks_for_the_other_side_from_the_projects_levels(
    stack: Stack,
) -> None:
    token = stack.token(sub="comparer")
    first = ask(stack, token, "Compare open findings on level 2 of Harbor Tower")
    turn_id, session = first[0].json()["turn_id"], first[0].json()["session_id"]
    (offer,) = notices(first, "counter_question")
    levels = sorted({lv.number for lv in build_corpus().levels if lv.project_id == HARBOR})
    offered = [int(o["label"].split()[-1]) for o in offer["options"]]
    assert set(offered) <= set(levels) - {2} and offered[0] == 3
    assert [o["recommended"] for o in offer["options"]].count(True) == 1
    # The levels were read as context; no count ran before the side was chosen.
    assert [c["tool"] for c in upstream_calls(stack, turn_id)] == ["list_projects", "list_levels"]
    assert frames(first, "references")[0]["counts"] == []
    both = ask(stack, token, offer["options"][0]["reply"], session)
    calls = upstream_calls(stack, both[0].json()["turn_id"])
    assert sorted(
        c["arguments"].get("level_number") for c in calls if c["tool"] == "query_data"
    ) == [2, 3]
