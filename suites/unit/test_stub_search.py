"""The photo search stand-in: keyword concepts, a fetch cap, and a lower bound."""

from __future__ import annotations

import re

import pytest

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
