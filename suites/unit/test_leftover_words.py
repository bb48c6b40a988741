"""Words no axis reads are constraints too: "overdue", "high severity", "my" narrow the
asked set, so no count of the question is the answer without them (leftover.py)."""

from __future__ import annotations

from datetime import date

import pytest

from beacon.adjudication.constraints import (
    UNREAD,
    Constraint,
    corrective_arguments,
    judge_scope,
    read_constraints,
)

TODAY = date(2026, 12, 5)
PROJECTS = [{"id": "prj-harbor-tower", "name": "Harbor Tower"}]
HARBOR = {"project_id": "prj-harbor-tower"}


def leftovers(question: str) -> list[tuple[str, str]]:
    read = read_constraints(question, projects=PROJECTS, today=TODAY)
    return [(c.value, c.phrase) for c in read if c.leftover]


@pytest.mark.parametrize(
    ("question", "phrases"),
    [
        ("How many overdue findings are there in Harbor Tower?", ["overdue"]),
        ("How many high severity findings are open in Harbor Tower?", ["high severity"]),
        ("How many of my findings are open in Harbor Tower?", ["my"]),
        ("How many critical open findings are on level 3 of Harbor Tower?", ["critical"]),
        ("How many re-opened findings did Whitfield raise?", ["re-opened", "Whitfield"]),
        ("Wie viele überfällige Befunde gibt es in Harbor Tower?", ["überfällige"]),
        ("¿Cuántos hallazgos urgentes hay en Harbor Tower?", ["urgentes"]),
        # ("hallazgos no abiertos" is the qualifier reader's: test_constraint_qualifiers.)
        ("Harbor Towerの期限切れの指摘は何件ですか", ["期限切れ"]),
        ("Harbor Towerで私の指摘は何件ですか", ["私"]),
        ("Harbor Tower의 긴급 지적 사항은 몇 건인가요?", ["긴급"]),
        ("Harbor Tower의 기한이 지난 지적 사항은 몇 건인가요?", ["기한이 지난"]),
        ("Harbor Tower 3층 외벽 지적", ["외벽"]),  # findings on the outer wall
        # Two unread words apart in the question are two phrases, not one.
        ("How many overdue open findings are unassigned?", ["overdue", "unassigned"]),
        # Records of no known kind, in a project of the directory: still read.
        ("How many overdue items are in Harbor Tower?", ["overdue"]),
        ("How many recent findings are in Harbor Tower?", ["recent"]),  # no end: a window
        ("How many unassigned findings are in Harbor Tower?", ["unassigned"]),
    ],
)
def test_a_word_no_axis_reads_is_an_unread_constraint_as_typed(
    question: str, phrases: list[str]
) -> None:
    assert leftovers(question) == [(UNREAD, p) for p in phrases]


@pytest.mark.parametrize(
    "question",
    [
        "How many open findings are on level 3 of Harbor Tower?",
        "What is the total number of open findings in Harbor Tower?",
        "How many findings are currently open in Harbor Tower?",
        "Which companies have open safety findings on level 2 of Harbor Tower?",
        "How many findings did Dana Whitfield raise in Harbor Tower last week?",
        "Can you show me all the photos taken on level 2 of Harbor Tower, please?",
        "level 3 vs level 4 of Harbor Tower",
        "How many findings are on level 3 and level 4 of Harbor Tower combined?",
        # A record's own id, a tool's own report, a project's progress: no narrower set.
        "Show me ph-000045 at Harbor Tower",
        "Who raised ann-000123 in Harbor Tower?",
        "Show the clash report for Harbor Tower.",
        "Which trades are behind plan in Harbor Tower?",
        # A finding's company is the one it is assigned to: "assigned to" names the axis.
        "How many findings in Harbor Tower are assigned to Keystone Concrete?",
        # Which end of the set: read by code from every record, it narrows nothing.
        "When was the last capture on level 3 of Harbor Tower?",
        "What is the most recent panorama on level 2 of Harbor Tower?",
        "¿Cuál es la panorámica más reciente del nivel 2 de Harbor Tower?",
        "What is the oldest open finding in Harbor Tower?",
        # A chat's follow-up: "them" is the earlier question's set, the planner's to carry.
        "How many of them are safety findings?",
        "Wie viele davon sind Sicherheitsbefunde?",
        "Wie viele Befunde hat Dana Whitfield in Harbor Tower insgesamt erfasst?",
        "Welche Firmen haben offene Sicherheitsbefunde auf Ebene 3 von Harbor Tower?",
        "¿Cuántos hallazgos registró Dana Whitfield en Harbor Tower?",
        "Muestra todas las fotos del nivel 2 de Harbor Tower",
        "Harbor Towerの4階にある未対応の安全指摘は何件ですか",
        "Maple ClinicでDana Whitfieldが撮った写真は何枚ですか",
        "Harbor Towerで先週作成された指摘は何件ですか",
        "Harbor Tower 7층에서 미해결 안전 지적 사항이 있는 업체는 어떤 업체인가요?",
        "Harbor Tower에서 Dana Whitfield이(가) 작성한 지적 사항은 몇 건인가요?",
        "그중 안전 지적 사항은 몇 건인가요?",
        # A third party's records, in no project: its nouns are no words the lexicon
        # knows, so none can be told from a narrowing word.
        "How many commits are in the log?",
    ],
)
def test_the_words_of_a_question_s_form_leave_nothing_unread(question: str) -> None:
    assert leftovers(question) == []


def test_an_unread_word_is_never_applied_nor_asked_for_whatever_a_call_sends() -> None:
    read = read_constraints("How many overdue findings are in Harbor Tower?", projects=PROJECTS,
                            today=TODAY)  # fmt: skip
    for arguments in ({**HARBOR}, {**HARBOR, "query": "overdue"}, {**HARBOR, "status": "overdue"}):
        scope = judge_scope(read, "query_data", arguments)
        assert [c.phrase for c in scope.unapplied] == ["overdue"]
        assert corrective_arguments(scope, "query_data") == {}


def test_a_photo_search_s_leftover_is_applied_only_when_its_query_carries_it() -> None:
    read = read_constraints("Show me cracked concrete photos in Harbor Tower", projects=PROJECTS,
                            today=TODAY)  # fmt: skip
    assert [c for c in read if c.axis == "topic"] == [
        Constraint("topic", "cracked concrete", "cracked concrete", leftover=True)
    ]
    assert judge_scope(read, "search_photos", {**HARBOR, "query": "cracked concrete"}).whole
    assert not judge_scope(read, "search_photos", {**HARBOR, "query": "concrete"}).whole
    assert not judge_scope(read, "query_data", {**HARBOR, "record": "photos"}).whole


def test_a_leftover_is_never_one_side_of_the_topic_a_search_applied() -> None:
    # Topics read from the table are alternatives ("rebar or formwork"): one applied
    # answers the axis. A leftover stands alone: the search that carried the subject
    # and not "near the crane" has not counted the asked set.
    read = read_constraints("Photos of missing hard hats near the crane in Harbor Tower",
                            projects=PROJECTS, today=TODAY)  # fmt: skip
    assert [(c.value, c.leftover) for c in read if c.axis == "topic"] == [
        ("missing hard hats", False),
        ("near", True),
        ("crane", True),
    ]
    scope = judge_scope(read, "search_photos", {**HARBOR, "query": "missing hard hats"})
    assert [c.phrase for c in scope.unapplied] == ["near", "crane"]
    # A correction asks for no leftover (it would replace the search's own query).
    assert corrective_arguments(scope, "search_photos") == {}
