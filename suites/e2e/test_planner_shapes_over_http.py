"""The default model plans what a site team asks: comparisons, follow-ups, documents,
clashes and progress — each over real HTTP, each figure computed here from the corpus.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from harness.verify.prose import count_entries as counts
from harness.verify.prose import final_answer as answer
from harness.verify.prose import frame_data as frames
from stub_server.corpus import build_corpus

pytestmark = pytest.mark.e2e
HARBOR, MAPLE, CEDAR = "prj-harbor-tower", "prj-maple-clinic", "prj-cedar-school"


def findings(project: str, **fields: object) -> int:
    return sum(
        1
        for a in build_corpus().annotations
        if a.project_id == project and all(getattr(a, k) == v for k, v in fields.items())
    )


def single(stack: Stack, token: str, question: str) -> list[SseEvent]:
    return run_turn(stack.chat_url, {"mode": "single", "message": question}, token=token)


def conversation(stack: Stack, token: str, questions: list[str]) -> list[list[SseEvent]]:
    turns: list[list[SseEvent]] = []
    session: str | None = None
    for question in questions:
        body: dict[str, Any] = {"mode": "chat", "message": question}
        if session is not None:
            body["session_id"] = session
        events = run_turn(stack.chat_url, body, token=token)
        session = events[0].json()["session_id"]
        turns.append(events)
    return turns


@pytest.mark.parametrize(
    "question",
    [
        "How many open findings are on level 3 vs level 4 of Harbor Tower?",
        "Wie viele offene Befunde gibt es auf Ebene 3 und Ebene 4 von Harbor Tower?",
    ],
)
def test_a_comparison_counts_each_side_with_its_own_call(
    stack: Stack, token: str, question: str
) -> None:
    events = single(stack, token, question)
    found = {
        tuple(sorted((a["axis"], a["value"]) for a in c["scope"]["applied"])): c
        for c in counts(events)
    }
    for level in (3, 4):
        key = (("level", str(level)), ("project", HARBOR), ("status", "open"))
        assert key in found, found.keys()
        truth = findings(HARBOR, level_number=level, status="open")
        assert (found[key]["grade"], found[key]["total"]) == ("EXACT", truth)
        assert f"{truth:,}".replace(",", ".") in answer(events) or f"{truth:,}" in answer(events)
    # Both sides were counted: nothing of the question is disclosed as left out.
    assert not [n for n in frames(events, "notice") if n["kind"] == "disclosure"]


def test_a_comparison_whose_second_side_no_call_counted_is_disclosed(
    stack: Stack, token: str
) -> None:
    # The planner drops the level from its calls and ignores the correction.
    events = run_turn(
        stack.chat_url,
        {
            "mode": "single",
            "message": "How many open findings are on level 3 vs level 4 of Maple Clinic?",
        },
        token=token,
        scenario="model-drops-level-ignores",
    )
    notices = " ".join(n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure")
    assert "level 3" in notices and "level 4" in notices


def test_a_follow_up_keeps_the_set_and_moves_or_narrows_it(stack: Stack, token: str) -> None:
    first, moved, narrowed = conversation(
        stack,
        token,
        [
            "How many open findings are on level 3 of Harbor Tower?",
            "And on level 4?",
            "How many of them are safety findings?",
        ],
    )
    assert counts(first)[0]["total"] == findings(HARBOR, level_number=3, status="open")
    assert counts(moved)[0]["total"] == findings(HARBOR, level_number=4, status="open")
    safety = findings(HARBOR, level_number=4, status="open", kind="safety")
    assert (counts(narrowed)[0]["grade"], counts(narrowed)[0]["total"]) == ("EXACT", safety)
    assert f"exactly {safety}" in answer(narrowed)
    # "them" is the earlier set, which the planner carried: nothing to disclose.
    assert not any(n["kind"] == "disclosure" for n in frames(narrowed, "notice"))


def test_a_level_typed_after_a_counter_question_narrows_the_same_search(
    stack: Stack, token: str
) -> None:
    search, level = conversation(
        stack, token, ["Photos of missing hard hats in Harbor Tower", "Level 3"]
    )
    assert any(n["kind"] == "counter_question" for n in frames(search, "notice"))
    calls = [c["arguments"] for c in frames(level, "tool_call") if c["tool"] == "search_photos"]
    assert calls and calls[0]["query"] == "missing hard hats" and calls[0]["level_number"] == 3
    assert "Which project" not in answer(level)


def test_rfis_clashes_and_levels_go_to_the_tools_that_hold_them(stack: Stack, token: str) -> None:
    corpus = build_corpus()
    rfis = single(stack, token, "Show me the RFIs for Harbor Tower.")
    (call,) = [c for c in frames(rfis, "tool_call") if c["tool"] != "list_projects"]
    assert call["tool"] == "search_documents" and call["arguments"]["kind"] == "rfi"
    assert counts(rfis)[0]["total"] == sum(
        1 for d in corpus.documents if d.project_id == HARBOR and d.kind == "rfi"
    )
    clashes = single(stack, token, "Show the clash report for Harbor Tower.")
    assert [c["tool"] for c in frames(clashes, "tool_call")][-1] == "get_clash_report"
    assert counts(clashes)[0]["total"] == sum(1 for c in corpus.clashes if c.project_id == HARBOR)
    # "the clash report" names what the tool returns, not a narrower set.
    assert not any(n["kind"] == "disclosure" for n in frames(clashes, "notice"))
    levels = single(stack, token, "How many levels does Cedar School have?")
    assert (counts(levels)[0]["grade"], counts(levels)[0]["total"]) == (
        "EXACT",
        sum(1 for lv in corpus.levels if lv.project_id == CEDAR),
    )
    progress = single(stack, token, "What is the progress on level 2 of Cedar School?")
    assert [c["tool"] for c in frames(progress, "tool_call")][-1] == "get_progress_summary"


def test_who_leads_a_field_is_read_from_every_record_and_a_tie_names_all_leaders(
    stack: Stack, token: str
) -> None:
    riverside = "prj-riverside-depot"
    tally = Counter(
        a.company
        for a in build_corpus().annotations
        if a.project_id == riverside and a.status == "open"
    )
    top = max(tally.values())
    leaders = sorted(c for c, n in tally.items() if n == top)
    assert len(leaders) > 1  # the corpus holds a tie here: the point of the test
    events = single(stack, token, "Which company has the most open findings at Riverside Depot?")
    (found,) = frames(events, "references")[0]["sets"]
    assert (found["extreme"], found["leaders"]) == ("most", leaders)
    text = answer(events)
    assert "tied" in text and all(name in text for name in leaders)


def test_when_names_the_latest_day_of_the_records_asked_about(stack: Stack, token: str) -> None:
    latest = max(
        c.captured_at[:10]
        for c in build_corpus().captures
        if c.project_id == HARBOR and c.level_number == 5
    )
    events = single(stack, token, "When was the last capture on level 5 of Harbor Tower?")
    (found,) = frames(events, "references")[0]["sets"]
    assert found["leaders"] == [latest] and latest in answer(events)
    # "the last" is which end of the set, read by code: nothing of the question is unapplied.
    assert not any(n["kind"] == "disclosure" for n in frames(events, "notice"))


@pytest.mark.parametrize(
    ("question", "project", "said"),
    [
        ("Where is Maple Clinic?", "Maple Clinic", "{p} is in {c}"),
        ("Wo liegt Cedar School?", "Cedar School", "{p} liegt in {c}"),
        ("¿Dónde está Harbor Tower?", "Harbor Tower", "{p} está en {c}"),
        ("Riverside Depot은 어디에 있나요?", "Riverside Depot", "{c}에 있습니다"),
        ("Maple Clinicはどこにありますか", "Maple Clinic", "{c}にあります"),
    ],
)
def test_where_a_project_is_comes_from_its_own_record_in_the_asked_language(
    stack: Stack, token: str, question: str, project: str, said: str
) -> None:
    (record,) = [p for p in build_corpus().projects if p.name == project]
    events = single(stack, token, question)
    text = answer(events)
    assert said.format(p=project, c=record.city) in text, text
    # The directory's size is not the answer, and nothing of the question went unapplied.
    assert not any(n["kind"] == "disclosure" for n in frames(events, "notice")), text
    assert not any(ch.isdigit() for ch in text)


def test_a_lookup_by_id_reads_that_records_own_field(stack: Stack, token: str) -> None:
    (record,) = [a for a in build_corpus().annotations if a.id == "ann-000123"]
    status = single(stack, token, "What is the status of ann-000123 in Harbor Tower?")
    (found,) = frames(status, "references")[0]["sets"]
    assert (found["field"], found["members"]) == ("status", [record.status])
    assert record.status in answer(status)
    who = single(stack, token, "Who raised ann-000123 in Harbor Tower?")
    assert record.inspector in answer(who)
    photo = single(stack, token, "Show me ph-000045 at Harbor Tower")
    assert [c["id"] for c in frames(photo, "references")[0]["citations"]] == ["ph-000045"]


def test_progress_names_the_trades_behind_plan_read_from_every_row(
    stack: Stack, token: str
) -> None:
    behind = sorted(
        {
            row.trade
            for row in build_corpus().progress
            if row.project_id == CEDAR
            and row.level_number == 2
            and row.actual_pct < row.planned_pct
        }
    )
    events = single(stack, token, "What is the progress on level 2 of Cedar School?")
    (found,) = frames(events, "references")[0]["sets"]
    assert (found["extreme"], found["leaders"]) == ("behind", behind)
    text = answer(events)
    assert "behind plan" in text and all(trade in text for trade in behind), text
