"""The guard judges an answer's complete sentences while it streams, and publishes
exactly what it would have judged at the end (issue 32: the guard sat between the
model's last token and the answer's publication).

Expectations come from the guard run the old way — the whole text judged after
its end — over the guard corpus's own hostile and legit sentences, in every
locale, streamed in arbitrary chunks.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_guard_corpus import _BUILT, HOSTILE, LEGIT

import beacon.loop.guarded_answer as guarded_answer
from beacon.loop.guarded_answer import (
    OPEN_CHARS,
    PREJUDGE_CHARS,
    SENTENCE_JOINER,
    SPECULATE_CHARS,
    Prejudged,
    guarded,
)

SENTENCES = [(s.locale, s.standing, s.text) for s in (*HOSTILE, *LEGIT)]
BY_TURN: dict[tuple[str, str], list[str]] = {}
for locale, standing, text in SENTENCES:
    BY_TURN.setdefault((locale, standing), []).append(text)
TURNS = sorted(k for k, texts in BY_TURN.items() if len(texts) >= 2)


def _streamed(text: str, cuts: list[int], prejudged: Prejudged) -> None:
    at = 0
    for cut in sorted({c % (len(text) + 1) for c in cuts}):
        prejudged.heard(text[at:cut])
        at = cut
    prejudged.heard(text[at:])


def _narration(text: str, turn: tuple[str, str], prejudged: Prejudged | None) -> Any:
    locale, name = turn
    standing = _BUILT[name]
    slots = {c.slot: c for c in standing.sources}
    return guarded(text, slots, standing, locale, records=[], projects={}, prejudged=prejudged)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), turn=st.sampled_from(TURNS))
def test_an_answer_judged_as_it_streams_is_published_as_if_judged_at_its_end(
    data: st.DataObject, turn: tuple[str, str]
) -> None:
    pool = BY_TURN[turn]
    picked = data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=4))
    text = SENTENCE_JOINER.get(turn[0], " ").join(picked)
    cuts = data.draw(st.lists(st.integers(0, 10_000), max_size=12))
    prejudged = Prejudged(_BUILT[turn[1]], turn[0])
    _streamed(text, cuts, prejudged)
    assert _narration(text, turn, prejudged) == _narration(text, turn, None)


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every sentence the guard's judge is asked about, in order."""
    asked: list[str] = []
    real = guarded_answer.judge

    def counting(sentence: str, *args: Any) -> Any:
        asked.append(sentence)
        return real(sentence, *args)

    monkeypatch.setattr(guarded_answer, "judge", counting)
    return asked


def test_a_complete_sentence_is_judged_before_the_stream_ends_and_not_again(
    judged: list[str],
) -> None:
    turn = ("en", sorted(_BUILT)[0])
    prejudged = Prejudged(_BUILT[turn[1]], "en")
    for chunk in ("These are the ", "photos on screen. ", "They are shown as ", "cards."):
        prejudged.heard(chunk)
    # The last sentence is judged as soon as the answer may end there ("cards.").
    assert judged == ["These are the photos on screen. ", "They are shown as cards."]
    _narration("These are the photos on screen. They are shown as cards.", turn, prejudged)
    assert judged == ["These are the photos on screen. ", "They are shown as cards."]


def test_an_open_sentence_is_judged_where_it_may_end_and_again_if_it_goes_on(
    judged: list[str],
) -> None:
    turn = ("en", sorted(_BUILT)[0])
    prejudged = Prejudged(_BUILT[turn[1]], "en")
    for chunk in ("The wall is on level 3.", "5 metres up"):
        prejudged.heard(chunk)
    assert judged == ["The wall is on level 3."]  # it could have ended there
    text = "The wall is on level 3.5 metres up"
    assert _narration(text, turn, prejudged) == _narration(text, turn, None)
    assert judged[1:3] == [text, text]  # judged at its end: by the guard, and by the old way


def test_sentences_that_might_end_at_every_chunk_cost_little_to_judge_early(
    judged: list[str],
) -> None:
    prejudged = Prejudged(_BUILT[sorted(_BUILT)[0]], "en")
    for _ in range(PREJUDGE_CHARS // 2):
        prejudged.heard("1.")  # may end a sentence every time; never a space
    # Judging the whole open text at every chunk would judge ~4 M characters.
    assert sum(map(len, judged)) <= SPECULATE_CHARS + OPEN_CHARS


def test_a_long_answer_is_judged_after_its_end_only() -> None:
    prejudged = Prejudged(_BUILT[sorted(_BUILT)[0]], "en")
    prejudged.heard("A photo is shown. " * (PREJUDGE_CHARS // 18 + 1))
    assert prejudged.verdicts == {}


def test_a_verdict_kept_for_one_standing_is_not_read_for_another() -> None:
    first, second = sorted(_BUILT)[:2]
    prejudged = Prejudged(_BUILT[first], "en")
    prejudged.heard("There are no photos. More follow.")
    prejudged.verdicts["There are no photos. "] = None  # a verdict no guard would make
    other = prejudged.judge("There are no photos. ", _BUILT[second], "en")
    assert other == guarded_answer.judge("There are no photos. ", _BUILT[second], "en")


@pytest.mark.parametrize("run", ["a ", "a", "。"])
def test_a_stream_that_never_ends_a_sentence_costs_little_to_judge_early(
    monkeypatch: pytest.MonkeyPatch, run: str
) -> None:
    scanned: list[int] = []
    real = guarded_answer.split_sentences

    def counting(text: str) -> list[str]:
        scanned.append(len(text))
        return real(text)

    monkeypatch.setattr(guarded_answer, "split_sentences", counting)
    prejudged = Prejudged(_BUILT[sorted(_BUILT)[0]], "ja" if run == "。" else "en")
    text = run * (PREJUDGE_CHARS // len(run))
    for char in text:  # one character a chunk: the worst a model can stream
        prejudged.heard(char)
    # Splitting the whole open text again on every chunk would scan ~134 M characters.
    assert sum(scanned) <= 3 * OPEN_CHARS * OPEN_CHARS


def test_warming_builds_the_protected_values_folded_forms_before_any_sentence() -> None:
    standing = _BUILT[sorted(_BUILT)[0]]
    fresh = type(standing)(standing.sources, standing.strings, standing.levels)
    Prejudged(fresh, "en").warm()
    assert "forms" in vars(fresh)  # the cached property was read: judging reads it made
