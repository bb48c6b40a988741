"""A chat's follow-up asks about the earlier question's set, moved or narrowed: what it
carries is judged like what it names, so a planner dropping "level 4" from "How many
of them are safety findings?" has its count disclosed, not stated.

Every expected set here is written by hand from the questions, not read from the code.
"""

from __future__ import annotations

from datetime import date

import pytest

from beacon.adjudication.added import added_filters
from beacon.adjudication.constraints import UNREAD, judge_scope, read_constraints
from beacon.adjudication.conversation import asked_set, follows_up, on_view
from beacon.adjudication.leftover import known_word
from beacon.lexicon.follow_up import CONTINUING

PROJECTS = (
    {"id": "prj-harbor-tower", "name": "Harbor Tower"},
    {"id": "prj-maple-clinic", "name": "Maple Clinic"},
    {"id": "prj-cedar-school", "name": "Cedar School"},
)
TODAY = date(2026, 12, 5)
HARBOR, MAPLE, CEDAR = "prj-harbor-tower", "prj-maple-clinic", "prj-cedar-school"


def values(earlier: list[str], question: str) -> set[tuple[str, str]]:
    asked = asked_set(earlier, question, projects=PROJECTS, today=TODAY)
    return {(c.axis, c.value) for c in asked.constraints}


@pytest.mark.parametrize(
    ("earlier", "question", "expected"),
    [
        (
            "How many open findings are on level 3 of Harbor Tower?",
            "And on level 4?",
            {("project", HARBOR), ("status", "open"), ("level", "4")},
        ),
        (
            "How many open findings are on level 3 of Harbor Tower?",
            "How many of them are safety findings?",
            {("project", HARBOR), ("status", "open"), ("level", "3"), ("kind", "safety")},
        ),
        (
            "How many findings does inspector Dana Whitfield have at Maple Clinic?",
            "How many of them are open?",
            {("project", MAPLE), ("person", "Dana Whitfield"), ("status", "open")},
        ),
        (
            "How many open findings are on level 3 of Harbor Tower?",
            "What about Cedar School?",
            {("project", CEDAR), ("status", "open"), ("level", "3")},
        ),
        (
            "Photos of missing hard hats in Harbor Tower",
            "Level 3",
            {("project", HARBOR), ("topic", "missing hard hats"), ("level", "3")},
        ),
        (
            # Read with the records it carries, a time of day is a capture's hours.
            "List all panoramas in Harbor Tower",
            "How many were captured in the morning?",
            {("project", HARBOR), ("date", "06:00-11:59")},
        ),
        (
            "How many open findings are in Harbor Tower?",
            "How many were raised last week?",
            {("project", HARBOR), ("status", "open"), ("date", "2026-11-23..2026-11-29")},
        ),
        (
            "Wie viele offene Befunde gibt es auf Ebene 3 von Harbor Tower?",
            "Wie viele davon sind Sicherheitsbefunde?",
            {("project", HARBOR), ("status", "open"), ("level", "3"), ("kind", "safety")},
        ),
        (
            "Wie viele offene Befunde gibt es auf Ebene 3 von Harbor Tower?",
            "Und auf Ebene 4?",
            {("project", HARBOR), ("status", "open"), ("level", "4")},
        ),
        (
            "¿Cuántos hallazgos abiertos hay en el nivel 3 de Harbor Tower?",
            "¿Y en el nivel 4?",
            {("project", HARBOR), ("status", "open"), ("level", "4")},
        ),
        (
            "Harbor Tower의 3층 미해결 지적 사항은 몇 건인가요?",
            "그중 안전 지적은 몇 건인가요?",
            {("project", HARBOR), ("status", "open"), ("level", "3"), ("kind", "safety")},
        ),
        (
            "Harbor Tower의 3층 미해결 지적 사항은 몇 건인가요?",
            "4층은요?",
            {("project", HARBOR), ("status", "open"), ("level", "4")},
        ),
        (
            "Harbor Towerの3階の未解決の指摘は何件ですか？",
            "そのうち安全の指摘は何件ですか？",
            {("project", HARBOR), ("status", "open"), ("level", "3"), ("kind", "safety")},
        ),
        (
            "Harbor Towerの3階の未解決の指摘は何件ですか？",
            "では4階は？",
            {("project", HARBOR), ("status", "open"), ("level", "4")},
        ),
    ],
)
def test_a_follow_up_keeps_the_earlier_set_and_replaces_only_what_it_names(
    earlier: str, question: str, expected: set[tuple[str, str]]
) -> None:
    assert values([earlier], question) == expected


def test_a_chain_of_follow_ups_is_read_one_question_after_another() -> None:
    earlier = ["How many open findings are on level 3 of Harbor Tower?", "And on level 4?"]
    asked = asked_set(
        earlier, "How many of them are safety findings?", projects=PROJECTS, today=TODAY
    )
    assert {(c.axis, c.value) for c in asked.constraints} == {
        ("project", HARBOR),
        ("status", "open"),
        ("level", "4"),
        ("kind", "safety"),
    }
    # The carried level keeps the words that named it, for its disclosure.
    assert [c.phrase for c in asked.constraints if c.axis == "level"] == ["level 4"]
    assert asked.follows and asked.records is not None and asked.records.value == "findings"


@pytest.mark.parametrize(
    "question",
    [
        "How many RFIs are there in Cedar School?",
        "Where is Maple Clinic?",
        "What is the progress on level 2 of Cedar School?",
        "Show me the clash report",
        "How many photos were taken in Maple Clinic last week?",
    ],
)
def test_a_question_with_a_subject_of_its_own_carries_nothing(question: str) -> None:
    earlier = ["How many open findings are on level 3 of Harbor Tower?"]
    asked = asked_set(earlier, question, projects=PROJECTS, today=TODAY)
    assert not asked.follows
    assert asked.constraints == read_constraints(question, projects=PROJECTS, today=TODAY)
    assert ("status", "open") not in {(c.axis, c.value) for c in asked.constraints}


def test_a_single_question_is_its_own_set() -> None:
    question = "How many open findings are on level 3 of Harbor Tower?"
    asked = asked_set([], question, projects=PROJECTS, today=TODAY)
    assert not asked.follows
    assert asked.constraints == read_constraints(question, projects=PROJECTS, today=TODAY)


def test_a_follow_ups_word_no_axis_reads_is_read_against_the_records_it_carries() -> None:
    # Alone, "And how many of them are overdue?" names no records and no project: its
    # words could not be told from a noun. Carrying "findings", "overdue" narrows them.
    asked = asked_set(
        ["How many open findings are on level 3 of Harbor Tower?"],
        "And how many of them are overdue?",
        projects=PROJECTS,
        today=TODAY,
    )
    unread = [(c.value, c.phrase) for c in asked.constraints if c.leftover]
    assert unread == [(UNREAD, "overdue")]
    # An earlier unread word stays in the set the follow-up narrows.
    again = asked_set(
        ["How many overdue findings are in Harbor Tower?"],
        "And on level 4?",
        projects=PROJECTS,
        today=TODAY,
    )
    assert ("topic", UNREAD) in {(c.axis, c.value) for c in again.constraints}


def test_what_a_follow_up_carries_is_judged_against_the_call_that_went_out() -> None:
    asked = asked_set(
        ["How many open findings are on level 3 of Harbor Tower?", "And on level 4?"],
        "How many of them are safety findings?",
        projects=PROJECTS,
        today=TODAY,
    )
    dropped = {"project_id": HARBOR, "status": "open", "kind": "safety"}
    scope = judge_scope(asked.constraints, "query_data", dropped)
    assert [c.phrase for c in scope.unapplied] == ["level 4"]
    kept = {**dropped, "level_number": 4}
    assert judge_scope(asked.constraints, "query_data", kept).whole


def test_a_filter_the_conversation_named_is_not_added_and_one_it_never_named_is() -> None:
    asked = asked_set(
        ["How many findings does inspector Dana Whitfield have at Maple Clinic?"],
        "How many of them are open?",
        projects=PROJECTS,
        today=TODAY,
    )
    carried = {"project_id": MAPLE, "status": "open", "inspector": "Dana Whitfield"}
    assert added_filters(asked.constraints, "query_data", carried, {}) == ()
    plain = asked_set(
        ["How many open findings are on level 3 of Harbor Tower?"],
        "How many of them are safety findings?",
        projects=PROJECTS,
        today=TODAY,
    )
    sent = {"project_id": HARBOR, "status": "open", "level_number": 3, "kind": "safety"}
    added = added_filters(
        plain.constraints, "query_data", {**sent, "inspector": "Dana Whitfield"}, {}
    )
    assert [c.phrase for c in added] == ["inspector Dana Whitfield"]


@pytest.mark.parametrize(
    ("question", "follows"),
    [
        ("Level 3 please", True),
        ("Ebene 3 bitte", True),
        ("nivel 3 por favor", True),
        ("And on level 4?", True),
        ("How many of them are closed?", True),
        # A field asked of the set before: "which companies [of them]?"
        ("Which companies?", True),
        ("Welche Firmen?", True),
        ("¿Qué empresas?", True),
        ("Which companies have findings at Maple Clinic?", False),
        ("Any updates?", False),
        ("Show me the clash report for level 3", False),
        ("What is the progress on level 2?", False),
        ("Where is Maple Clinic?", False),
    ],
)
def test_a_question_follows_up_only_when_made_of_what_it_changes_or_pointing_back(
    question: str, follows: bool
) -> None:
    own = read_constraints(question, projects=PROJECTS, today=TODAY)
    assert follows_up(question, own) is follows


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("How many open findings are on this level?", "this level"),
        ("How many photos on the current floor?", "the current floor"),
        ("Wie viele offene Befunde gibt es auf dieser Ebene?", "dieser Ebene"),
        ("¿Cuántos hallazgos abiertos hay en este nivel?", "este nivel"),
        ("이 층의 미해결 지적 사항은 몇 건인가요?", "이 층"),
        ("この階の未解決の指摘は何件ですか？", "この階"),
    ],
)
def test_this_level_is_the_level_the_host_shows_and_unread_when_it_shows_none(
    question: str, phrase: str
) -> None:
    read = read_constraints(question, projects=PROJECTS, today=TODAY)
    (level,) = [c for c in read if c.axis == "level"]
    assert level.phrase == phrase
    assert [c.value for c in on_view(read, 3) if c.axis == "level"] == ["3"]
    assert [c.value for c in on_view(read, None) if c.axis == "level"] == [UNREAD]
    # Nothing of "this level" is left over as an unread word.
    assert not [c for c in read if c.leftover]


def test_a_follow_up_with_nothing_before_it_is_its_own_set() -> None:
    question = "And on level 4?"
    asked = asked_set([], question, projects=PROJECTS, today=TODAY)
    assert not asked.follows
    assert asked.constraints == read_constraints(question, projects=PROJECTS, today=TODAY)


def test_an_earlier_questions_date_is_read_on_the_same_clock() -> None:
    asked = asked_set(
        ["How many findings were raised last week at Maple Clinic?"],
        "How many of them are open?",
        projects=PROJECTS,
        today=TODAY,
    )
    assert ("date", "2026-11-23..2026-11-29") in {(c.axis, c.value) for c in asked.constraints}


def test_a_follow_up_to_a_question_of_no_records_carries_its_set_and_no_records() -> None:
    asked = asked_set(
        ["What is the progress on level 2 of Cedar School?"],
        "And on level 3?",
        projects=PROJECTS,
        today=TODAY,
    )
    assert asked.follows and asked.records is None
    assert {(c.axis, c.value) for c in asked.constraints} == {("project", CEDAR), ("level", "3")}


def test_this_level_on_screen_leaves_every_other_constraint_as_it_was() -> None:
    read = read_constraints(
        "How many open findings are on this level?", projects=PROJECTS, today=TODAY
    )
    assert {(c.axis, c.value) for c in on_view(read, 3)} == {("status", "open"), ("level", "3")}


@pytest.mark.parametrize("locale", ["en", "de", "es"])
def test_every_latin_word_that_continues_a_set_is_one_the_leftover_reader_leaves_alone(
    locale: str,
) -> None:
    # A continuing word ("And on level 4 please?") the leftover reader took for a filter
    # would make every such follow-up a set of its own: the two tables must agree.
    unknown = [word for word in CONTINUING[locale] if not known_word(word)]
    assert unknown == []
