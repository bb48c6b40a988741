"""A turn's standing: the non-count values it protects, in every locale's dress, and
the exact counts it lets a sentence state.
"""

from __future__ import annotations

from guard_standings import (
    BOUND,
    EXACT,
    SAMPLE_OF_EXACT,
    rule,
)

from beacon.adjudication.guard.counted import Counted
from beacon.adjudication.guard.standing import (
    Standing,
    build_standing,
    date_forms,
    level_forms,
    strings_in,
)
from beacon.wire.frames import Grade

# --- standing ---------------------------------------------------------------------


def test_levels_and_dates_are_protected_in_every_locale_form() -> None:
    assert {"Level 3", "3층", "3階", "Ebene 3", "Nivel 3"} <= set(level_forms(3))
    forms = date_forms(2024, 3, 12)
    assert {"2024-03-12", "March 12, 2024", "12. März 2024", "12 de marzo de 2024"} <= set(forms)
    assert {"Mar 12, 2024", "12 March 2024", "3/12/2024", "12/3/2024"} <= set(forms)
    assert {"2024년 3월 12일", "2024年3月12日", "12.03.2024"} <= set(forms)


def test_a_level_named_in_an_argument_string_or_a_structured_field_is_protected() -> None:
    standing = build_standing([BOUND], ["open safety findings on level 7"], levels=[9])
    assert rule("They are on Level 7.", standing) is None
    assert rule("They are on 9층.", standing, "ko") is None
    assert rule("They are on Level 8.", standing) == "free_count"


def test_every_string_inside_a_json_value_is_found() -> None:
    value = {"a": "x", "b": [1, "y", {"c": ("z",)}], "d": None}
    assert list(strings_in(value)) == ["x", "y", "z"]


def test_only_non_empty_strings_are_kept() -> None:
    assert build_standing([], ["a", "", "a", "b"]).strings == ("a", "b")


def test_an_impossible_date_gets_no_forms() -> None:
    standing = build_standing([BOUND], ["2024-13-40"])
    assert standing.values == ("2024-13-40",)


def test_an_empty_standing_has_no_pattern_and_is_neither_strict_nor_complete() -> None:
    empty = Standing()
    assert empty.pattern_for("Level 3") is None and not empty.strict and not empty.complete
    assert empty.exact_values == frozenset()


def test_exact_values_are_whole_numbers_of_complete_sources() -> None:
    averaged = Counted(
        "c6", Grade.EXACT, 2.5, 0, has_more=False, emptiness="non_empty", may_say_none=False
    )
    assert build_standing([EXACT, averaged, SAMPLE_OF_EXACT]).exact_values == frozenset({14})


def test_a_bare_number_value_with_no_digit_protects_nothing() -> None:
    assert build_standing([BOUND], [" . ", "10"]).values == (
        "#10",
        "ID 10",
        "No. 10",
        "Nr. 10",
        "№10",
    )


# --- a count of another set than asked ----------------------------------------------

OF_ANOTHER_SET = Counted("c1", Grade.EXACT, 90, 0, emptiness="non_empty", unapplied=("overdue",))
ZERO_OF_ANOTHER_SET = Counted(
    "c1", Grade.EXACT, 0, 0, emptiness="empty", may_say_none=True, unapplied=("closed last week",)
)


def test_a_count_that_left_out_a_constraint_lends_no_sentence_its_number() -> None:
    # The same exact, complete 90 lets a sentence state it while it is of the asked set.
    asked = build_standing([Counted("c1", Grade.EXACT, 90, 0, emptiness="non_empty")])
    assert rule("Maple Clinic has 90 findings.", asked) is None
    other = build_standing([OF_ANOTHER_SET])
    assert rule("Maple Clinic has 90 overdue findings.", other) == "free_count"
    assert rule("Ninety findings at Maple Clinic are overdue.", other) == "free_count"
    assert not other.complete and not other.whole_population
    assert other.exact_values == frozenset()


def test_an_empty_result_of_another_set_grounds_no_absence() -> None:
    assert rule("No findings were closed last week.", build_standing([ZERO_OF_ANOTHER_SET])) == (
        "absence_claim"
    )
    grounded = Counted("c1", Grade.EXACT, 0, 0, emptiness="empty", may_say_none=True)
    assert rule("No findings were closed last week.", build_standing([grounded])) is None
    assert rule("The project has no such data.", build_standing([ZERO_OF_ANOTHER_SET])) == (
        "absence_claim"
    )
