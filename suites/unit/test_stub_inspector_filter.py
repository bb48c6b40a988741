"""The stub upstream filters findings by who raised them: ``inspector`` on
``list_annotations`` and ``query_data`` (one ``FindingFilters`` definition).

Every expected figure is counted here from the corpus records, never through
the tool code under test; calls go through the stub's catalog (argument
validation, error results) unless a test needs a small page to get a cursor.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from beacon.adjudication import Grade, grade_count
from harness import producers
from stub_server.corpus import build_corpus
from stub_server.sqlgen import Filters, to_sql
from stub_server.tools import Flags, StubSettings, ToolContext, ToolError
from stub_server.tools_query import QueryDataArgs, query_data
from stub_server.tools_records import ListAnnotationsArgs, list_annotations

MAPLE = "prj-maple-clinic"
DANA = "Dana Whitfield"
HOW_MANY = "How many findings are in Maple Clinic?"
LIST = "List all findings in Maple Clinic"


def _dana_at_maple() -> set[str]:
    ids = {
        a.id for a in build_corpus().annotations if a.project_id == MAPLE and a.inspector == DANA
    }
    everyone = sum(1 for a in build_corpus().annotations if a.project_id == MAPLE)
    assert 0 < len(ids) < everyone  # the filter has something to keep and to drop
    return ids


def _ctx(**settings: int) -> ToolContext:
    return ToolContext(build_corpus(), StubSettings(**settings), "http://127.0.0.1:1")


def _text(result: dict[str, Any]) -> str:
    return " ".join(block.get("text", "") for block in result.get("content", []))


def test_list_annotations_by_an_inspector_returns_exactly_her_findings_in_the_project() -> None:
    arguments = {"project_id": MAPLE, "inspector": DANA, "limit": 100}
    result = producers.tool_result("list_annotations", arguments)
    structured = result["structuredContent"]
    assert {item["id"] for item in structured["items"]} == _dana_at_maple()
    assert (structured["total"], structured["has_more"]) == (len(_dana_at_maple()), False)
    verdict = grade_count(result)
    assert (verdict.grade, verdict.value) == (Grade.EXACT, len(_dana_at_maple()))


def test_query_data_counts_an_inspectors_findings_with_the_same_exact_figure() -> None:
    arguments = {"project_id": MAPLE, "question": HOW_MANY, "inspector": DANA}
    result = producers.tool_result("query_data", arguments)
    verdict = grade_count(result)
    assert (verdict.grade, verdict.value) == (Grade.EXACT, len(_dana_at_maple()))


def test_query_data_lists_only_the_findings_the_inspector_raised() -> None:
    arguments = {"project_id": MAPLE, "question": LIST, "inspector": DANA}
    rows = producers.tool_result("query_data", arguments)["structuredContent"]["rows"]
    assert {row["id"] for row in rows} == _dana_at_maple()


@pytest.mark.parametrize("tool", ["list_annotations", "query_data"])
def test_an_inspector_is_matched_in_any_case(tool: str) -> None:
    arguments = {"project_id": MAPLE, "inspector": "dANA wHITFIELD"}
    if tool == "query_data":
        arguments["question"] = LIST
    structured = producers.tool_result(tool, arguments)["structuredContent"]
    assert {row["id"] for row in structured.get("items", structured.get("rows"))} == (
        _dana_at_maple()
    )


def test_an_inspector_filter_on_records_without_inspectors_is_an_error_result() -> None:
    """As a status on photos is: refused by name, never ignored into a wider answer."""
    arguments = {"project_id": MAPLE, "question": "How many photos?", "inspector": DANA}
    result = producers.tool_result("query_data", arguments)
    assert result["isError"] is True and "structuredContent" not in result
    assert "photos have no inspector to filter by" in _text(result)


@pytest.mark.parametrize("model", [ListAnnotationsArgs, QueryDataArgs])
@pytest.mark.parametrize(
    "inspector", [pytest.param("", id="empty"), pytest.param("x" * 101, id="too-long")]
)
def test_an_empty_or_overlong_inspector_is_refused_by_the_schema(
    model: type[BaseModel], inspector: str
) -> None:
    asked = {"question": LIST} if model is QueryDataArgs else {}
    with pytest.raises(ValidationError, match="inspector"):
        model.model_validate({"project_id": MAPLE, **asked, "inspector": inspector})


def test_an_inspector_reaches_the_sql_only_as_a_bound_parameter() -> None:
    query = to_sql("list findings", MAPLE, Filters(inspector="x' OR 1=1 --"))
    assert "OR 1=1" not in query.sql and "inspector = ? COLLATE NOCASE" in query.sql
    assert query.params == (MAPLE, "x' OR 1=1 --")


def test_a_list_annotations_cursor_is_bound_to_its_inspector() -> None:
    ctx = _ctx()
    first = list_annotations(
        ctx, ListAnnotationsArgs(project_id=MAPLE, inspector=DANA, limit=3), Flags()
    )
    cursor = first.accounting["cursor"]
    same = ListAnnotationsArgs(project_id=MAPLE, inspector=DANA, limit=3, cursor=cursor)
    second = list_annotations(ctx, same, Flags())
    assert {item["id"] for item in second.structured["items"]} <= _dana_at_maple()
    for other in ("Marco Ruiz", None):
        changed = ListAnnotationsArgs(project_id=MAPLE, inspector=other, limit=3, cursor=cursor)
        with pytest.raises(ToolError, match="different query"):
            list_annotations(ctx, changed, Flags())


def test_a_query_data_cursor_keeps_its_inspector_and_refuses_another() -> None:
    ctx = _ctx(query_page_size=3)
    first = query_data(ctx, QueryDataArgs(project_id=MAPLE, question=LIST, inspector=DANA), Flags())
    cursor = first.accounting["cursor"]
    second = query_data(ctx, QueryDataArgs(project_id=MAPLE, cursor=cursor), Flags())
    assert {row["inspector"] for row in second.structured["rows"]} == {DANA}
    assert second.accounting["total"] == len(_dana_at_maple())
    changed = QueryDataArgs(project_id=MAPLE, cursor=cursor, inspector="Marco Ruiz")
    with pytest.raises(ToolError, match="different filters"):
        query_data(ctx, changed, Flags())
