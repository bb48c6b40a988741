"""The photo search stand-in: keyword concepts, a fetch cap, and a lower bound."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from stub_server.corpus import build_corpus
from stub_server.tools import Flags, StubSettings, ToolContext, ToolError, decode_cursor
from stub_server.tools_search import SearchIndex, SearchPhotosArgs, search_photos

HARBOR = "prj-harbor-tower"
_HARD_HAT = re.compile(r"hard ?hats?|helmets?|head protection|\bppe\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(build_corpus())


def _context(fetch_cap: int = 200) -> ToolContext:
    return ToolContext(build_corpus(), StubSettings(fetch_cap=fetch_cap), "http://127.0.0.1:1")


def test_missing_hard_hats_matches_exactly_the_photos_that_describe_them(
    index: SearchIndex,
) -> None:
    expected = {
        p.id
        for p in build_corpus().photos
        if p.project_id == HARBOR and _HARD_HAT.search(f"{p.title} {p.description}")
    }
    found = index.candidates(HARBOR, "missing hard hats", fetch_cap=10_000)
    assert {photo.id for _, photo in found} == expected
    assert 150 <= len(expected) <= 199


def test_candidates_are_ranked_by_score_then_id(index: SearchIndex) -> None:
    found = index.candidates(HARBOR, "scaffolding", fetch_cap=10_000)
    keys = [(-score, photo.id) for score, photo in found]
    assert keys == sorted(keys) and found


def test_the_fetch_cap_truncates_and_the_bound_is_the_truncated_count(index: SearchIndex) -> None:
    out = search_photos(
        _context(fetch_cap=50),
        index,
        SearchPhotosArgs(project_id=HARBOR, query="missing hard hats"),
        Flags(),
    )
    assert out.accounting["total_lower_bound"] == 50
    assert out.accounting["returned"] == 10 and out.accounting["has_more"] is True


def test_paging_with_the_cursor_walks_every_candidate_once(index: SearchIndex) -> None:
    ctx, seen, cursor = _context(), [], None
    while True:
        args = SearchPhotosArgs(
            project_id=HARBOR, query="missing hard hats", limit=50, cursor=cursor
        )
        out = search_photos(ctx, index, args, Flags())
        seen += [item["id"] for item in out.structured["items"]]
        cursor = out.structured["cursor"]
        if not out.structured["has_more"]:
            break
    assert cursor is None
    assert len(seen) == len(set(seen)) == out.accounting["total_lower_bound"]


def test_a_cursor_from_another_search_is_refused(index: SearchIndex) -> None:
    ctx = _context()
    first = search_photos(ctx, index, SearchPhotosArgs(project_id=HARBOR, query="rebar"), Flags())
    cursor = first.structured["cursor"]
    assert decode_cursor(cursor, "search")["o"] == 10
    with pytest.raises(ToolError, match="different search"):
        search_photos(
            ctx,
            index,
            SearchPhotosArgs(project_id=HARBOR, query="guardrail", cursor=cursor),
            Flags(),
        )


def test_a_query_with_only_a_modifier_matches_nothing(index: SearchIndex) -> None:
    assert index.candidates(HARBOR, "missing", fetch_cap=200) == []


def test_cursor_drift_moves_the_floor_and_overlaps_the_previous_page(index: SearchIndex) -> None:
    ctx = _context()
    first = search_photos(ctx, index, SearchPhotosArgs(project_id=HARBOR, query="rebar"), Flags())
    args = SearchPhotosArgs(project_id=HARBOR, query="rebar", cursor=first.structured["cursor"])
    second = search_photos(ctx, index, args, Flags(cursor_drift=True))
    assert second.accounting["total_lower_bound"] != first.accounting["total_lower_bound"]
    first_ids = {item["id"] for item in first.structured["items"]}
    assert first_ids & {item["id"] for item in second.structured["items"]}


# --- a date range on when a photo was taken ------------------------------------------------

MARCH = {"date_from": "2026-03-01", "date_to": "2026-03-31"}


def _march(cursor: str | None = None, **changed: str | None) -> SearchPhotosArgs:
    dates = {**MARCH, **changed}
    return SearchPhotosArgs.model_validate(
        {"project_id": HARBOR, "query": "scaffolding", "limit": 3, "cursor": cursor, **dates}
    )


def test_a_date_range_returns_only_the_matching_photos_taken_within_it(
    index: SearchIndex,
) -> None:
    start, end = "2026-03-04", "2026-03-23"
    everywhere = index.candidates(HARBOR, "scaffolding", fetch_cap=10_000)
    expected = {photo.id for _, photo in everywhere if start <= photo.taken_at <= end}
    assert 0 < len(expected) < len(everywhere)  # the range keeps some and drops some
    edges = {photo.taken_at for _, photo in everywhere if photo.id in expected}
    assert {start, end} <= edges  # photos taken on both edge days: inclusive at both ends
    args = SearchPhotosArgs(
        project_id=HARBOR, query="scaffolding", limit=50, date_from=start, date_to=end
    )
    out = search_photos(_context(), index, args, Flags())
    items = out.structured["items"]
    assert all(start <= item["taken_at"] <= end for item in items)
    assert {item["id"] for item in items} == expected
    bound, more = out.accounting["total_lower_bound"], out.accounting["has_more"]
    assert (bound, more) == (len(expected), False)


def test_a_date_range_with_no_photos_in_it_is_an_accounted_zero_hit_result(
    index: SearchIndex,
) -> None:
    assert not any(p.taken_at.startswith("2024") for p in build_corpus().photos)
    args = SearchPhotosArgs(
        project_id=HARBOR, query="scaffolding", date_from="2024-01-01", date_to="2024-12-31"
    )
    out = search_photos(_context(), index, args, Flags())
    assert out.structured["items"] == []
    assert out.accounting == {
        "result_kind": "search",
        "returned": 0,
        "total_lower_bound": 0,
        "has_more": False,
        "cursor": None,
    }
    assert "no matching photos" in out.text


@pytest.mark.parametrize(
    "dates",
    [
        pytest.param({"date_from": "2026-02-30"}, id="not-a-date"),
        pytest.param({"date_from": "2026-03-31", "date_to": "2026-03-01"}, id="reversed"),
        pytest.param({"date_to": "31/03/2026"}, id="not-iso"),
    ],
)
def test_a_bad_date_range_is_refused_by_the_schema(dates: dict[str, str]) -> None:
    with pytest.raises(ValidationError, match="date"):
        SearchPhotosArgs.model_validate({"project_id": HARBOR, "query": "scaffolding", **dates})


def test_a_search_cursor_is_bound_to_its_date_range(index: SearchIndex) -> None:
    ctx = _context()
    cursor = search_photos(ctx, index, _march(), Flags()).structured["cursor"]
    second = search_photos(ctx, index, _march(cursor), Flags()).structured["items"]
    assert second and all(item["taken_at"].startswith("2026-03") for item in second)
    for changed in ({"date_to": "2026-04-30"}, {"date_from": None, "date_to": None}):
        with pytest.raises(ToolError, match="different search"):
            search_photos(ctx, index, _march(cursor, **changed), Flags())
