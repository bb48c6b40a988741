"""The new-questions bench: each question asked new and again, the kinds alternating,
so a cost a process keeps from a question's first asking shows as a ratio."""

from __future__ import annotations

import math

import pytest

from bench import new_questions
from harness.stack import Stack

WARM = {
    "How many open safety findings are on level 3 of Harbor Tower?",
    "Photos of missing hard hats in Harbor Tower",
}


def test_no_new_question_is_the_warm_ups_or_another_new_ones() -> None:
    pairs = new_questions.new_questions()
    asked = [question for pair in pairs for question in pair]
    assert len(pairs) >= 20
    assert len(set(asked)) == len(asked)
    assert not WARM & set(asked)
    assert all(
        count.startswith("How many") and photos.startswith("Photos of") for count, photos in pairs
    )


def test_each_pair_is_asked_again_one_block_after_it_was_new() -> None:
    pairs = [("c1", "p1"), ("c2", "p2"), ("c3", "p3")]
    assert new_questions.schedule(pairs) == [
        ("new", ("c1", "p1")),
        ("new", ("c2", "p2")),
        ("again", ("c1", "p1")),
        ("new", ("c3", "p3")),
        ("again", ("c2", "p2")),
        ("again", ("c3", "p3")),
    ]


def test_the_ratio_is_printed_with_both_kinds_cpu_and_median() -> None:
    figures = {
        "turns_each_kind": 46,
        "new_cpu_ms_per_turn": 44.6,
        "again_cpu_ms_per_turn": 40.9,
        "cpu_ratio": 44.6 / 40.9,
        "new_median_s": 0.0689,
        "again_median_s": 0.0635,
        "failed_turns": 0,
    }
    text = "\n".join(new_questions.lines(figures))
    assert "46 questions, each asked new and again" in text
    assert "new    CPU 44.6 ms a turn  median 68.9 ms" in text
    assert "again  CPU 40.9 ms a turn  median 63.5 ms" in text
    assert "1.09×" in text


def test_asking_for_more_pairs_than_there_are_is_refused() -> None:
    there = len(new_questions.new_questions())
    with pytest.raises(ValueError, match=f"1..{there}"):
        new_questions.measure(Stack("http://127.0.0.1:9", "", "", "default", []), pairs=there + 1)


@pytest.mark.e2e
def test_smoke_every_turn_of_both_kinds_is_answered_and_its_cpu_counted(stack: Stack) -> None:
    figures = new_questions.measure(stack, pairs=2)
    assert figures["ok"], figures
    assert figures["turns_each_kind"] == 4 and len(figures["questions"]) == 4
    assert figures["new_cpu_ms_per_turn"] > 0 and figures["again_cpu_ms_per_turn"] > 0
    assert math.isfinite(figures["cpu_ratio"])
