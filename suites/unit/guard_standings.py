"""The standings the narration guard's unit tests judge sentences against, and the
one-line ways they ask it (``rule``, ``token``); every count written out here.
"""

from __future__ import annotations

from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.judge import judge
from beacon.adjudication.guard.standing import (
    Standing,
    build_standing,
)
from beacon.wire.frames import Grade

BOUND = Counted(
    "c2", Grade.LOWER_BOUND, 173, 0, has_more=True, emptiness="non_empty", may_say_none=False
)
EXACT = Counted("c1", Grade.EXACT, 14, 0, has_more=False, emptiness="non_empty", may_say_none=False)
SAMPLE_OF_EXACT = Counted(
    "c3", Grade.EXACT, 14, 0, has_more=True, emptiness="non_empty", may_say_none=False
)
UNKNOWN = Counted(
    "c4", Grade.UNKNOWN, None, 0, has_more=False, emptiness="unknown", may_say_none=False
)
EMPTY = Counted("c5", Grade.LOWER_BOUND, 0, 0, has_more=False, emptiness="empty", may_say_none=True)
VALUES = [
    "Harbor Tower",
    "prj-harbor-tower",
    "ph-0042",
    "Level 3",
    "2024-03-12",
    "Hard hat missing at stair 2",
]
SEARCH = build_standing([BOUND], VALUES)
COMPLETE = build_standing([EXACT], VALUES)
LEGACY = build_standing([UNKNOWN], VALUES)
ZERO = build_standing([EMPTY], VALUES)


def rule(sentence: str, standing: Standing = SEARCH, locale: str = "en") -> str | None:
    drop = judge(sentence, standing, locale)
    return None if drop is None else drop.rule


def token(sentence: str, standing: Standing = SEARCH, locale: str = "en") -> str:
    drop = judge(sentence, standing, locale)
    assert drop is not None, sentence
    return drop.token


# --- the stream -------------------------------------------------------------------

SLOTS = {"c2": Counted("c2", Grade.LOWER_BOUND, 173, 10)}
