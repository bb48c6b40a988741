"""The scope judge: which of a question's constraints a call's arguments really carried,
and the correction that names what was left out.
"""

from __future__ import annotations

import pytest
from constraint_questions import PROJECTS, TODAY

from beacon.adjudication.constraints import (
    Constraint,
    corrective_arguments,
    judge_scope,
    missing_sides,
    read_constraints,
)

QUESTION = "How many open findings did Dana Whitfield raise on level 2 of Maple Clinic last week?"


def scope_of(
    arguments: dict[str, object], tool: str = "list_annotations"
) -> tuple[set[str], set[str]]:
    constraints = read_constraints(QUESTION, projects=PROJECTS, today=TODAY)
    scope = judge_scope(constraints, tool, arguments)
    return {c.axis for c in scope.applied}, {c.axis for c in scope.unapplied}


FULL = {
    "project_id": "prj-maple-clinic",
    "status": "open",
    "inspector": "dana whitfield",
    "level_number": 2,
    "date_from": "2026-11-23",
    "date_to": "2026-11-29",
}


def test_a_call_carrying_every_constraint_applied_them_all() -> None:
    assert scope_of(FULL) == ({"project", "status", "person", "level", "date"}, set())


@pytest.mark.parametrize(
    ("dropped", "axis"),
    [
        ("project_id", "project"),
        ("status", "status"),
        ("inspector", "person"),
        ("level_number", "level"),
        ("date_from", "date"),
    ],
)
def test_each_argument_left_out_leaves_its_constraint_unapplied(dropped: str, axis: str) -> None:
    arguments = {k: v for k, v in FULL.items() if k != dropped}
    applied, unapplied = scope_of(arguments)
    assert unapplied == {axis} and axis not in applied


@pytest.mark.parametrize(
    ("changed", "value"),
    [
        ("date_to", "2026-11-30"),  # another window is another set
        ("level_number", 3),
        ("status", "closed"),
        ("inspector", "Marco Ruiz"),
        ("project_id", "prj-harbor-tower"),
    ],
)
def test_a_constraint_applied_with_another_value_is_unapplied(changed: str, value: object) -> None:
    _, unapplied = scope_of({**FULL, changed: value})
    assert len(unapplied) == 1


def test_a_hyphen_or_underscore_does_not_unapply_a_status() -> None:
    constraints = (Constraint("status", "in_review", "in-review"),)
    assert judge_scope(constraints, "list_annotations", {"status": "in_review"}).whole
    assert not judge_scope(constraints, "list_annotations", {"status": "open"}).whole


def test_a_tool_that_cannot_take_an_axis_never_applied_it_and_is_not_asked_to() -> None:
    # search_photos has no status argument: even a stray one is not an application.
    _, unapplied = scope_of({**FULL, "query": "photos"}, tool="search_photos")
    assert {"status", "person"} <= unapplied
    constraints = read_constraints(QUESTION, projects=PROJECTS, today=TODAY)
    scope = judge_scope(constraints, "search_photos", {"project_id": "prj-maple-clinic"})
    assert corrective_arguments(scope, "search_photos") == {
        "level_number": 2,
        "date_from": "2026-11-23",
        "date_to": "2026-11-29",
    }


def test_the_correction_names_exactly_the_arguments_that_apply_what_was_left_out() -> None:
    constraints = read_constraints(QUESTION, projects=PROJECTS, today=TODAY)
    scope = judge_scope(constraints, "query_data", {"project_id": "prj-maple-clinic"})
    assert corrective_arguments(scope, "query_data") == {
        "status": "open",
        "inspector": "Dana Whitfield",
        "level_number": 2,
        "date_from": "2026-11-23",
        "date_to": "2026-11-29",
    }


def test_a_topic_is_applied_only_by_a_search_query_holding_it() -> None:
    constraints = (Constraint("topic", "guardrail", "guardrails"),)
    assert judge_scope(constraints, "search_photos", {"query": "Guardrails level 7"}).whole
    assert not judge_scope(constraints, "search_photos", {"query": "photos"}).whole
    assert not judge_scope(constraints, "search_photos", {}).whole
    assert not judge_scope(constraints, "query_data", {"question": "guardrails"}).whole


def test_alternatives_on_one_axis_are_applied_by_either_side() -> None:
    constraints = read_constraints(
        "level 3 vs level 4 of Harbor Tower", projects=PROJECTS, today=TODAY
    )
    scope = judge_scope(
        constraints, "list_annotations", {"project_id": "prj-harbor-tower", "level_number": 4}
    )
    assert scope.whole and [c.value for c in scope.applied if c.axis == "level"] == ["4"]


def test_a_time_of_day_is_applied_only_by_a_tool_that_takes_hours() -> None:
    (constraint,) = read_constraints("panoramas in the morning", projects=[], today=TODAY)
    assert (constraint.axis, constraint.hours) == ("date", ("06:00", "11:59"))
    hours = {"time_from": "06:00", "time_to": "11:59"}
    # The photo search takes no hours: it cannot apply a time of day, nor be asked to.
    searched = judge_scope((constraint,), "search_photos", hours)
    assert not searched.whole and corrective_arguments(searched, "search_photos") == {}
    assert judge_scope((constraint,), "query_data", hours).whole
    assert not judge_scope((constraint,), "query_data", {**hours, "time_to": "12:00"}).whole
    asked = judge_scope((constraint,), "query_data", {})
    assert corrective_arguments(asked, "query_data") == hours


def test_a_photo_or_a_finding_has_no_time_of_day_to_apply() -> None:
    for question in ("photos in the morning", "findings raised in the afternoon"):
        (constraint,) = read_constraints(question, projects=[], today=TODAY)
        assert (constraint.value, constraint.hours) == ("time_of_day", None)
        scope = judge_scope((constraint,), "query_data", {"time_from": "06:00"})
        assert not scope.whole and corrective_arguments(scope, "query_data") == {}


def test_a_time_with_no_hours_is_read_but_never_applied() -> None:
    (constraint,) = read_constraints("panoramas before 12 am", projects=[], today=TODAY)
    assert constraint.hours is None and constraint.value == "time_of_day"
    assert not judge_scope((constraint,), "query_data", {}).whole


def test_an_unknown_tool_applies_nothing_and_is_asked_for_nothing() -> None:
    constraints = read_constraints(QUESTION, projects=PROJECTS, today=TODAY)
    scope = judge_scope(constraints, "no_such_tool", FULL)
    assert scope.applied == () and corrective_arguments(scope, "no_such_tool") == {}


def test_the_correction_sets_a_project_and_a_search_topic() -> None:
    constraints = read_constraints(
        "photos of scaffolding at Harbor Tower in the morning", projects=PROJECTS, today=TODAY
    )
    scope = judge_scope(constraints, "search_photos", {"query": "photos"})
    # A time of day has no window a tool could take: it stays disclosed, never asked for.
    assert corrective_arguments(scope, "search_photos") == {
        "project_id": "prj-harbor-tower",
        "query": "scaffolding",
    }


def test_the_side_of_a_comparison_no_call_counted_is_missing() -> None:
    constraints = read_constraints(
        "level 3 vs level 4 of Harbor Tower", projects=PROJECTS, today=TODAY
    )
    three = judge_scope(constraints, "list_annotations", {"level_number": 3})
    four = judge_scope(constraints, "list_annotations", {"level_number": 4})
    assert [c.value for c in missing_sides(constraints, [three])] == ["4"]
    assert missing_sides(constraints, [three, four]) == ()
    # With no side counted there is no comparison to complete: the count is disclosed instead.
    assert missing_sides(constraints, [judge_scope(constraints, "list_annotations", {})]) == ()


def test_the_wire_scope_names_values_applied_and_phrases_unapplied() -> None:
    constraints = read_constraints(QUESTION, projects=PROJECTS, today=TODAY)
    wire = judge_scope(constraints, "list_annotations", {"project_id": "prj-maple-clinic"}).wire()
    assert wire["applied"] == [{"axis": "project", "value": "prj-maple-clinic"}]
    assert {"axis": "date", "phrase": "last week"} in wire["unapplied"]


def test_the_correction_does_not_choose_a_side_of_a_comparison_for_the_planner() -> None:
    constraints = read_constraints(
        "level 3 vs level 4 of Harbor Tower", projects=PROJECTS, today=TODAY
    )
    scope = judge_scope(constraints, "list_annotations", {"project_id": "prj-harbor-tower"})
    assert corrective_arguments(scope, "list_annotations") == {}


def test_a_field_read_of_the_named_record_applies_its_axis() -> None:
    constraints = read_constraints("Where is Maple Clinic?", projects=PROJECTS, today=TODAY)
    scope = judge_scope(constraints, "list_projects", {})
    assert [c.axis for c in scope.unapplied] == ["project"]
    read_row = scope.applying("project")
    assert read_row.whole and [c.value for c in read_row.applied] == ["prj-maple-clinic"]


def test_a_date_no_window_stands_for_is_never_applied_whatever_window_a_call_sends() -> None:
    question = "How many open findings were raised at Maple Clinic after March 3, 2026?"
    constraints = read_constraints(question, projects=PROJECTS, today=TODAY)
    assert Constraint("date", "unread", "after March 3, 2026") in constraints
    for dates in ({}, {"date_from": "2026-03-04", "date_to": "2026-12-01"}):
        arguments = {"project_id": "prj-maple-clinic", "status": "open", **dates}
        scope = judge_scope(constraints, "list_annotations", arguments)
        assert [c.phrase for c in scope.unapplied] == ["after March 3, 2026"]
        assert {c.axis for c in scope.applied} == {"project", "status"}
        # Nothing a correction could send carries it: the count stays disclosed.
        assert corrective_arguments(scope, "list_annotations") == {}


def test_an_unread_date_beside_a_read_one_is_left_out_even_when_that_one_is_applied() -> None:
    question = "How many findings were raised at Maple Clinic last week or before March 2026?"
    constraints = read_constraints(question, projects=PROJECTS, today=TODAY)
    arguments = {
        "project_id": "prj-maple-clinic",
        "date_from": "2026-11-23",
        "date_to": "2026-11-29",
    }
    scope = judge_scope(constraints, "list_annotations", arguments)
    assert [c.phrase for c in scope.unapplied] == ["before March 2026"]
    assert [c.phrase for c in scope.applied if c.axis == "date"] == ["last week"]


def test_a_qualified_level_is_never_corrected_into_the_level_it_names() -> None:
    question = "How many findings are above level 3 of Maple Clinic?"
    constraints = read_constraints(question, projects=PROJECTS, today=TODAY)
    scope = judge_scope(constraints, "list_annotations", {"project_id": "prj-maple-clinic"})
    assert [c.phrase for c in scope.unapplied] == ["above level 3"]
    # Asking again for level 3 would count the very set the question leaves out.
    assert corrective_arguments(scope, "list_annotations") == {}
