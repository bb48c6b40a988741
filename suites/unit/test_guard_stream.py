"""The guard over streamed text: a sentence is judged whole however it arrives."""

from __future__ import annotations

import itertools

from guard_standings import (
    SEARCH,
    SLOTS,
)
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication.guard.judge import GuardedStream


def test_the_stream_joins_every_sentence_that_passes() -> None:
    stream = GuardedStream(SLOTS, SEARCH, "de")
    out = stream.feed("Karten sind hier. Es gibt {{count:c2}} Fotos. Und")
    assert out == "Karten sind hier. Es gibt mindestens 173 Fotos. "


MIXED = (
    "I found 1" + "0 photos. Harbor Tower has {{count:c2}} photos. These {{shown:c2}} are shown."
)


def test_the_stream_drops_a_number_split_across_chunks_and_keeps_the_slot_sentences() -> None:
    stream = GuardedStream(SLOTS, SEARCH, "en")
    out = stream.feed("I found 1") + stream.feed("0 photos. Harbor Tower has {{cou")
    out += stream.feed("nt:c2}} photos. These {{shown:c2}} are shown.") + stream.flush()
    assert out == "Harbor Tower has at least 173 photos. These 10 are shown."
    assert [(d.rule, d.token) for d in stream.drops] == [("free_count", "10")]


def test_the_stream_still_renders_and_audits_slots() -> None:
    stream = GuardedStream(SLOTS, SEARCH, "en")
    out = stream.feed("The {{count:c7}} is here. ") + stream.feed("It is.") + stream.flush()
    assert out == "It is."
    assert [e.kind for e in stream.audit] == ["unknown_slot"]


@given(cuts=st.lists(st.integers(min_value=0, max_value=len(MIXED)), max_size=6))
def test_any_chunking_publishes_what_the_whole_text_publishes(cuts: list[int]) -> None:
    whole = GuardedStream(SLOTS, SEARCH, "en")
    expected = whole.feed(MIXED) + whole.flush()
    stream = GuardedStream(SLOTS, SEARCH, "en")
    bounds = [0, *sorted(cuts), len(MIXED)]
    out = "".join(stream.feed(MIXED[a:b]) for a, b in itertools.pairwise(bounds))
    assert out + stream.flush() == expected
    assert stream.drops == whole.drops
