"""``beacon-rules`` understands the question forms a site team uses, in five locales.

Each test hands the embedded model the messages a turn sends (the turn context block,
the question) and reads the tool calls it plans or the sentence it narrates.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stub_server.rules_model import plan
from stub_server.rules_narrator import narrate

DIRECTORY = [
    {"id": "prj-harbor-tower", "name": "Harbor Tower"},
    {"id": "prj-cedar-school", "name": "Cedar School"},
]
EVERY_TOOL = {"query_data", "search_photos", "list_annotations", "get_progress_summary"}


def turn(
    question: str,
    *,
    view: dict[str, Any] | None = None,
    locale: str | None = None,
    anchors: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    context: dict[str, Any] = {"projects": DIRECTORY, "view_context": view or {}}
    if locale is not None:
        context["answer_locale"] = locale
    blocks = [context] if anchors is None else [context, {"anchors": anchors}]
    system = [
        {"role": "system", "content": "```json\n" + json.dumps(block) + "\n```"} for block in blocks
    ]
    system[0]["content"] = "Turn context (data):\n" + system[0]["content"]
    return [*system, {"role": "user", "content": question}]


def calls(
    question: str, tools: set[str] = EVERY_TOOL, **kw: Any
) -> list[tuple[str, dict[str, Any]]]:
    reply = plan(turn(question, **kw), tools)
    return [
        (c["function"]["name"], json.loads(c["function"]["arguments"])) for c in reply.tool_calls
    ]


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("Harbor Tower asdf", id="noise-words"),
        pytest.param("asdf qwer HARBOR TOWER", id="end-of-question-any-case"),
        pytest.param("Was gibt es Neues in Harbor Tower?", id="german"),
        pytest.param("harbortower?", id="no-space"),
    ],
)
def test_a_named_project_is_recognised_and_never_asked_for(question: str) -> None:
    reply = plan(turn(question), EVERY_TOOL)
    assert "which project" not in reply.content.lower()
    said = narrate(turn(question))
    assert "Harbor Tower" in said
    assert not said.startswith(("Which project", "Welches Projekt"))


def test_who_created_the_findings_on_a_level_becomes_a_listing_on_that_level() -> None:
    ((tool, arguments),) = calls("Who created the findings on level 2 of Harbor Tower?")
    assert tool == "query_data"
    assert arguments["project_id"] == "prj-harbor-tower" and arguments["level_number"] == 2


def test_photos_from_a_level_are_listed_on_that_level_not_searched_project_wide() -> None:
    view = {"project_id": "prj-harbor-tower"}
    ((tool, arguments),) = calls("List all photos from level 2", view=view)
    assert tool == "query_data" and arguments["level_number"] == 2
    assert "photos" in arguments["question"].lower()


@pytest.mark.parametrize(
    ("question", "expected", "words"),
    [
        pytest.param(
            "Wie viele offene Sicherheitsbefunde gibt es auf Ebene 3 in Harbor Tower?",
            {"level_number": 3},
            ("open", "safety", "findings"),
            id="de",
        ),
        pytest.param(
            "¿Cuántos hallazgos de calidad cerrados hay en el nivel 4 de Cedar School?",
            {"level_number": 4, "project_id": "prj-cedar-school"},
            ("closed", "quality", "findings"),
            id="es",
        ),
        pytest.param(
            "Harbor Tower 5층에 미해결 안전 지적 사항은 몇 건입니까?",
            {"level_number": 5},
            ("open", "safety", "findings"),
            id="ko",
        ),
        pytest.param(
            "Harbor Towerの6階にある未対応の安全指摘は何件ですか",
            {"level_number": 6},
            ("open", "safety", "findings"),
            id="ja",
        ),
        pytest.param(
            "How many findings were created in March 2026 in Harbor Tower?",
            {"date_from": "2026-03-01", "date_to": "2026-03-31"},
            ("findings", "march 2026"),
            id="en-month",
        ),
        pytest.param(
            "Harbor Tower에서 2026년 2월에 생성된 지적 사항은 몇 건인가요?",
            {"date_from": "2026-02-01", "date_to": "2026-02-28"},
            ("findings", "february 2026"),
            id="ko-month",
        ),
    ],
)
def test_a_count_in_any_locale_carries_its_level_and_dates_as_arguments(
    question: str, expected: dict[str, Any], words: tuple[str, ...]
) -> None:
    planned = calls(question)
    assert [tool for tool, _ in planned] == ["query_data", "query_data"]
    aggregate, listing = (arguments for _, arguments in planned)
    assert aggregate.items() >= expected.items() and listing.items() >= expected.items()
    assert "how many" in aggregate["question"].lower()
    assert "how many" not in listing["question"].lower()
    # The rest of the question reaches the upstream's (English) text-to-SQL in words.
    assert all(w in aggregate["question"].lower() for w in words), aggregate["question"]


def test_photos_of_a_topic_in_german_search_that_topic_on_the_named_level() -> None:
    ((tool, arguments),) = calls("Fotos von Gerüsten auf Ebene 5 in Harbor Tower")
    assert tool == "search_photos"
    assert arguments == {
        "project_id": "prj-harbor-tower",
        "query": "scaffolding",
        "limit": 10,
        "level_number": 5,
    }


def test_which_trades_reads_the_progress_summary() -> None:
    ((tool, arguments),) = calls("Welche Gewerke gibt es in Cedar School?")
    assert (tool, arguments) == ("get_progress_summary", {"project_id": "prj-cedar-school"})


def test_a_count_without_the_aggregate_tool_plans_nothing_and_asks_for_no_project() -> None:
    question = "How many panoramas are in Harbor Tower?"
    reply = plan(turn(question), {"list_annotations", "list_levels"})
    assert reply.tool_calls == [] and "which project" not in reply.content.lower()


def test_a_question_naming_no_project_and_no_view_asks_which_one_in_the_locale() -> None:
    said = narrate(turn("Wie viele Befunde gibt es?", locale="de"))
    assert said.startswith("Welches Projekt meinen Sie?")
    assert "Harbor Tower" in said and "Cedar School" in said


# --- an inspector named in the question, and the topic alone as the search query ---------

DANA = "Dana Whitfield"


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("How many findings did dana whitfield raise in Harbor Tower?", id="en"),
        pytest.param("HOW MANY OPEN FINDINGS DID DANA WHITFIELD RAISE IN HARBOR TOWER?", id="caps"),
        pytest.param("Wie viele offene Befunde hat Dana Whitfield in Harbor Tower?", id="de"),
        pytest.param("Harbor Tower에서 Dana Whitfield의 지적 사항은 몇 건입니까?", id="ko"),
    ],
)
def test_a_count_naming_an_inspector_in_any_case_sends_her_as_the_inspector_argument(
    question: str,
) -> None:
    planned = calls(question)
    assert [tool for tool, _ in planned] == ["query_data", "query_data"]
    assert all(arguments["inspector"] == DANA for _, arguments in planned)


def test_a_listing_naming_an_inspector_filters_list_annotations_by_her() -> None:
    question = "List the findings Dana Whitfield raised on level 2 of Harbor Tower"
    ((tool, arguments),) = calls(question, {"list_annotations"})
    assert tool == "list_annotations"
    assert (arguments["inspector"], arguments["level_number"]) == (DANA, 2)


@pytest.mark.parametrize(
    "question",
    [
        pytest.param("How many findings did Dana raise in Harbor Tower?", id="first-name-only"),
        pytest.param("How many findings are in Harbor Tower?", id="no-one-named"),
    ],
)
def test_no_inspector_argument_without_an_inspectors_full_name(question: str) -> None:
    assert all("inspector" not in arguments for _, arguments in calls(question))


def test_a_count_by_an_inspector_is_narrated_as_her_findings() -> None:
    subject = "How many findings did Dana Whitfield raise in Harbor Tower?"
    anchor = {
        "kind": "exact_count", "slot": "c1", "tool": "query_data",
        "project_id": "prj-harbor-tower", "subject": subject, "aggregate": True,
    }  # fmt: skip
    said = narrate(turn(subject, anchors=[anchor]))
    assert said == "Harbor Tower has {{count:c1}} findings raised by Dana Whitfield."


SCAFFOLDING_ON_3_IN_MARCH = {
    "query": "scaffolding",
    "level_number": 3,
    "date_from": "2026-03-01",
    "date_to": "2026-03-31",
}


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        pytest.param(
            "Show me photos of scaffolding on level 3 from March 2026 in Harbor Tower",
            SCAFFOLDING_ON_3_IN_MARCH,
            id="en-level-and-month",
        ),
        pytest.param(
            "Fotos von Gerüsten auf Ebene 3 im März 2026 in Harbor Tower",
            SCAFFOLDING_ON_3_IN_MARCH,
            id="de-level-and-month",
        ),
        pytest.param(
            "Show me photos of hard hats in Harbor Tower", {"query": "missing hard hats"}, id="en"
        ),
    ],
)
def test_a_photo_search_sends_the_topic_alone_and_each_filter_as_its_own_argument(
    question: str, expected: dict[str, Any]
) -> None:
    ((tool, arguments),) = calls(question)
    assert tool == "search_photos"
    assert arguments == {"project_id": "prj-harbor-tower", "limit": 10, **expected}


def test_a_photo_search_with_no_known_topic_keeps_the_questions_own_subject() -> None:
    ((tool, arguments),) = calls("Show me photos of the lobby ceiling in Harbor Tower")
    assert (tool, arguments["query"]) == ("search_photos", "the lobby ceiling")
