"""The counted set is the asked set: a planner that drops a constraint is corrected or disclosed.

Real HTTP through the three servers. A scripted planner leaves one constraint
of the question out of its calls (date, level, person, status, company,
topic), as a real model does. The loop reads the question's constraints
itself, sees the call did not apply one, and asks once for the call again:
the obedient planner then counts the asked set (EXACT, equal to the truth
computed here from the corpus records); the disobedient one stops, and the
count it left is disclosed — a notice naming the phrase, the scope on the
wire, and no sentence stating that number without saying what it left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack
from harness.verify.prose import count_entries as counts
from harness.verify.prose import final_answer as answer
from harness.verify.prose import frame_data as frames
from harness.verify.prose import sentences_stating, stated_without
from stub_server.corpus import Annotation, Photo, build_corpus

pytestmark = pytest.mark.e2e
MAPLE = "prj-maple-clinic"


def _findings(keep: Callable[[Annotation], bool]) -> int:
    return sum(1 for a in build_corpus().annotations if a.project_id == MAPLE and keep(a))


def _photos(keep: Callable[[Photo], bool]) -> int:
    return sum(1 for p in build_corpus().photos if p.project_id == MAPLE and keep(p))


# axis → (question, the phrase that names the constraint, the truth from the corpus)
CASES: dict[str, tuple[str, str, Callable[[], int] | None]] = {
    "date": (
        "How many findings were raised at Maple Clinic in March 2026?",
        "in March 2026",
        lambda: _findings(lambda a: a.created_at.startswith("2026-03")),
    ),
    "level": (
        "How many photos are on level 2 of Maple Clinic?",
        "level 2",
        lambda: _photos(lambda p: p.level_number == 2),
    ),
    "person": (
        "How many findings did Dana Whitfield raise at Maple Clinic?",
        "Dana Whitfield",
        lambda: _findings(lambda a: a.inspector == "Dana Whitfield"),
    ),
    "status": (
        "How many open findings are at Maple Clinic?",
        "open",
        lambda: _findings(lambda a: a.status == "open"),
    ),
    "company": (
        "How many findings does Keystone Concrete have at Maple Clinic?",
        "Keystone Concrete",
        lambda: _findings(lambda a: a.company == "Keystone Concrete"),
    ),
    # A search cannot count exactly: corrected means its query is the topic.
    "topic": ("Show me photos of scaffolding at Maple Clinic.", "scaffolding", None),
}


def ask(stack: Stack, token: str, question: str, scenario: str) -> list[SseEvent]:
    return run_turn(
        stack.chat_url, {"mode": "single", "message": question}, token=token, scenario=scenario
    )


def unapplied(count: dict[str, Any]) -> list[str]:
    return [u["phrase"] for u in count["scope"]["unapplied"]]


@pytest.mark.parametrize("axis", sorted(CASES))
def test_a_dropped_constraint_is_asked_for_once_and_the_count_is_of_the_asked_set(
    stack: Stack, token: str, axis: str
) -> None:
    question, phrase, truth = CASES[axis]
    events = ask(stack, token, question, f"model-drops-{axis}")
    plans = frames(events, "plan")
    assert [p["purpose"] for p in plans].count("correct_scope") == 1, plans
    leading = counts(events)[0]
    assert unapplied(leading) == [], leading
    assert phrase.casefold() not in " ".join(n["text"] for n in frames(events, "notice")).casefold()
    if truth is not None:
        expected = truth()
        assert (leading["grade"], leading["total"]) == ("EXACT", expected)
        assert f"exactly {expected:,}" in answer(events)
    else:
        calls = [
            c["arguments"] for c in frames(events, "tool_call") if c["tool"] != "list_projects"
        ]
        assert calls[0]["query"] != phrase and calls[-1]["query"] == phrase, calls


@pytest.mark.parametrize("axis", sorted(CASES))
def test_a_planner_that_ignores_the_correction_leaves_a_count_that_is_disclosed_not_stated(
    stack: Stack, token: str, axis: str
) -> None:
    question, phrase, _ = CASES[axis]
    events = ask(stack, token, question, f"model-drops-{axis}-ignores")
    kinds = [e.event for e in events]
    assert [k for k in kinds if k in ("done", "error")] == ["done"], kinds
    found = counts(events)
    assert found and all(phrase in unapplied(c) for c in found), found
    references = frames(events, "references")[0]
    assert references["complete"] is False
    notices = [n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure"]
    assert any(phrase in text for text in notices), notices
    text = answer(events)
    # The wrong-set number may be said only in a sentence that says what it left out.
    totals = [c["total"] for c in found if c["total"] is not None]
    assert stated_without(text, totals, phrase) == [], text


def test_a_count_no_tool_can_narrow_is_said_once_with_what_it_left_out(
    stack: Stack, token: str
) -> None:
    # No tool filters findings by a topic: the only right answer is a disclosure.
    question = "How many findings about guardrails are on level 3 of Maple Clinic?"
    events = run_turn(stack.chat_url, {"mode": "single", "message": question}, token=token)
    truth = sum(
        1 for a in build_corpus().annotations if a.project_id == MAPLE and a.level_number == 3
    )
    text = answer(events)
    stating = sentences_stating(text, truth)
    assert len(stating) == 1 and "guardrails" in stating[0], text
    notices = [n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure"]
    assert any("guardrails" in n for n in notices)


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        (
            "How many findings were raised at Maple Clinic after March 3, 2026?",
            "after March 3, 2026",
        ),
        ("How many findings were raised at Maple Clinic before March 2026?", "before March 2026"),
        ("Wie viele Befunde wurden in Maple Clinic vor April 2026 erfasst?", "vor April 2026"),
        ("How many findings at Maple Clinic are not open?", "not open"),
        ("How many findings are above level 3 of Maple Clinic?", "above level 3"),
        (
            "How many findings did anyone but Dana Whitfield raise at Maple Clinic?",
            "but Dana Whitfield",
        ),
        # Words no table reads narrow the set as surely ("overdue", "high severity").
        ("How many overdue findings are there at Maple Clinic?", "overdue"),
        ("How many high severity findings are open at Maple Clinic?", "high severity"),
        ("¿Cuántos hallazgos urgentes hay en Maple Clinic?", "urgentes"),
        ("Maple Clinicの期限切れの指摘は何件ですか", "期限切れ"),
        ("Maple Clinic의 긴급 지적 사항은 몇 건인가요?", "긴급"),
        ("Show me cracked concrete photos at Maple Clinic", "cracked concrete"),
        # Another event's date: the tools' window is when a finding was raised.
        ("How many findings were closed last week at Maple Clinic?", "closed last week"),
        # A list of levels: each a level of its own, none counted here.
        ("How many open findings are on levels 3, 4 and 5 of Maple Clinic?", "levels 3"),
        # Other records than the question's: the upstream's query counted photos.
        ("How many findings at Maple Clinic have photos?", "findings"),
    ],
)
def test_a_phrase_of_another_set_leaves_every_count_disclosed_not_stated(
    stack: Stack, token: str, question: str, phrase: str
) -> None:
    # The default model drops a bound ("after …"), counts the month it names ("before
    # March 2026" as March) or the very set excluded ("not open" as open, "above level 3"
    # as level 3): every count it leaves is of another set.
    events = run_turn(stack.chat_url, {"mode": "single", "message": question}, token=token)
    kinds = [e.event for e in events]
    assert [k for k in kinds if k in ("done", "error")] == ["done"], kinds
    found = counts(events)
    assert found and all(phrase in unapplied(c) for c in found), found
    notices = [n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure"]
    assert any(phrase in text for text in notices), notices
    text = answer(events)
    assert "exactly" not in text or phrase in text, text
    assert stated_without(text, [c["total"] or 0 for c in found], phrase) == [], text


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("How many panoramas were captured in the morning on level 3 of Maple Clinic?", 6, 11),
        ("Wie viele Panoramen wurden nachmittags auf Ebene 3 in Maple Clinic aufgenommen?", 12, 17),
    ],
)
def test_a_time_of_day_is_applied_to_captures_and_counted_exactly(
    stack: Stack, token: str, question: str, first: int, last: int
) -> None:
    truth = sum(
        1
        for c in build_corpus().captures
        if c.project_id == MAPLE
        and c.level_number == 3
        and first <= int(c.captured_at[11:13]) <= last
    )
    events = run_turn(stack.chat_url, {"mode": "single", "message": question}, token=token)
    leading = counts(events)[0]
    assert unapplied(leading) == [] and (leading["grade"], leading["total"]) == ("EXACT", truth)
    assert {"axis": "date", "value": f"{first:02d}:00-{last:02d}:59"} in leading["scope"]["applied"]


def test_a_second_project_named_is_a_project_never_a_person_to_filter_by(
    stack: Stack, token: str
) -> None:
    # "Cedar School" was read as a person: a correction asked for inspector "Cedar
    # School" within Maple Clinic, and "none" was stated of that set.
    question = "How many open findings does Maple Clinic have compared to Cedar School?"
    events = run_turn(stack.chat_url, {"mode": "single", "message": question}, token=token)
    sent = [c["arguments"] for c in frames(events, "tool_call")]
    assert not any("inspector" in arguments for arguments in sent), sent
    truth = _findings(lambda a: a.status == "open")
    stated = [c for c in counts(events) if not unapplied(c)]
    assert stated and all((c["grade"], c["total"]) == ("EXACT", truth) for c in stated), stated
    assert "none" not in answer(events).casefold()


@pytest.mark.parametrize(
    "question",
    [
        "How many findings were raised at Maple Clinic in 2025?",
        "Maple Clinicで2025年に作成された指摘は何件ですか",
    ],
)
def test_a_year_is_a_window_and_its_count_is_stated_exactly(
    stack: Stack, token: str, question: str
) -> None:
    # "in 2025" was a date no window stood for: every count was disclosed, none stated.
    truth = _findings(lambda a: a.created_at.startswith("2025-"))
    events = run_turn(stack.chat_url, {"mode": "single", "message": question}, token=token)
    leading = counts(events)[0]
    assert unapplied(leading) == [] and (leading["grade"], leading["total"]) == ("EXACT", truth)
    assert {"axis": "date", "value": "2025-01-01..2025-12-31"} in leading["scope"]["applied"]


@pytest.mark.parametrize(
    ("question", "narration", "said_of_another_set"),
    [
        # The model states the count of the wider set as the answer, in digits and in words.
        ("How many overdue findings are there at Maple Clinic?", "Maple Clinic has {all} "
         "overdue findings.", "{all} overdue"),
        ("How many overdue findings are there at Maple Clinic?", "Ninety findings at Maple "
         "Clinic are overdue.", "Ninety"),
        # ... and "none" of findings raised last week, for findings closed last week.
        ("How many findings were closed last week at Maple Clinic?", "No findings were "
         "closed last week.", "No findings"),
    ],
)  # fmt: skip
def test_a_model_never_states_a_count_of_another_set_as_the_answer(
    stack: Stack, token: str, question: str, narration: str, said_of_another_set: str
) -> None:
    every = _findings(lambda a: True)
    text = narration.format(all=every)
    origin = stack.llm_url.removesuffix("/v1")
    body = {"question": question, "text": text}
    assert httpx.post(f"{origin}/dev/narrations", json=body, timeout=10).status_code == 201
    try:
        events = run_turn(
            stack.chat_url,
            {"mode": "single", "message": question},
            token=token,
            scenario="model-narrates",
        )
    finally:
        httpx.delete(f"{origin}/dev/narrations", params={"question": question}, timeout=10)
    said = answer(events)
    assert said_of_another_set.format(all=every) not in said, said
    assert not any(n["kind"] == "absence" for n in frames(events, "notice"))
    assert all(unapplied(c) for c in counts(events)), counts(events)


@pytest.mark.parametrize(
    ("scenario", "question", "phrase"),
    [
        ("model-adds-person", "How many open findings are at Maple Clinic?", "Dana Whitfield"),
        ("model-adds-status", "How many findings are on level 3 of Maple Clinic?", "closed"),
        ("model-adds-level", "How many open findings are at Maple Clinic?", "level_number 2"),
    ],
)
def test_a_filter_the_planner_added_unasked_leaves_its_count_disclosed_not_stated(
    stack: Stack, token: str, scenario: str, question: str, phrase: str
) -> None:
    events = run_turn(
        stack.chat_url, {"mode": "single", "message": question}, token=token, scenario=scenario
    )
    notices = [n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure"]
    assert any(phrase in text for text in notices), notices
    text = answer(events)
    found = counts(events)
    assert found, events
    # The narrower count is said only in code's sentence that names what narrowed it.
    assert stated_without(text, [c["total"] or 0 for c in found], phrase) == [], text


def test_a_search_for_a_query_the_question_never_named_is_no_standing_for_none(
    stack: Stack, token: str
) -> None:
    # The default model searches "document" for "the documents": nothing matches that
    # word, while the project holds documents (counted here from the corpus).
    held = sum(1 for d in build_corpus().documents if d.project_id == "prj-cedar-school")
    assert held > 0
    events = ask(stack, token, "Show me the documents for Cedar School.", "default")
    assert not any(n["kind"] == "absence" for n in frames(events, "notice"))
    notices = " ".join(n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure")
    assert "query" in notices, notices
    said = answer(events)
    assert "no such data" not in said and "found none" not in said, said


def test_a_lower_bound_of_a_search_narrowed_by_its_query_is_still_stated(
    stack: Stack, token: str
) -> None:
    # "At least N photos matching the query" is at least N photos: it stands.
    events = ask(stack, token, "Show me photos of Harbor Tower", "default")
    (count,) = counts(events)
    assert count["grade"] == "LOWER_BOUND"
    notices = " ".join(n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure")
    assert "query" not in notices and "not the answer" not in notices, notices
    assert f"at least {count['total']:,}" in answer(events)


def test_a_count_that_left_a_phrase_out_and_added_a_filter_says_both(
    stack: Stack, token: str
) -> None:
    # "overdue" no tool reads, and the planner narrowed to an inspector never named:
    # code's sentence names both, or it would misname the set its figure counts.
    events = ask(
        stack, token, "How many overdue findings are at Maple Clinic?", "model-adds-person"
    )
    text = answer(events)
    assert "without “overdue” and with “inspector Dana Whitfield”" in text, text
