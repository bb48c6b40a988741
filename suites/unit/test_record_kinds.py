"""A count is of the records its result names, not of the ones the question named: a
count of photos for "how many findings" is of another set (record_kinds.py)."""

from __future__ import annotations

from typing import Any

import pytest

from beacon.adjudication.constraints import (
    UNREAD,
    Constraint,
    Scope,
    asked_records,
    corrective_arguments,
)
from beacon.adjudication.record_kinds import counted_kinds, of_records

PROJECT = Constraint("project", "prj-harbor-tower", "Harbor Tower")
WHOLE = Scope((PROJECT,), ())
FINDINGS = Constraint("kind", "findings", "findings")


def queried(sql: object) -> dict[str, Any]:
    return {"structuredContent": {"sql": sql, "rows": []}}


@pytest.mark.parametrize(
    ("cited", "result", "kinds"),
    [
        (["photo", "photo"], {}, {"photos"}),
        (["annotation", "project"], {}, {"findings"}),  # a project is no counted record
        ([], queried("SELECT COUNT(*) AS count FROM photos WHERE project_id = ?"), {"photos"}),
        # A join reads both tables' records.
        (
            [],
            queried('select id from "annotations" a join photos p on p.id = a.photo'),
            {"findings", "photos"},
        ),
        ([], queried("SELECT name FROM levels"), set()),  # a table of no record kind
        ([], queried(None), set()),
        ([], {"structuredContent": "rows"}, set()),
        ([], {}, set()),  # an aggregate that reports no query: nothing is known
    ],
)
def test_the_records_a_count_is_of_are_read_from_its_result(
    cited: list[str], result: dict[str, Any], kinds: set[str]
) -> None:
    assert counted_kinds(cited, result) == kinds


def test_a_count_of_other_records_leaves_the_question_s_noun_unapplied_and_uncorrected() -> None:
    scope = of_records(WHOLE, FINDINGS, frozenset({"photos"}))
    assert scope.applied == (PROJECT,)
    assert [(c.axis, c.value, c.phrase) for c in scope.unapplied] == [("kind", UNREAD, "findings")]
    # No argument asks a tool for other records: nothing to ask the planner for.
    assert corrective_arguments(scope, "query_data") == {}


@pytest.mark.parametrize(
    ("asked", "kinds"),
    [
        (FINDINGS, frozenset({"findings"})),
        (FINDINGS, frozenset({"findings", "photos"})),  # a join of the asked records
        (FINDINGS, frozenset()),  # nothing known of the count's records
        (None, frozenset({"photos"})),  # the question named no records
    ],
)
def test_a_count_of_the_asked_records_or_of_unknown_ones_keeps_its_scope(
    asked: Constraint | None, kinds: frozenset[str]
) -> None:
    assert of_records(WHOLE, asked, kinds) is WHOLE


@pytest.mark.parametrize(
    ("question", "kind", "phrase"),
    [
        ("How many findings in Harbor Tower have photos?", "findings", "findings"),
        ("Wie viele Befunde gibt es in Harbor Tower?", "findings", "Befunde"),
        ("List all panoramas in Harbor Tower", "panoramas", "panoramas"),
        ("Harbor Tower 2층의 사진을 모두 보여 주세요", "photos", "사진"),
    ],
)
def test_the_records_a_question_counts_are_read_as_it_names_them(
    question: str, kind: str, phrase: str
) -> None:
    assert asked_records(question) == Constraint("kind", kind, phrase)


def test_a_question_naming_no_records_asks_for_none() -> None:
    assert asked_records("Where is Maple Clinic?") is None
