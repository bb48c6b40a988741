"""Page stitching collects ids only; a violated invariant discards the stitch."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication import Anomaly, StitchResult, stitch_pages
from beacon.adjudication.stitch import page_ids
from beacon.wire.accounting import ACCOUNTING_META_KEY


def page(
    ids: list[str],
    *,
    total: int | None = 30,
    bound: int | None = None,
    has_more: bool = True,
    accounted: bool = True,
) -> dict[str, Any]:
    envelope: dict[str, Any] = {
        "result_kind": "search" if bound is not None else "rows",
        "returned": len(ids),
        "has_more": has_more,
        "cursor": "c",
    }
    envelope["total_lower_bound" if bound is not None else "total"] = (
        bound if bound is not None else total
    )
    records = [{"id": i} for i in ids]
    if not accounted:
        return {
            "content": [{"type": "text", "text": "rows"}],
            "structuredContent": {"items": records},
        }
    block = {"type": "text", "text": "rows", "_meta": {ACCOUNTING_META_KEY: envelope}}
    return {"content": [block], "structuredContent": {**envelope, "items": records}}


CASES: list[Any] = [
    pytest.param(
        [page(["a", "b"]), page(["c", "d"], has_more=False)],
        True,
        ("a", "b", "c", "d"),
        (),
        id="two-clean-pages-stitch",
    ),
    pytest.param(
        [page(["a", "b"]), page(["c"], total=31, has_more=False)],
        False,
        ("a", "b"),
        (Anomaly.TOTAL_CHANGED,),
        id="I-a-total-moved",
    ),
    pytest.param(
        [page(["a"], bound=30), page(["b"], has_more=False)],
        False,
        ("a",),
        (Anomaly.BOUND_STYLE_CHANGED,),
        id="I-a-bound-style-flipped",
    ),
    pytest.param(
        [page(["a", "b"]), page(["b", "c"], has_more=False)],
        False,
        ("a", "b"),
        (Anomaly.OVERLAPPING_IDS,),
        id="I-b-ids-overlap",
    ),
    pytest.param(
        [page(["a", "a"], has_more=False)],
        False,
        ("a", "a"),
        (Anomaly.OVERLAPPING_IDS,),
        id="I-b-duplicate-within-a-page",
    ),
    pytest.param(
        [page(["a"]), page(["b"], accounted=False)],
        False,
        ("a",),
        (Anomaly.UNACCOUNTED_PAGE,),
        id="unaccounted-page",
    ),
    pytest.param(
        [page(["a"], bound=40), page(["b"], bound=40, has_more=False)],
        True,
        ("a", "b"),
        (),
        id="lower-bound-pages-stitch",
    ),
]


@pytest.mark.parametrize(("pages", "ok", "ids", "anomalies"), CASES)
def test_the_stitch_follows_its_invariants(
    pages: list[dict[str, Any]], ok: bool, ids: tuple[str, ...], anomalies: tuple[Anomaly, ...]
) -> None:
    result = stitch_pages(pages)
    assert (result.ok, result.ids, result.anomalies) == (ok, ids, anomalies)
    assert result.disclose is (not ok)


def test_the_stitched_total_is_page_ones_population_never_a_page_sum() -> None:
    result = stitch_pages([page(["a", "b"], total=30), page(["c"], total=30, has_more=False)])
    assert result.total == 30 and not result.total_is_lower_bound and result.has_more is False
    bounded = stitch_pages([page(["a"], bound=40), page(["b"], bound=40)])
    assert bounded.total == 40 and bounded.total_is_lower_bound


def test_the_page_cap_stops_following_and_keeps_has_more() -> None:
    pages = [page([f"p{n}"]) for n in range(7)]
    result = stitch_pages(pages, page_cap=5)
    assert result.ok and result.pages_used == 5 and result.has_more
    assert result.ids == ("p0", "p1", "p2", "p3", "p4")
    assert result.anomalies == (Anomaly.PAGE_CAP_REACHED,)


def test_a_full_cap_of_pages_that_still_has_more_is_reported() -> None:
    result = stitch_pages([page(["a"]), page(["b"])], page_cap=2)
    assert result.anomalies == (Anomaly.PAGE_CAP_REACHED,) and result.has_more


def test_no_pages_is_not_a_stitch() -> None:
    result = stitch_pages([])
    assert not result.ok and result.anomalies == (Anomaly.NO_PAGES,) and result.total is None


def test_records_without_ids_cannot_be_stitched() -> None:
    broken = page(["a"])
    broken["structuredContent"]["items"].append({"title": "no id"})
    result = stitch_pages([broken, page(["b"], has_more=False)])
    assert not result.ok and Anomaly.MISSING_IDS in result.anomalies and result.ids == ()


def test_an_unaccounted_first_page_has_no_population() -> None:
    result = stitch_pages([page(["a"], accounted=False)])
    assert not result.ok and result.total is None and result.has_more


@pytest.mark.parametrize(
    ("payload", "ids"),
    [
        pytest.param({"structuredContent": {"rows": [{"id": "r1"}]}}, ["r1"], id="rows"),
        pytest.param({"structuredContent": {"items": "nope"}}, [], id="items-not-a-list"),
        pytest.param({"content": []}, [], id="no-structured-content"),
        pytest.param("not a dict", [], id="not-a-dict"),
        pytest.param({"structuredContent": {"items": ["bare"]}}, None, id="record-not-a-dict"),
    ],
)
def test_page_ids_come_from_structured_records_only(payload: Any, ids: list[str] | None) -> None:
    assert page_ids(payload) == ids


ids_strategy = st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=4)


@given(
    st.lists(
        st.tuples(ids_strategy, st.sampled_from([30, 31]), st.booleans()), min_size=1, max_size=6
    )
)
def test_a_violated_invariant_never_yields_a_blended_population(
    spec: list[tuple[list[str], int, bool]],
) -> None:
    pages = [page(ids, total=total, accounted=accounted) for ids, total, accounted in spec]
    result = stitch_pages(pages)
    first_ids, first_total, first_accounted = spec[0]
    if not result.ok:
        assert result.ids == tuple(first_ids)
        assert result.total == (first_total if first_accounted else None)
    else:
        assert len(set(result.ids)) == len(result.ids)
    assert result.total in (None, first_total)  # never a sum of page sizes


def test_no_pages_result_is_fully_empty() -> None:
    assert stitch_pages([]) == StitchResult(False, (), None, False, False, 0, (Anomaly.NO_PAGES,))


def test_exactly_the_cap_with_nothing_beyond_is_complete() -> None:
    pages = [page(["a"]), page(["b"], has_more=False)]
    result = stitch_pages(pages, page_cap=2)
    assert result == StitchResult(True, ("a", "b"), 30, False, False, 2, ())


def test_a_discarded_stitch_reports_page_one_in_full() -> None:
    moved = stitch_pages([page(["a"], bound=30, has_more=False), page(["b"], bound=31)])
    assert moved == StitchResult(False, ("a",), 30, True, True, 1, (Anomaly.TOTAL_CHANGED,))
    single = stitch_pages([page(["a", "a"], has_more=False)])
    assert single == StitchResult(
        False, ("a", "a"), 30, False, False, 1, (Anomaly.OVERLAPPING_IDS,)
    )


def test_an_unaccounted_last_page_leaves_has_more_open() -> None:
    result = stitch_pages([page(["a"], accounted=False)], page_cap=5)
    assert result.has_more and not result.total_is_lower_bound
    assert result.anomalies == (Anomaly.UNACCOUNTED_PAGE,)


def test_an_id_repeated_two_pages_later_is_an_overlap() -> None:
    pages = [page(["a"]), page(["b"]), page(["a"], has_more=False)]
    assert stitch_pages(pages).anomalies == (Anomaly.OVERLAPPING_IDS,)
