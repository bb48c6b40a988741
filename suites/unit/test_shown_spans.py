"""The narration says where each shown slot landed in the published text, so a client
re-renders or highlights it without searching the prose for a number.

Expected substrings are written by hand; offsets are code points into the text.
"""

from __future__ import annotations

from beacon.adjudication import Grade
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.standing import build_standing
from beacon.loop.guarded_answer import Narration, guarded

PROJECTS = {"prj-harbor-tower": "Harbor Tower"}
LOWER = {"c1": Counted("c1", Grade.LOWER_BOUND, 3000, 10)}
STANDING = build_standing(
    [
        Counted(
            "c1",
            Grade.LOWER_BOUND,
            3000,
            10,
            has_more=True,
            emptiness="non_empty",
            may_say_none=False,
        )
    ],
    ["Harbor Tower"],
)
RECORDS = [
    {
        "kind": "lower_bound",
        "slot": "c1",
        "tool": "search_photos",
        "project_id": "prj-harbor-tower",
    },
    {
        "kind": "shown_subset",
        "slot": "c1",
        "tool": "search_photos",
        "project_id": "prj-harbor-tower",
    },
]


def narrated(text: str, locale: str = "en") -> Narration:
    return guarded(text, LOWER, STANDING, locale, records=RECORDS, projects=PROJECTS)


def pieces(narration: Narration) -> list[tuple[str, str, str]]:
    text = narration.text
    return [
        (s.slot, text[s.start : s.end], text[s.sentence_start : s.sentence_end])
        for s in narration.shown
    ]


def test_a_shown_slot_after_a_grown_count_slot_points_at_its_number() -> None:
    # "{{count:c1}}" (12 chars) renders as "at least 3,000" (14): the span moves with it.
    out = narrated(
        "  Harbor Tower has {{count:c1}} photos. Of those, {{shown:c1}} are on screen. Bye."
    )
    assert out.text.startswith("Harbor Tower has at least 3,000 photos.")
    assert pieces(out) == [("c1", "10", "Of those, 10 are on screen.")]


def test_a_dropped_sentence_before_the_shown_one_moves_its_span_back() -> None:
    # "I found 50." is a free-typed count: dropped, and the span still lands on "10".
    out = narrated("I found 50. The cards show {{shown:c1}} of them.")
    assert out.drops and out.text == "The cards show 10 of them."
    assert pieces(out) == [("c1", "10", "The cards show 10 of them.")]


def test_the_code_built_fallback_marks_its_shown_sentence() -> None:
    out = narrated("I found 50.", "de")
    assert out.fallback
    assert pieces(out) == [
        ("c1", "10", "Die ersten 10 stehen unten als Karten; weitere lassen sich nachladen.")
    ]


def test_japanese_offsets_count_characters_not_bytes() -> None:
    out = narrated(
        "Harbor Towerの写真は{{count:c1}}枚です。これら{{shown:c1}}枚を表示しています。", "ja"
    )
    assert pieces(out) == [("c1", "10", "これら10枚を表示しています。")]


def test_an_answer_without_a_shown_slot_marks_nothing() -> None:
    out = narrated("Harbor Tower has {{count:c1}} photos.")
    assert out.text == "Harbor Tower has at least 3,000 photos." and out.shown == ()


def test_a_second_shown_slot_in_one_sentence_moves_with_the_first() -> None:
    # "{{shown:c1}}" (12 chars) renders as "10" (2): the second lands ten places earlier.
    out = narrated("The cards show {{shown:c1}} photos; {{shown:c1}} cards are below.")
    assert out.text == "The cards show 10 photos; 10 cards are below."
    sentence = "The cards show 10 photos; 10 cards are below."
    assert pieces(out) == [("c1", "10", sentence), ("c1", "10", sentence)]
    assert [(s.start, s.end) for s in out.shown] == [(15, 17), (26, 28)]
