"""In a chat, the counted set is the conversation's asked set: what a follow-up carries
from the questions before it is checked like what it names. On a host's screen, "this
level" is the level the view shows (the last tests).

Real HTTP through the three servers. The earlier questions go to the default model;
the follow-up to a scripted planner that resolves it from the transcript as the
default model does, then drops a carried filter (level, inspector, status) or adds one
the conversation never named. Before, the follow-up's count was stated as its answer:
"Maple Clinic has exactly 41 open findings raised by Dana Whitfield." where 41 counted
every inspector's. Each truth is computed here from the corpus records. (The stub's
query tool also reads its free-text ``question``, so a dropped argument may still
count the right set there: what Beacon judges is the arguments, which a real
upstream filters by.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from harness.verify.prose import count_entries as counts
from harness.verify.prose import final_answer as answer
from harness.verify.prose import frame_data as frames
from harness.verify.prose import stated_without
from stub_server.corpus import Annotation, build_corpus

pytestmark = pytest.mark.e2e
HARBOR, MAPLE = "prj-harbor-tower", "prj-maple-clinic"


def _findings(project: str, keep: Callable[[Annotation], bool]) -> int:
    return sum(1 for a in build_corpus().annotations if a.project_id == project and keep(a))


# name → (the earlier questions, the follow-up, the carried phrase a planner drops, truth)
DROPPED: dict[str, tuple[list[str], str, str, Callable[[], int]]] = {
    "level": (
        ["How many open findings are on level 3 of Harbor Tower?", "And on level 4?"],
        "How many of them are safety findings?",
        "level 4",
        lambda: _findings(
            HARBOR, lambda a: a.level_number == 4 and a.status == "open" and a.kind == "safety"
        ),
    ),
    "person": (
        ["How many findings does inspector Dana Whitfield have at Maple Clinic?"],
        "How many of them are open?",
        "Dana Whitfield",
        lambda: _findings(MAPLE, lambda a: a.inspector == "Dana Whitfield" and a.status == "open"),
    ),
    "status": (
        ["How many open findings are on level 3 of Harbor Tower?"],
        "How many of them are safety findings?",
        "open",
        lambda: _findings(
            HARBOR, lambda a: a.level_number == 3 and a.status == "open" and a.kind == "safety"
        ),
    ),
}


def conversation(
    stack: Stack, token: str, earlier: list[str], question: str, scenario: str | None
) -> list[SseEvent]:
    """The earlier questions with the default model, then ``question`` under ``scenario``."""
    session: str | None = None
    for asked, script in [*((q, None) for q in earlier), (question, scenario)]:
        body: dict[str, Any] = {"mode": "chat", "message": asked}
        if session is not None:
            body["session_id"] = session
        events = run_turn(stack.chat_url, body, token=token, scenario=script)
        session = events[0].json()["session_id"]
    return events


def disclosures(events: list[SseEvent]) -> str:
    return " ".join(n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure")


@pytest.mark.parametrize("name", sorted(DROPPED))
def test_a_carried_filter_the_planner_dropped_is_asked_for_and_the_count_is_of_the_asked_set(
    stack: Stack, token: str, name: str
) -> None:
    earlier, question, phrase, truth = DROPPED[name]
    events = conversation(stack, token, earlier, question, f"model-drops-{name}")
    assert [p["purpose"] for p in frames(events, "plan")].count("correct_scope") == 1
    leading = counts(events)[0]
    expected = truth()
    assert (leading["grade"], leading["total"]) == ("EXACT", expected), leading
    assert f"exactly {expected:,}" in answer(events)
    assert phrase not in disclosures(events)


@pytest.mark.parametrize("name", sorted(DROPPED))
def test_a_carried_filter_the_planner_would_not_apply_leaves_its_count_disclosed_not_stated(
    stack: Stack, token: str, name: str
) -> None:
    earlier, question, phrase, _ = DROPPED[name]
    events = conversation(stack, token, earlier, question, f"model-drops-{name}-ignores")
    found = counts(events)
    assert found and all(phrase in [u["phrase"] for u in c["scope"]["unapplied"]] for c in found), (
        found
    )
    assert phrase in disclosures(events)
    text = answer(events)
    assert stated_without(text, [c["total"] for c in found], phrase) == [], text


def test_a_filter_the_conversation_never_named_leaves_the_follow_ups_count_disclosed(
    stack: Stack, token: str
) -> None:
    events = conversation(
        stack,
        token,
        ["How many open findings are on level 3 of Harbor Tower?"],
        "How many of them are safety findings?",
        "model-adds-person",
    )
    assert "inspector" in disclosures(events)
    text = answer(events)
    assert stated_without(text, [c["total"] for c in counts(events)], "inspector") == [], text


def test_a_follow_up_the_default_model_resolves_is_stated_exactly_and_discloses_nothing(
    stack: Stack, token: str
) -> None:
    earlier, question, _, truth = DROPPED["person"]
    events = conversation(stack, token, earlier, question, None)
    leading = counts(events)[0]
    assert (leading["grade"], leading["total"]) == ("EXACT", truth())
    assert disclosures(events) == ""


def test_a_chat_question_with_a_subject_of_its_own_is_judged_for_added_filters_too(
    stack: Stack, token: str
) -> None:
    # A new question starts a new set: a filter carried into it, or made up, narrows it.
    events = conversation(
        stack,
        token,
        ["How many open findings are on level 3 of Harbor Tower?"],
        "How many closed findings are there in Maple Clinic?",
        "model-adds-person",
    )
    assert "inspector" in disclosures(events)
    text = answer(events)
    assert stated_without(text, [c["total"] for c in counts(events)], "inspector") == [], text


def test_where_is_a_project_after_a_count_is_answered_from_the_project_record(
    stack: Stack, token: str
) -> None:
    # The default model used to carry the earlier count into it: "Maple Clinic has
    # exactly 13 open findings on level 3." was the answer to "Where is Maple Clinic?".
    events = conversation(
        stack,
        token,
        ["How many open findings are on level 3 of Harbor Tower?"],
        "Where is Maple Clinic?",
        None,
    )
    city = next(p.city for p in build_corpus().projects if p.id == MAPLE)
    assert city in answer(events)
    assert not [c for c in frames(events, "tool_call") if c["tool"] == "query_data"]


def test_which_companies_after_a_set_lists_the_members_of_that_set_only(
    stack: Stack, token: str
) -> None:
    # The planner first lists every finding of the project; corrected, it lists the
    # carried set. Only the asked set's members are handed on, never the other call's.
    events = conversation(
        stack,
        token,
        ["How many findings does Keystone Concrete have at Maple Clinic?"],
        "Which companies?",
        None,
    )
    truth = sorted(
        {
            a.company
            for a in build_corpus().annotations
            if a.project_id == MAPLE and a.company == "Keystone Concrete"
        }
    )
    (references,) = frames(events, "references")
    assert [s["members"] for s in references["sets"]] == [truth]
    others = {a.company for a in build_corpus().annotations if a.project_id == MAPLE}
    assert not [c for c in others - set(truth) if c in answer(events)], answer(events)


def test_a_field_of_another_set_is_never_listed_as_the_answer(stack: Stack, token: str) -> None:
    events = run_turn(
        stack.chat_url,
        {"mode": "single", "message": "Which companies have open findings at Maple Clinic?"},
        token=token,
        scenario="model-drops-status-ignores",
    )
    (references,) = frames(events, "references")
    assert references["sets"] == []
    assert "open" in disclosures(events)


ON_LEVEL_3 = {"project_id": HARBOR, "project_name": "Harbor Tower", "level_number": 3}


@pytest.mark.parametrize(
    ("question", "truth"),
    [
        (
            "How many photos on this floor?",
            lambda: sum(
                1 for p in build_corpus().photos if p.project_id == HARBOR and p.level_number == 3
            ),
        ),
        (
            "この階の未解決の指摘は何件ですか？",
            lambda: _findings(HARBOR, lambda a: a.level_number == 3 and a.status == "open"),
        ),
    ],
)
def test_this_level_is_the_level_on_screen_and_its_count_is_exact(
    stack: Stack, token: str, question: str, truth: Callable[[], int]
) -> None:
    # The default model leaves "this floor" / "この階" out; asked once, it applies level 3.
    events = run_turn(
        stack.chat_url,
        {"mode": "single", "message": question, "view_context": ON_LEVEL_3},
        token=token,
    )
    leading = counts(events)[0]
    assert (leading["grade"], leading["total"]) == ("EXACT", truth()), leading
    assert {"axis": "level", "value": "3"} in leading["scope"]["applied"]
    assert disclosures(events) == ""


def test_this_level_with_no_level_on_screen_is_disclosed_never_counted_as_the_project(
    stack: Stack, token: str
) -> None:
    view = {"project_id": HARBOR, "project_name": "Harbor Tower"}
    events = run_turn(
        stack.chat_url,
        {
            "mode": "single",
            "message": "How many open findings are on this level?",
            "view_context": view,
        },
        token=token,
    )
    assert "this level" in disclosures(events)
    text = answer(events)
    assert stated_without(text, [c["total"] for c in counts(events)], "this level") == [], text
