"""``done.shown_spans`` over real HTTP: each span points at the number the server
rendered for a shown slot, inside the sentence that says so, in ``done.answer`` —
live and on replay alike (the frame is stored as published)."""

from __future__ import annotations

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.wire.sse import parse_sse
from harness.stack import Stack

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"


def test_the_done_frames_shown_span_points_at_the_cards_number_in_its_sentence(
    stack: Stack, token: str
) -> None:
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=token)
    assert events[-1].event == "done"
    done = events[-1].json()
    (refs,) = [e.json() for e in events if e.event == "references"]
    (count,) = refs["counts"]
    assert count["grade"] == "LOWER_BOUND" and count["displayed"] == 10
    answer = done["answer"]
    (span,) = done["shown_spans"]
    assert span["slot"] == count["slot"]
    assert answer[span["start"] : span["end"]] == "10"
    sentence = answer[span["sentence_start"] : span["sentence_end"]]
    assert span["sentence_start"] <= span["start"] < span["end"] <= span["sentence_end"]
    # The stub model's shown-set sentence, whole: from its first word to its full stop.
    assert sentence == "These 10 are shown as cards.", sentence

    replayed = httpx.get(
        f"{stack.chat_url}/v1/turns/{done['turn_id']}/events",
        params={"after": 0},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    (stored,) = [e.json() for e in parse_sse(replayed.text.splitlines()) if e.event == "done"]
    assert stored["shown_spans"] == done["shown_spans"]


def test_an_answer_with_no_shown_slot_marks_no_span(stack: Stack, token: str) -> None:
    events = run_turn(stack.chat_url, {"message": "Hello"}, token=token)
    done = events[-1].json()
    assert events[-1].event == "done" and done["shown_spans"] == []
