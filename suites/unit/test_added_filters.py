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


def test_what_the_host_shows_counts_as_named_and_a_project_is_never_judged() -> None:
    on_screen = MAPLE | {"status": "open", "level_number": 3}
    assert added_filters(OPEN_AT_MAPLE, "query_data", on_screen, {"level_number": 3}) == ()
    assert [c.phrase for c in added_filters(OPEN_AT_MAPLE, "query_data", on_screen, {})] == [
        "level_number 3"
    ]
    subject = read_constraints(
        "Photos of hard hats at Maple Clinic", projects=PROJECTS, today=TODAY
    )
    other_project = {"project_id": "prj-harbor-tower", "query": "hard hats"}
    assert added_filters(subject, "search_photos", other_project, {}) == ()
    assert added_filters(subject, "no_such_tool", {"inspector": "x"}, {}) == ()


@pytest.mark.parametrize(
    ("question", "tool", "query"),
    [
        ("Show me the documents for Maple Clinic.", "search_documents", "document"),
        ("How many specs does Maple Clinic have?", "search_documents", "spec"),
        ("Photos at Maple Clinic", "search_photos", "Maple Clinic"),
    ],
)
def test_a_search_query_where_the_question_named_no_subject_narrows_the_count(
    question: str, tool: str, query: str
) -> None:
    # A search counts what matches its query: zero documents matching "document" is no
    # standing for "the project has no documents".
    constraints = read_constraints(question, projects=PROJECTS, today=TODAY)
    sent = {"project_id": "prj-maple-clinic", "query": query}
    assert [c.phrase for c in added_filters(constraints, tool, sent, {})] == [f"query {query}"]


def test_a_scope_with_an_added_filter_is_not_whole() -> None:
    (added,) = added_filters(OPEN_AT_MAPLE, "query_data", MAPLE | {"inspector": "Dana"}, {})
    # On its axis (the audit row's rule), its value the arguments as sent.
    assert (added.axis, added.value) == ("person", "inspector Dana")
    assert Scope((), (), (added,)).whole is False and Scope((), ()).whole is True
