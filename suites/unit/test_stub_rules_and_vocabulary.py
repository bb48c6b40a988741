"""Small stub rooms read directly: how ``beacon-rules`` takes a correction and a follow-up
(``rules_corrections``, ``rules_follow_up``), the photo vocabulary (``photo_text``) and
the thumbnails the dev routes draw (``dev_routes``)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from stub_server.dev_routes import thumbnail_svg
from stub_server.photo_text import CONCEPTS, PPE_TOPIC, TOPICS, describe
from stub_server.rules_corrections import asked_calls, correction_reply_calls
from stub_server.rules_follow_up import OF_THEM, follow_up

DIRECTORY: list[Any] = [{"id": "prj-harbor-tower", "name": "Harbor Tower"}]
COUNT = "How many open safety findings are on level 3 of Harbor Tower?"
CALL = {"tool": "list_annotations", "arguments": {"project_id": "prj-harbor-tower", "level": 3}}


def _asked(*after: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"role": "user", "content": COUNT}, *after]


def test_a_correction_after_the_question_is_obeyed_once_as_openai_tool_calls() -> None:
    correction = {"role": "system", "content": "Call again: " + json.dumps({"calls": [CALL]})}
    assert asked_calls(_asked(correction), 0) == [CALL]
    (reply,) = correction_reply_calls(_asked(correction), 0)
    assert reply["function"] == {
        "name": "list_annotations",
        "arguments": json.dumps(CALL["arguments"]),
    }
    obeyed = {"role": "assistant", "tool_calls": [reply]}
    assert asked_calls(_asked(correction, obeyed), 0) == []
    assert asked_calls(_asked({"role": "system", "content": "no correction"}), 0) == []


def test_a_follow_up_is_read_against_the_question_before_it() -> None:
    earlier = [{"role": "user", "content": COUNT}]
    moved, words = follow_up(earlier, "And on level 4?", DIRECTORY)
    assert (moved.level, moved.count, moved.project) == (4, True, DIRECTORY[0])
    assert "safety" in words and "level 4" in words
    narrowed, _ = follow_up(earlier, "How many of them are quality findings?", DIRECTORY)
    assert (narrowed.level, narrowed.kind) == (3, "quality")
    first, asked = follow_up([], COUNT, DIRECTORY)
    assert asked == COUNT and first.level == 3
    assert OF_THEM.search("Wie viele davon zeigen Gerüste?")


def test_only_the_ppe_topic_ever_says_hard_hat_or_missing_words() -> None:
    words = (*CONCEPTS["hard hat"], *CONCEPTS["missing"])
    said = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
    for topic in TOPICS:
        for seed in range(40):
            title, text = describe(random.Random(seed), topic, "Harbor Tower", "Level 3")
            assert not said.search(f"{title} {text}"), (topic, seed)
    title, text = describe(random.Random(1), PPE_TOPIC, "Harbor Tower", "Level 3")
    assert title.startswith("Level 3: ") and "Harbor Tower" in text and 300 <= len(text) <= 600


def test_a_thumbnail_is_drawn_from_its_id_alone() -> None:
    first = thumbnail_svg("ph-000223")
    assert first == thumbnail_svg("ph-000223") != thumbnail_svg("ph-000224")
    assert first.startswith("<svg") and "<title>ph-000223</title>" in first
