"""A word that turns a phrase into another set's — a negation, an exclusion, a level's
comparison — or a range of levels makes the reader's constraint unread: no call can
be shown to carry it, so no count stands for it. Words that only look like one
("under review", "über Brandschutz", "keine offenen") leave the phrase read."""

from __future__ import annotations

import pytest
from constraint_questions import PROJECTS, TODAY

from beacon.adjudication.constraints import Constraint, read_constraints
from beacon.adjudication.qualified import qualified_phrase


@pytest.mark.parametrize(
    ("question", "axis", "phrase"),
    [
        ("How many findings in Harbor Tower are not open?", "status", "not open"),
        ("Open findings except electrical ones in Harbor Tower", "category", "except electrical"),
        ("Findings anyone but Dana Whitfield raised", "person", "but Dana Whitfield"),
        ("How many findings are above level 3?", "level", "above level 3"),
        ("How many findings are not on level 3?", "level", "not on level 3"),
        ("How many findings are on levels 2 to 4?", "level", "levels 2 to 4"),
        ("Befunde außer Dana Whitfield", "person", "außer Dana Whitfield"),
        ("hallazgos excepto los abiertos", "status", "excepto los abiertos"),
        ("3階以上の指摘", "level", "3階以上"),
        ("Dana Whitfield 제외 지적", "person", "Dana Whitfield 제외"),
        ("hallazgos que no son de seguridad", "kind", "no son de seguridad"),
        ("hallazgos no abiertos", "status", "no abiertos"),
        ("안전 외 지적 사항", "kind", "안전 외"),
        # The question's first word counts as much as any other.
        ("Not open findings in Harbor Tower: how many?", "status", "Not open"),
        ("Above level 3, how many findings are there?", "level", "Above level 3"),
    ],
)
def test_a_phrase_a_negation_exclusion_or_comparison_qualifies_is_read_as_unread(
    question: str, axis: str, phrase: str
) -> None:
    read = read_constraints(question, projects=PROJECTS, today=TODAY)
    assert Constraint(axis, "unread", phrase) in read
    assert all(c.value == "unread" for c in read if c.axis == axis)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Findings under review in Harbor Tower",
            {"project": "prj-harbor-tower", "status": "in_review"},
        ),
        ("Befunde über Brandschutz", {"category": "fire safety"}),  # über: about, no comparison
        ("How many open findings are on level 3?", {"status": "open", "level": "3"}),
        # Whether the open ones are none is a question about the open ones.
        ("Gibt es keine offenen Befunde auf Ebene 3?", {"status": "open", "level": "3"}),
        ("3층 외벽 지적", {"level": "3"}),  # 외벽: an outer wall, not "besides"
    ],
)
def test_a_word_that_turns_no_phrase_into_another_set_leaves_it_read(
    question: str, expected: dict[str, str]
) -> None:
    # Words no axis reads ("외벽", an outer wall) are the leftover reader's (leftover.py).
    read = read_constraints(question, projects=PROJECTS, today=TODAY)
    assert {c.axis: c.value for c in read if not c.leftover} == expected


def test_a_phrase_the_question_does_not_hold_is_qualified_by_nothing() -> None:
    assert qualified_phrase("status", "closed", "How many findings are not open?") is None
    assert qualified_phrase("status", "open", "How many findings are not open?") == "not open"
    assert qualified_phrase("project", "Harbor Tower", "all but Harbor Tower") is None
