"""``query_data`` in-process: the capped total, paging by re-running the question, fault flags."""

from __future__ import annotations

import pytest

from stub_server.corpus import build_corpus
from stub_server.tools import Flags, StubSettings, ToolContext, ToolError, decode_cursor
from stub_server.tools_query import QUERY_RAN_LINE, QueryDataArgs, query_data

HARBOR = "prj-harbor-tower"
PANORAMAS = "List all panoramas in Harbor Tower"


def _ctx(**settings: int) -> ToolContext:
    return ToolContext(build_corpus(), StubSettings(**settings), "http://127.0.0.1:1")


def test_pages_walk_the_capped_table_and_the_cursor_carries_the_question() -> None:
    ctx = _ctx(query_page_size=1000)
    first = query_data(ctx, QueryDataArgs(project_id=HARBOR, question=PANORAMAS), Flags())
    assert (first.accounting["total"], first.accounting["returned"]) == (3000, 1000)
    cursor = first.accounting["cursor"]
    assert decode_cursor(cursor, "query") == {"t": "query", "p": HARBOR, "q": PANORAMAS, "o": 1000}
    ids = [row["id"] for row in first.structured["rows"]]
    while cursor is not None:
        page = query_data(ctx, QueryDataArgs(project_id=HARBOR, cursor=cursor), Flags())
        ids += [row["id"] for row in page.structured["rows"]]
        cursor = page.accounting["cursor"]
    assert page.accounting["has_more"] is False
    assert len(ids) == len(set(ids)) == 3000


def test_a_small_project_is_complete_below_the_cap() -> None:
    out = query_data(
        _ctx(),
        QueryDataArgs(project_id="prj-riverside-depot", question="list panoramas"),
        Flags(),
    )
    assert (out.accounting["total"], out.accounting["has_more"]) == (40, False)
    assert out.text.splitlines()[:3] == [
        QUERY_RAN_LINE,
        f"SQL: {out.structured['sql']}",
        "Rows: 40",
    ]


def test_the_row_cap_comes_from_settings() -> None:
    out = query_data(
        _ctx(row_cap=500), QueryDataArgs(project_id=HARBOR, question=PANORAMAS), Flags()
    )
    assert out.accounting["total"] == 500 and out.structured["sql"].endswith("LIMIT 500")


def test_a_cursor_for_another_question_is_refused() -> None:
    ctx = _ctx(query_page_size=10)
    first = query_data(ctx, QueryDataArgs(project_id=HARBOR, question=PANORAMAS), Flags())
    other = QueryDataArgs(
        project_id=HARBOR, question="list photos", cursor=first.accounting["cursor"]
    )
    with pytest.raises(ToolError, match="different question"):
        query_data(ctx, other, Flags())


def test_cursor_drift_moves_the_total_and_overlaps_the_previous_page() -> None:
    ctx = _ctx(query_page_size=100)
    first = query_data(ctx, QueryDataArgs(project_id=HARBOR, question=PANORAMAS), Flags())
    second = query_data(
        ctx,
        QueryDataArgs(project_id=HARBOR, cursor=first.accounting["cursor"]),
        Flags(cursor_drift=True),
    )
    assert second.accounting["total"] != first.accounting["total"]
    first_ids = {row["id"] for row in first.structured["rows"]}
    assert first_ids & {row["id"] for row in second.structured["rows"]}


def test_zero_hits_answers_an_empty_table_and_a_zero_count() -> None:
    ctx = _ctx()
    listed = query_data(
        ctx, QueryDataArgs(project_id=HARBOR, question=PANORAMAS), Flags(zero_hits=True)
    )
    assert (listed.accounting["total"], listed.structured["rows"]) == (0, [])
    counted = query_data(
        ctx, QueryDataArgs(project_id=HARBOR, question="How many panoramas?"), Flags(zero_hits=True)
    )
    assert counted.structured["aggregate"]["value"] == 0


def test_an_omitted_project_uses_the_focus_which_defaults_to_maple_clinic() -> None:
    out = query_data(_ctx(), QueryDataArgs(question="How many panoramas?"), Flags())
    assert out.structured["aggregate"]["value"] == 120
