"""Count slots render per grade; an UNKNOWN clause disappears whole."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication import AuditEntry, Grade, SlotStream, render_narration
from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.slots import format_number, render_slot

SLOTS = {
    "c1": Counted("c1", Grade.LOWER_BOUND, 3000, 10),
    "c2": Counted("c2", Grade.EXACT, 42, 0),
    "c3": Counted("c3", Grade.UNKNOWN, None, 0),
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


@pytest.mark.parametrize(
    ("locale", "exact", "bound", "shown"),
    [
        pytest.param("en", "exactly 42", "at least 3,000", "these 10", id="en"),
        pytest.param("de", "genau 42", "mindestens 3.000", "diese 10", id="de"),
        pytest.param("es", "exactamente 42", "al menos 3.000", "estos 10", id="es"),
        pytest.param("ko", "정확히 42", "최소 3,000", "이 10", id="ko"),
        pytest.param("ja", "ちょうど42", "少なくとも3,000", "これら10", id="ja"),
        pytest.param("xx", "exactly 42", "at least 3,000", "these 10", id="unknown-falls-to-en"),
    ],
)
def test_every_locale_has_its_structured_copy(
    locale: str, exact: str, bound: str, shown: str
) -> None:
    slots = {**SLOTS, "s": Counted("s", Grade.SHOWN, 10, 10)}
    assert render_slot("count", slots["c2"], locale) == exact
    assert render_slot("count", slots["c1"], locale) == bound
    assert render_slot("count", slots["s"], locale) == shown


def test_a_fractional_aggregate_keeps_two_decimals() -> None:
    text, _ = render_narration("Average {{count:a}}.", {"a": Counted("a", Grade.EXACT, 2.5, 0)})
    assert text == "Average exactly 2.50."


def test_numerals_that_match_no_graded_count_are_not_audited() -> None:
    _, audit = render_narration("Level 3 has 7 cranes.", SLOTS)
    assert audit == []


def test_a_population_and_a_subset_in_one_sentence_are_audited() -> None:
    _, audit = render_narration("Of {{count:c1}} matches {{shown:c1}} are here.", SLOTS)
    assert [a.kind for a in audit] == ["subject_shared"]


def test_audit_entries_name_their_slot_and_detail() -> None:
    _, dropped = render_narration("{{count:c3}} here.", SLOTS)
    assert dropped == [AuditEntry("dropped_unknown_clause", "c3", "UNKNOWN grade")]
    _, unknown = render_narration("{{shown:zz}} here.", SLOTS)
    assert unknown == [AuditEntry("unknown_slot", "zz", "slot names no graded count")]
    _, bypass = render_narration("We saw 3,000 panoramas.", SLOTS)
    assert bypass == [AuditEntry("bypassed_slot", "c1", "numeral 3,000")]
    _, shared = render_narration("{{count:c2}} and {{shown:c2}}.", SLOTS)
    assert shared == [AuditEntry("subject_shared", None, "population and subset in one sentence")]


def test_a_numeral_right_after_a_slot_is_still_audited() -> None:
    _, audit = render_narration("Found {{count:c1}}: 42 more.", SLOTS)
    assert [a.slot for a in audit] == ["c2"]


def test_a_shown_slot_renders_even_when_the_population_is_unknown() -> None:
    slots = {"s": Counted("s", Grade.SHOWN, None, 1200)}
    assert render_narration("These {{shown:s}} cards.", slots, "de")[0] == "These 1.200 cards."
    assert render_narration("All {{count:s}}.", slots)[0] == ""


@pytest.mark.parametrize(
    ("value", "locale", "shown"),
    [
        pytest.param(1234.5, "en", "1,234.50", id="en-decimal"),
        pytest.param(1234.5, "de", "1.234,50", id="de-decimal-marks-trade-places"),
        pytest.param(1234.0, "es", "1.234", id="whole-float-is-an-integer"),
        pytest.param(1234.5, "xx", "1,234.50", id="unknown-locale-groups-like-en"),
    ],
)
def test_numbers_are_formatted_per_locale(value: float, locale: str, shown: str) -> None:
    assert format_number(value, locale) == shown


def test_an_unknown_grade_is_never_a_bypass_even_with_a_value() -> None:
    assert render_narration("I saw 77 of them.", {"u": Counted("u", Grade.UNKNOWN, 77, 0)})[1] == []


def test_a_numeral_glued_to_a_slot_is_still_audited() -> None:
    _, audit = render_narration("{{count:c1}}42 of them.", SLOTS)
    assert [a.slot for a in audit] == ["c2"]


def test_the_stream_keeps_its_locale_and_empties_on_flush() -> None:
    stream = SlotStream(SLOTS, "de")
    assert stream.feed("A {{count:c1}}. ") == ""
    assert stream.feed("B") == "A mindestens 3.000. "
    assert stream.flush() == "B" and stream.flush() == ""


def test_a_boundary_at_the_end_of_the_buffer_waits_for_more_whitespace() -> None:
    stream = SlotStream(SLOTS)
    out = stream.feed("{{count:c3}}. ") + stream.feed("\n") + stream.flush()
    assert out == render_narration("{{count:c3}}. \n", SLOTS)[0] == ""


def test_a_count_of_another_set_is_never_rendered_in_the_models_sentence() -> None:
    # Exactly 102 of level 2, but the question asked about last week: not the answer.
    wider = Counted("c1", Grade.EXACT, 102, 10, unapplied=("last week", "inspector Dana"))
    text, audit = render_narration(
        "There are {{count:c1}} photos. Here are some of them.", {"c1": wider}
    )
    assert "102" not in text and text == "Here are some of them."
    assert [(e.kind, e.slot) for e in audit] == [("scope_unapplied", "c1")]
    # The audit names every filter the count left out, as the question put it.
    assert audit[0].detail == "counts another set than asked: last week; inspector Dana"
