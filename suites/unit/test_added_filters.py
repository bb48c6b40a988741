"""A filter a call carried that the question never named makes its count another set's
(added.py): "how many open findings" counted for one inspector is not the answer."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from beacon.adjudication.added import added_filters
from beacon.adjudication.constraints import Scope, judge_scope, read_constraints

TODAY = date(2026, 12, 5)
PROJECTS = [{"id": "prj-maple-clinic", "name": "Maple Clinic"}]
OPEN_AT_MAPLE = read_constraints(
    "How many open findings are at Maple Clinic?", projects=PROJECTS, today=TODAY
)
MAPLE: dict[str, Any] = {"project_id": "prj-maple-clinic", "question": "open findings"}


@pytest.mark.parametrize(
    ("arguments", "phrases"),
    [
        ({"status": "open"}, []),  # what the question named
        ({"status": "open", "inspector": "Cedar School"}, ["inspector Cedar School"]),
        ({"status": "open", "level_number": 2}, ["level_number 2"]),
        (
            {"status": "open", "date_from": "2026-11-23", "date_to": "2026-11-29"},
            ["date_from 2026-11-23, date_to 2026-11-29"],
        ),
        ({"status": "open", "company": "", "category": None}, []),  # sent empty: no filter
    ],
)
def test_a_filter_on_an_axis_the_question_never_named_is_added(
    arguments: dict[str, Any], phrases: list[str]
) -> None:
    added = added_filters(OPEN_AT_MAPLE, "query_data", MAPLE | arguments, {})
    assert [c.phrase for c in added] == phrases


def test_another_value_on_a_named_axis_is_the_scope_judge_s_not_an_added_filter() -> None:
    sent = MAPLE | {"status": "closed"}
    assert added_filters(OPEN_AT_MAPLE, "query_data", sent, {}) == ()
    assert not judge_scope(OPEN_AT_MAPLE, "query_data", sent).whole


def test_what_the_host_shows_counts_as_named_and_a_project_or_query_is_never_judged() -> None:
    on_screen = MAPLE | {"status": "open", "level_number": 3}
    assert added_filters(OPEN_AT_MAPLE, "query_data", on_screen, {"level_number": 3}) == ()
    assert [c.phrase for c in added_filters(OPEN_AT_MAPLE, "query_data", on_screen, {})] == [
        "level_number 3"
    ]
    photos = read_constraints("Photos at Maple Clinic", projects=PROJECTS, today=TODAY)
    other_project = {"project_id": "prj-harbor-tower", "query": "hard hats"}
    assert added_filters(photos, "search_photos", other_project, {}) == ()
    assert added_filters(photos, "no_such_tool", {"inspector": "x"}, {}) == ()


def test_a_scope_with_an_added_filter_is_not_whole() -> None:
    (added,) = added_filters(OPEN_AT_MAPLE, "query_data", MAPLE | {"inspector": "Dana"}, {})
    assert Scope((), (), (added,)).whole is False and Scope((), ()).whole is True
