"""The honest conversation: narrowing turns a sample into the complete set.

Two turns in one session, over real HTTP: a lower bound with a narrowing
counter-question, then the user's pick returns one page with nothing beyond
it — the cards become the complete set, checked against the corpus.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from stub_server.corpus import build_corpus
from stub_server.tools_search import SearchIndex

pytestmark = pytest.mark.e2e
HARBOR = "prj-harbor-tower"
PHOTOS = "Photos of missing hard hats in Harbor Tower"


def one(events: list[SseEvent], kind: str) -> dict[str, Any]:
    (found,) = [e.json() for e in events if e.event == kind]
    return found


def notices(events: list[SseEvent], kind: str) -> list[dict[str, Any]]:
    return [e.json() for e in events if e.event == "notice" and e.json()["kind"] == kind]


def mcp_calls(stack: Stack, turn_id: str, tool: str) -> list[dict[str, Any]]:
    log = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in log if e["turn"] == turn_id and e["tool"] == tool]


def ask(
    stack: Stack, token: str, message: str, session: str | None = None, scenario: str | None = None
) -> list[SseEvent]:
    body: dict[str, Any] = {"mode": "chat", "message": message}
    if session:
        body["session_id"] = session
    return run_turn(stack.chat_url, body, token=token, scenario=scenario)


def test_a_chosen_narrowing_turns_the_sample_into_the_complete_set(stack: Stack) -> None:
    token = stack.token(sub="narrower")
    first = ask(stack, token, PHOTOS)
    session = first[0].json()["session_id"]
    (count,) = one(first, "references")["counts"]
    assert count["grade"] == "LOWER_BOUND" and not one(first, "references")["complete"]
    (question,) = notices(first, "counter_question")
    recommended = [o for o in question["options"] if o["recommended"]]
    assert len(recommended) == 1 and len(question["options"]) >= 2
    level = int(recommended[0]["label"].split()[-1])

    second = ask(stack, token, recommended[0]["reply"], session)
    refs = one(second, "references")
    (narrowed,) = refs["counts"]
    expected = {
        p.id
        for _, p in SearchIndex(build_corpus()).candidates(HARBOR, "missing hard hats", 200, level)
    }
    assert narrowed["grade"] == "EXACT" and narrowed["has_more"] is False
    assert refs["complete"] is True and narrowed["total"] == len(expected)
    assert {c["id"] for c in refs["citations"]} == expected
    # The scope was dispatch's: the planner repeated the search, the level was added.
    (call,) = mcp_calls(stack, second[0].json()["turn_id"], "search_photos")
    assert call["arguments"]["level_number"] == level
    assert f"exactly {len(expected)}" in second[-1].json()["answer"]


def test_a_narrowed_turn_shows_one_grade_from_tool_result_to_references(stack: Stack) -> None:
    token = stack.token(sub="one-grade")
    first = ask(stack, token, PHOTOS)
    session = first[0].json()["session_id"]
    (question,) = notices(first, "counter_question")
    (pick,) = [o for o in question["options"] if o["recommended"]]
    second = ask(stack, token, pick["reply"], session)
    searched = [e.json() for e in second if e.event == "tool_result"]
    (result,) = [r for r in searched if r["tool"] == "search_photos"]
    (count,) = one(second, "references")["counts"]
    # Promoted to EXACT (one page, nothing beyond it) before its first frame, not after.
    assert result["grade"] == count["grade"] == "EXACT"


def test_zero_after_narrowing_releases_the_scope_for_the_next_search(stack: Stack) -> None:
    token = stack.token(sub="releaser")
    first = ask(stack, token, PHOTOS)
    session = first[0].json()["session_id"]
    option = notices(first, "counter_question")[0]["options"][0]
    empty = ask(stack, token, option["reply"], session, scenario="zero-hits")
    (absence,) = notices(empty, "absence")
    assert "previous results" in absence["text"]
    assert "whole project" in empty[-1].json()["answer"].lower() or "everything" in (
        empty[-1].json()["answer"].lower()
    )
    again = ask(stack, token, PHOTOS, session)
    (call,) = mcp_calls(stack, again[0].json()["turn_id"], "search_photos")
    assert "level_number" not in call["arguments"]  # released: the whole project again


def test_a_new_question_abandons_an_offered_narrowing(stack: Stack) -> None:
    token = stack.token(sub="wanderer")
    first = ask(stack, token, PHOTOS)
    session = first[0].json()["session_id"]
    other = ask(
        stack, token, "How many open safety findings are on level 3 of Harbor Tower?", session
    )
    assert one(other, "references")["counts"][0]["grade"] == "EXACT"
    assert not notices(other, "counter_question")


def test_single_mode_offers_no_counter_question_but_says_how_to_narrow(stack: Stack) -> None:
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=stack.token())
    assert not notices(events, "counter_question")
    (hint,) = notices(events, "disclosure")
    assert "level" in hint["text"]  # search_photos accepts one axis: the level


def test_load_more_fetches_the_next_page_and_never_sums_a_count(stack: Stack) -> None:
    token = stack.token(sub="pager")
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=token)
    turn_id = events[0].json()["turn_id"]
    (count,) = one(events, "references")["counts"]
    first_ids = {c["id"] for c in one(events, "references")["citations"]}
    assert count["more"] is True
    more = httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/more",
        json={"slot": count["slot"]},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert more.status_code == 200
    body = more.json()
    new_ids = {c["id"] for c in body["citations"]}
    assert len(new_ids) == 10 and not new_ids & first_ids and body["anomalies"] == []
    assert body["notices"] == []
    assert body["count"]["total"] == count["total"]  # the population, never a page sum
    assert body["count"]["displayed"] == 20 and body["count"]["grade"] == "LOWER_BOUND"


def test_load_more_on_a_drifting_source_discards_and_discloses(stack: Stack) -> None:
    token = stack.token(sub="drifter")
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=token)
    turn_id = events[0].json()["turn_id"]
    slot = one(events, "references")["counts"][0]["slot"]
    more = httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/more",
        json={"slot": slot},
        headers={"Authorization": f"Bearer {token}", "X-Beacon-Scenario": "cursor-drift"},
        timeout=30,
    ).json()
    assert more["citations"] == [] and "total_changed" in more["anomalies"]
    assert more["count"]["more"] is False
    (disclosed,) = more["notices"]
    assert disclosed["kind"] == "disclosure" and "changed while paging" in disclosed["text"]
    again = httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/more",
        json={"slot": slot},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert again.status_code == 409


def test_the_load_more_reply_is_a_published_wire_model(stack: Stack) -> None:
    document = httpx.get(f"{stack.chat_url}/openapi.json", timeout=10).json()
    answered = document["paths"]["/v1/turns/{turn_id}/more"]["post"]["responses"]["200"]
    schema = answered["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/MoreReply"}
    reply = document["components"]["schemas"]["MoreReply"]
    assert {"turn_id", "slot", "citations", "count", "anomalies", "failed", "notices"} == set(
        reply["properties"]
    )


def test_load_more_is_the_owners_only(stack: Stack) -> None:
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=stack.token(sub="a"))
    turn_id = events[0].json()["turn_id"]
    theirs = httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/more",
        json={"slot": "c1"},
        headers={"Authorization": f"Bearer {stack.token(sub='b')}"},
        timeout=30,
    )
    assert theirs.status_code == 404


def test_this_level_resolves_from_the_view_context(stack: Stack) -> None:
    expected = sum(
        1
        for a in build_corpus().annotations
        if a.project_id == HARBOR
        and a.level_number == 5
        and a.kind == "safety"
        and a.status == "open"
    )
    body = {
        "message": "How many open safety findings are on this level of Harbor Tower?",
        "view_context": {"project_id": HARBOR, "level": "Level 5", "level_number": 5},
    }
    events = run_turn(stack.chat_url, body, token=stack.token())
    assert one(events, "references")["counts"][0] | {} and events[-1].event == "done"
    assert one(events, "references")["counts"][0]["total"] == expected


def test_a_full_annotation_list_is_not_disclosed_when_the_answer_did_not_use_it(
    stack: Stack,
) -> None:
    listed = [{"id": f"ann-{n:06d}", "title": "x"} for n in range(50)]
    body = {"message": PHOTOS, "view_context": {"project_id": HARBOR, "annotations": listed}}
    events = run_turn(stack.chat_url, body, token=stack.token())
    # A photo answer never read the on-screen list: no "the 50 shown may not be all".
    assert not [d for d in notices(events, "disclosure") if "screen" in d["text"]]
    over = httpx.post(
        f"{stack.chat_url}/v1/turns",
        json={**body, "view_context": {"annotations": [*listed, {"id": "ann-x"}]}},
        headers={"Authorization": f"Bearer {stack.token()}"},
        timeout=10,
    )
    assert over.status_code == 422


@pytest.mark.parametrize(
    "question",
    [
        "Which companies have open safety findings on level 3 of Harbor Tower?",
        # "How many companies" is the same members, not the findings' count alone.
        "How many companies have open safety findings on level 3 of Harbor Tower?",
    ],
)
def test_which_companies_is_a_set_read_from_fields_not_a_search(
    stack: Stack, question: str
) -> None:
    events = run_turn(stack.chat_url, {"message": question}, token=stack.token())
    refs = one(events, "references")
    truth = sorted(
        {
            a.company
            for a in build_corpus().annotations
            if a.project_id == HARBOR
            and a.level_number == 3
            and a.kind == "safety"
            and a.status == "open"
        }
    )
    (found,) = refs["sets"]
    assert found["method"] == "enumerate" and found["field"] == "company"
    assert found["members"] == truth and found["complete"] is True
    assert len(refs["citations"]) < len(truth) or len(truth) <= 10  # cards are a sample
    answer = events[-1].json()["answer"]
    assert all(company in answer for company in truth)  # never cut to the top matches
    # "How many" gets code's count of the members too; "which" the members alone.
    said = f"Companies counted over every matching record: {len(truth)}."
    assert (said in answer) is question.startswith("How many"), answer


def test_load_more_serves_the_rest_of_a_page_already_in_hand(stack: Stack) -> None:
    token = stack.token(sub="lister")
    events = run_turn(
        stack.chat_url,
        {"message": "List open safety findings on level 3 of Harbor Tower"},
        token=token,
    )
    turn_id = events[0].json()["turn_id"]
    (count,) = one(events, "references")["counts"]
    assert count["grade"] == "EXACT" and count["more"] is True and count["displayed"] == 10
    seen = {c["id"] for c in one(events, "references")["citations"]}
    displayed = []
    for _ in range(5):  # bounded: 24 rows are 3 pages of cards
        reply = httpx.post(
            f"{stack.chat_url}/v1/turns/{turn_id}/more",
            json={"slot": count["slot"]},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        if reply.status_code == 409:
            break
        body = reply.json()
        new = {c["id"] for c in body["citations"]}
        assert not new & seen
        seen |= new
        displayed.append(body["count"]["displayed"])
        assert body["count"]["total"] == count["total"]
    assert displayed == [20, count["total"]] and len(seen) == count["total"]
