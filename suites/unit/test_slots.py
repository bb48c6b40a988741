"""Count slots render per grade; an UNKNOWN clause disappears whole."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication import Grade, SlotStream, SlotValue, render_narration

SLOTS = {
    "c1": SlotValue(Grade.LOWER_BOUND, 3000, 10),
    "c2": SlotValue(Grade.EXACT, 42, 0),
    "c3": SlotValue(Grade.UNKNOWN, None, 0),
}


def test_each_grade_renders_its_permitted_phrase() -> None:
    text, _ = render_narration("A {{count:c1}}. B {{count:c2}}. C {{shown:c1}}.", SLOTS)
    assert text == "A at least 3,000. B exactly 42. C 10."


def test_a_sentence_with_an_unknown_slot_is_dropped_and_audited() -> None:
    text, audit = render_narration("There are {{count:c3}} photos. Here they are.", SLOTS)
    assert text == "Here they are."
    assert [a.kind for a in audit] == ["dropped_unknown_clause"]


def test_a_slot_naming_no_graded_count_is_dropped() -> None:
    text, audit = render_narration("See {{count:zz}} things. Fine.", SLOTS)
    assert text == "Fine." and audit[0].kind == "unknown_slot"


def test_a_numeral_that_bypasses_its_slot_is_audited() -> None:
    _, audit = render_narration("I found 42 findings.", SLOTS)
    assert [(a.kind, a.slot) for a in audit] == [("bypassed_slot", "c2")]


def test_numbers_use_the_locale_grouping() -> None:
    text, _ = render_narration("{{count:c1}}", SLOTS, "de")
    assert text == "mindestens 3.000"


@given(
    st.lists(
        st.sampled_from(
            [
                "Harbor ",
                "{{count:c1}}",
                "{{count:c2}}",
                "{{count:c3}}",
                "{{shown:c1}}",
                ". ",
                "! ",
                "\n",
                "words ",
                "{{",
                "}}",
            ]
        ),
        max_size=30,
    ),
    st.integers(min_value=1, max_value=7),
)
def test_streaming_in_any_chunking_equals_rendering_the_whole(parts: list[str], size: int) -> None:
    text = "".join(parts)
    stream = SlotStream(SLOTS)
    out = "".join(stream.feed(text[i : i + size]) for i in range(0, len(text), size))
    out += stream.flush()
    assert out == render_narration(text, SLOTS)[0]


def test_an_unknown_source_has_no_shown_number_either() -> None:
    text, audit = render_narration("These {{shown:c3}} are cards. Done.", SLOTS)
    assert text == "Done." and audit[0].kind == "dropped_unknown_clause"
