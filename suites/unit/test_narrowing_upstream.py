"""A chosen narrowing option really narrows the upstream call, and query_data honours
structured filters (through the stub's own tools).
"""

from __future__ import annotations

import calendar
from collections import Counter
from typing import Any

import pytest
from narrowing_samples import (
    CORPUS,
    HARBOR,
    PANORAMAS,
    adjudicated_result,
    tool_context,
)
from pydantic import ValidationError

from beacon.loop.narrowing_state import (
    offer_narrowing,
    resume,
    scoped_arguments,
)
from beacon.store.records import NarrowingRecord
from stub_server.sqlgen import Filters, UntranslatableQuestion, to_sql
from stub_server.tools import Flags, ToolError
from stub_server.tools_query import QueryDataArgs, query_data
from stub_server.tools_records import ListAnnotationsArgs, list_annotations

# --- a chosen option really narrows the upstream call -----------------------------------


def test_a_query_data_listing_is_offered_months_and_the_chosen_month_narrows_the_query() -> None:
    ctx = tool_context()
    arguments = {"project_id": HARBOR, "question": PANORAMAS}
    sample = adjudicated_result(
        "query_data", arguments, query_data(ctx, QueryDataArgs.model_validate(arguments), Flags())
    )
    options = offer_narrowing(sample, "en")
    # The months on the cards that came back, most common first (computed from the corpus).
    shown = [c.id for c in sample.citations] + [c["id"] for c in sample.unshown]
    by_id = {c.id: c for c in CORPUS.captures}
    months = Counter(by_id[i].captured_at[:7] for i in shown)
    top = sorted(months, key=lambda m: (-months[m], m))[:3]
    assert [o["scope"]["date_from"][:7] for o in options] == top
    assert [o["recommended"] for o in options] == [True, False, False]

    record = {"state": "offered", "tool": "query_data", "arguments": arguments, "options": options}
    chosen = resume(NarrowingRecord.model_validate(record), options[0]["reply"])
    scoped = scoped_arguments("query_data", arguments, chosen)
    narrowed = query_data(ctx, QueryDataArgs.model_validate(scoped), Flags())
    year, month = int(top[0][:4]), int(top[0][5:])
    expected = {
        c.id
        for c in CORPUS.captures
        if c.project_id == HARBOR and c.captured_at.startswith(f"{year:04d}-{month:02d}")
    }
    assert {r["id"] for r in narrowed.structured["rows"]} == expected
    assert narrowed.accounting["total"] == len(expected) and not narrowed.accounting["has_more"]
    assert scoped["date_to"] == f"{year:04d}-{month:02d}-{calendar.monthrange(year, month)[1]}"


def test_a_status_chosen_from_annotation_records_narrows_list_annotations() -> None:
    ctx = tool_context()
    arguments = {"project_id": HARBOR, "level_number": 3}
    output = list_annotations(ctx, ListAnnotationsArgs.model_validate(arguments), Flags())
    # Only the status field of the page's records: the status axis alone is grounded.
    records = [{"id": r["id"], "status": r["status"]} for r in output.structured["items"]]
    sample = adjudicated_result("list_annotations", arguments, output)
    options = offer_narrowing(sample, "en", records)
    statuses = Counter(r["status"] for r in records)
    ranked = sorted(statuses, key=lambda s: (-statuses[s], s))
    assert [o["scope"] for o in options] == [{"status": s, "limit": 100} for s in ranked]

    record = {"state": "offered", "tool": "list_annotations", "arguments": arguments}
    chosen = resume(
        NarrowingRecord.model_validate({**record, "options": options}), options[0]["reply"]
    )
    scoped = scoped_arguments("list_annotations", arguments, chosen)
    narrowed = list_annotations(ctx, ListAnnotationsArgs.model_validate(scoped), Flags())
    expected = {
        a.id
        for a in CORPUS.annotations
        if a.project_id == HARBOR and a.level_number == 3 and a.status == ranked[0]
    }
    assert {r["id"] for r in narrowed.structured["items"]} == expected
    assert narrowed.accounting["has_more"] is False  # the whole narrowed set in one page


def test_a_sample_keeps_its_records_typed_fields_so_the_loop_can_offer_them() -> None:
    """What the loop passes to ``offer_narrowing``: the evidence's own facets."""
    ctx = tool_context()
    arguments = {"project_id": HARBOR}
    output = list_annotations(ctx, ListAnnotationsArgs.model_validate(arguments), Flags())
    sample = adjudicated_result("list_annotations", arguments, output)
    page = output.structured["items"]
    assert [f["status"] for f in sample.facets] == [r["status"] for r in page]
    assert {f["company"] for f in sample.facets} == {r["company"] for r in page}
    # A status or a kind splits a page of findings into a few whole groups, which the
    # levels of those findings cannot: with the facets a record-only axis is offered,
    # from the cards alone (a level, a date) it could not be.
    with_facets = {next(iter(o["scope"])) for o in offer_narrowing(sample, "en", sample.facets)}
    assert with_facets and with_facets <= {"status", "category", "company", "kind"}
    cards_only = {next(iter(o["scope"])) for o in offer_narrowing(sample, "en")}
    assert cards_only <= {"level_number", "date_from"}


# --- query_data honours structured filters -----------------------------------------------


def test_query_data_declares_and_honours_structured_filters_anded_onto_the_question() -> None:
    args = QueryDataArgs(
        project_id=HARBOR,
        question="List open safety findings in Harbor Tower",
        company="summit steel",
        date_from="2026-01-01",
        date_to="2026-03-31",
    )
    rows = query_data(tool_context(), args, Flags()).structured["rows"]
    expected = {
        a.id
        for a in CORPUS.annotations
        if a.project_id == HARBOR
        and a.kind == "safety"
        and a.status == "open"
        and a.company == "Summit Steel"
        and "2026-01-01" <= a.created_at <= "2026-03-31"
    }
    assert expected and {r["id"] for r in rows} == expected


def test_filter_values_reach_the_sql_only_as_bound_parameters() -> None:
    query = to_sql("list findings", HARBOR, Filters(company="x' OR 1=1 --", status="open"))
    assert "OR 1=1" not in query.sql
    assert query.params == (HARBOR, "open", "x' OR 1=1 --")


@pytest.mark.parametrize(
    ("question", "filters"),
    [
        pytest.param("list panoramas", Filters(category="ppe"), id="category-on-panoramas"),
        pytest.param("list photos", Filters(status="open"), id="status-on-photos"),
        pytest.param("list levels", Filters(date_from="2026-01-01"), id="date-on-levels"),
        pytest.param("list levels", Filters(level_number=2), id="level-on-levels"),
    ],
)
def test_a_filter_on_a_field_the_table_lacks_is_refused_not_ignored(
    question: str, filters: Filters
) -> None:
    with pytest.raises(UntranslatableQuestion, match="to filter by"):
        to_sql(question, HARBOR, filters)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"date_from": "2026-02-30"}, id="not-a-date"),
        pytest.param({"date_from": "2026-03-01", "date_to": "2026-02-01"}, id="reversed"),
        pytest.param({"status": "pending"}, id="unknown-status"),
        pytest.param({"category": "rust"}, id="unknown-category"),
    ],
)
def test_bad_filter_arguments_are_refused_by_the_schema(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        QueryDataArgs.model_validate({"project_id": HARBOR, "question": PANORAMAS, **bad})


def test_a_cursor_keeps_its_filters_and_refuses_others() -> None:
    ctx = tool_context(query_page_size=100)
    march = {"date_from": "2026-03-01", "date_to": "2026-03-31"}
    first = query_data(
        ctx,
        QueryDataArgs.model_validate({"project_id": HARBOR, "question": PANORAMAS, **march}),
        Flags(),
    )
    cursor = first.accounting["cursor"]
    second = query_data(ctx, QueryDataArgs(project_id=HARBOR, cursor=cursor), Flags())
    assert all(
        "2026-03-01" <= r["captured_at"][:10] <= "2026-03-31" for r in second.structured["rows"]
    )
    assert second.accounting["total"] == first.accounting["total"]
    again = QueryDataArgs(project_id=HARBOR, cursor=cursor, level_number=2)
    with pytest.raises(ToolError, match="different filters"):
        query_data(ctx, again, Flags())
