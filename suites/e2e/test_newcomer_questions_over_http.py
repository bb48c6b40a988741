"""The newcomer's five wrong-set answers, asked again with the default model: right or disclosed.

A new user asked these with `beacon-rules` and got an exact count of another
set each time ("exactly 102" where the truth was 0). Real HTTP through the
three servers, on one clock pinned with ``BEACON_TODAY`` (a Wednesday inside
the corpus, so "last week" holds photos). Expected windows are written out by
hand and truths computed here from the corpus records.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import SseEvent
from harness.stack import Stack, running_stack
from harness.verify.prose import frame_data as frames
from stub_server.corpus import build_corpus

pytestmark = pytest.mark.e2e
HARBOR, MAPLE = "prj-harbor-tower", "prj-maple-clinic"
TODAY = "2026-06-17"  # a Wednesday
LAST_WEEK = ("2026-06-08", "2026-06-14")  # the previous Monday–Sunday
LAST_7_DAYS = ("2026-06-10", "2026-06-17")  # today minus 7 days to today


@pytest.fixture(scope="module")
def pinned() -> Iterator[Stack]:
    with running_stack("default", {"BEACON_TODAY": TODAY}) as running:
        yield running


def ask(stack: Stack, question: str) -> list[SseEvent]:
    return run_turn(stack.chat_url, {"mode": "single", "message": question}, token=stack.token())


def leading(events: list[SseEvent]) -> dict[str, Any]:
    (refs,) = frames(events, "references")
    count = refs["counts"][0]
    assert isinstance(count, dict)
    return count


def disclosures(events: list[SseEvent]) -> str:
    return " ".join(n["text"] for n in frames(events, "notice") if n["kind"] == "disclosure")


def photos_taken(project: str, window: tuple[str, str], level: int | None = None) -> int:
    start, end = window
    return sum(
        1
        for p in build_corpus().photos
        if p.project_id == project
        and start <= p.taken_at[:10] <= end
        and level in (None, p.level_number)
    )


@pytest.mark.parametrize(
    ("question", "truth"),
    [
        (
            "How many photos were taken on level 2 of Harbor Tower last week?",
            lambda: photos_taken(HARBOR, LAST_WEEK, level=2),
        ),
        (
            "How many photos were taken at Harbor Tower in the last 7 days?",
            lambda: photos_taken(HARBOR, LAST_7_DAYS),
        ),
        (
            "How many findings did Dana Whitfield raise at Maple Clinic?",
            lambda: sum(
                1
                for a in build_corpus().annotations
                if a.project_id == MAPLE and a.inspector == "Dana Whitfield"
            ),
        ),
    ],
)
def test_a_count_the_newcomer_got_wrong_is_now_the_exact_count_of_the_asked_set(
    pinned: Stack, question: str, truth: Any
) -> None:
    expected = truth()
    events = ask(pinned, question)
    count = leading(events)
    assert count["scope"]["unapplied"] == [], count
    assert (count["grade"], count["total"]) == ("EXACT", expected), count
    (done,) = frames(events, "done")
    assert f"exactly {expected:,}" in done["answer"], done["answer"]


def test_photos_of_guardrails_on_level_7_are_searched_as_guardrails_on_level_7(
    pinned: Stack,
) -> None:
    on_level_7 = sum(
        1 for p in build_corpus().photos if p.project_id == HARBOR and p.level_number == 7
    )
    events = ask(pinned, "Show me photos of guardrails on level 7 of Harbor Tower.")
    count = leading(events)
    assert count["scope"]["unapplied"] == [] and disclosures(events) == "", count
    assert {"axis": "topic", "value": "guardrail"} in count["scope"]["applied"]
    # The newcomer got every photo of level 7: the set asked about is smaller.
    assert count["total"] is not None and 0 < count["total"] < on_level_7
    searches = [c["arguments"] for c in frames(events, "tool_call") if c["tool"] == "search_photos"]
    assert searches and all(a.get("level_number") == 7 for a in searches), searches


def test_a_german_photo_question_keeps_its_topic_and_counts_what_the_english_one_counts(
    pinned: Stack,
) -> None:
    english = leading(ask(pinned, "Show me photos of missing hard hats in Harbor Tower."))
    events = ask(pinned, "Zeig mir Fotos von fehlenden Schutzhelmen im Harbor Tower.")
    german = leading(events)
    assert german["scope"]["unapplied"] == [], german
    assert (german["grade"], german["total"]) == (english["grade"], english["total"])
    assert german["total"] is not None and german["total"] < sum(
        1 for p in build_corpus().photos if p.project_id == HARBOR
    )
