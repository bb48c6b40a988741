"""Narrowing: dispatch owns the scope; a complete narrowed page is exact."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication import (
    Basis,
    CountVerdict,
    Grade,
    PageShape,
    apply_scope,
    grade_view_list,
    promote_complete,
    wants_aggregate,
)
from beacon.adjudication.narrowing import offerable_axes

keys = st.sampled_from(["project_id", "level", "status", "query", "limit", "company"])
values = st.one_of(st.integers(), st.text(max_size=5), st.none())


@given(st.dictionaries(keys, values), st.dictionaries(keys, values))
def test_the_scope_is_spread_last_so_the_model_cannot_widen_it(
    model: dict[str, Any], scope: dict[str, Any]
) -> None:
    merged = apply_scope(model, scope)
    assert all(merged[k] == v for k, v in scope.items())
    assert all(merged[k] == v for k, v in model.items() if k not in scope)


def test_counter_questions_offer_only_axes_the_tool_accepts() -> None:
    wished = ("company", "level", "colour", "date_range")
    assert offerable_axes("search_photos", wished) == ("level",)
    assert offerable_axes("query_data", wished) == ("company", "level", "date_range")
    assert offerable_axes("get_capture", wished) == ()


@pytest.mark.parametrize(
    ("question", "aggregate"),
    [
        pytest.param("How many open findings on level 3?", True, id="how-many"),
        pytest.param("what is the number of panoramas", True, id="number-of"),
        pytest.param("Give me the total number of RFIs", True, id="total-number"),
        pytest.param("how much rebar was flagged", True, id="how-much"),
        pytest.param("List all panoramas", False, id="listing"),
        pytest.param("Photos of hard hats", False, id="photos"),
        pytest.param("Which companies have open findings?", False, id="set-question"),
    ],
)
def test_how_many_is_answered_by_an_aggregate(question: str, aggregate: bool) -> None:
    assert wants_aggregate(question) is aggregate


def verdict(grade: Grade, value: int | None, has_more: bool = False) -> CountVerdict:
    return CountVerdict(grade, value, has_more, 0, "test", Basis.TOTAL)


@pytest.mark.parametrize(
    ("before", "shape", "grade", "value"),
    [
        pytest.param(
            verdict(Grade.SHOWN, 7),
            PageShape(True, 1, False, 7),
            Grade.EXACT,
            7,
            id="narrowed-one-page-nothing-beyond-promotes",
        ),
        pytest.param(
            verdict(Grade.LOWER_BOUND, 7),
            PageShape(True, 1, False, 7),
            Grade.EXACT,
            7,
            id="bound-equal-to-the-page-promotes",
        ),
        pytest.param(
            verdict(Grade.SHOWN, 5),
            PageShape(True, 1, False, 7),
            Grade.EXACT,
            7,
            id="the-promoted-value-is-what-the-page-returned",
        ),
        pytest.param(
            verdict(Grade.LOWER_BOUND, 40),
            PageShape(True, 1, False, 7),
            Grade.LOWER_BOUND,
            40,
            id="a-floor-above-the-page-blocks",
        ),
        pytest.param(
            verdict(Grade.SHOWN, 7),
            PageShape(False, 1, False, 7),
            Grade.SHOWN,
            7,
            id="not-narrowed-stays",
        ),
        pytest.param(
            verdict(Grade.SHOWN, 7),
            PageShape(True, 2, False, 7),
            Grade.SHOWN,
            7,
            id="two-pages-stay",
        ),
        pytest.param(
            verdict(Grade.SHOWN, 7),
            PageShape(True, 1, True, 7),
            Grade.SHOWN,
            7,
            id="upstream-has-more-stays",
        ),
        pytest.param(
            verdict(Grade.SHOWN, 7, has_more=True),
            PageShape(True, 1, False, 7),
            Grade.SHOWN,
            7,
            id="saturation-override-stays",
        ),
        pytest.param(
            verdict(Grade.UNKNOWN, None),
            PageShape(True, 1, False, 7),
            Grade.UNKNOWN,
            None,
            id="unknown-never-promotes",
        ),
        pytest.param(
            verdict(Grade.EXACT, 9),
            PageShape(True, 1, False, 7),
            Grade.EXACT,
            9,
            id="exact-stays-as-it-was",
        ),
    ],
)
def test_promotion_needs_one_narrowed_page_with_nothing_beyond(
    before: CountVerdict, shape: PageShape, grade: Grade, value: int | None
) -> None:
    after = promote_complete(before, shape)
    assert (after.grade, after.value) == (grade, value)
    if after is not before:
        assert after.basis is Basis.NARROWED_PAGE
        assert after.reason == "narrowed scope returned one page with nothing beyond it"
        assert (after.has_more, after.returned) == (before.has_more, before.returned)


def test_a_host_list_is_shown_and_disclosed_at_its_cap() -> None:
    below, at_cap = grade_view_list(12, 50), grade_view_list(50, 50)
    assert below.verdict.grade is Grade.SHOWN and not below.disclose_truncation
    assert at_cap.verdict.grade is Grade.SHOWN and at_cap.disclose_truncation
    assert at_cap.verdict == CountVerdict(
        Grade.SHOWN, 50, True, 50, "host-sent subset", Basis.HOST_LIST
    )
