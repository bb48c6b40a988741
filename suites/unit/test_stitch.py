"""Page stitching collects ids only; a violated invariant discards the stitch."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from beacon.adjudication import Anomaly, StitchResult, stitch_pages
from beacon.adjudication.stitch import page_ids, summarize_page
from beacon.wire.accounting import ACCOUNTING_META_KEY, PageSummary


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


def test_a_page_past_the_cap_discards_the_stitch_and_keeps_has_more() -> None:
    pages = [page([f"p{n}"]) for n in range(7)]
    result = stitch_pages(pages, page_cap=5)
    assert result == StitchResult(False, ("p0",), 30, False, True, 1, (Anomaly.PAGE_CAP_EXCEEDED,))


def test_pages_past_the_cap_are_held_to_both_invariants() -> None:
    clean = [page([f"p{n}"]) for n in range(5)]
    moved = page(["p0", "p9"], total=31)  # page 6: the total moved and an id repeats
    result = stitch_pages([*clean, moved], page_cap=5)
    assert not result.ok and result.ids == ("p0",)
    assert result.anomalies == (
        Anomaly.TOTAL_CHANGED,
        Anomaly.OVERLAPPING_IDS,
        Anomaly.PAGE_CAP_EXCEEDED,
    )


@pytest.mark.parametrize(
    ("given", "cap", "ok"),
    [
        pytest.param(7, 7, True, id="seven-pages-under-a-cap-of-seven"),
        pytest.param(3, 2, False, id="three-pages-over-a-cap-of-two"),
    ],
)
def test_the_page_cap_is_a_parameter_enforced_on_every_stitch(
    given: int, cap: int, ok: bool
) -> None:
    pages = [page([f"p{n}"]) for n in range(given - 1)] + [page(["last"], has_more=False)]
    result = stitch_pages(pages, page_cap=cap)
    assert result.ok is ok
    assert result.pages_used == (given if ok else 1)


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


def test_six_pages_are_one_past_the_default_cap() -> None:
    pages = [page([f"p{n}"]) for n in range(5)] + [page(["p5"], has_more=False)]
    result = stitch_pages(pages)
    assert not result.ok and result.anomalies == (Anomaly.PAGE_CAP_EXCEEDED,)


@given(st.integers(min_value=1, max_value=6), st.integers(min_value=1, max_value=4))
def test_a_stitch_longer_than_its_cap_is_never_ok(cap: int, extra: int) -> None:
    pages = [page([f"p{n}"], has_more=n < cap + extra - 1) for n in range(cap + extra)]
    result = stitch_pages(pages, page_cap=cap)
    assert not result.ok and Anomaly.PAGE_CAP_EXCEEDED in result.anomalies
    assert result.ids == ("p0",) and result.pages_used == 1


@pytest.mark.parametrize(
    ("payload", "summary"),
    [
        pytest.param(
            page(["a", "b"], total=30),
            PageSummary(total=30, bound=False, ids=("a", "b"), has_more=True, returned=2),
            id="an-exact-total",
        ),
        pytest.param(
            page(["a"], bound=40, has_more=False),
            PageSummary(total=40, bound=True, ids=("a",), has_more=False, returned=1),
            id="a-lower-bound",
        ),
        pytest.param(
            page(["a"], accounted=False),
            PageSummary(total=None, bound=False, ids=("a",), has_more=True, returned=0),
            id="no-accounting-says-nothing-of-later-pages",
        ),
        pytest.param(
            {"structuredContent": {"items": [{"id": "a"}, {"title": "no id"}]}},
            PageSummary(total=None, bound=False, ids=None, has_more=True, returned=0),
            id="a-record-without-an-id",
        ),
    ],
)
def test_a_result_is_summarised_from_its_envelope_and_record_ids(
    payload: dict[str, Any], summary: PageSummary
) -> None:
    assert summarize_page(payload) == summary
    assert summary.accounted is (summary.total is not None)


def test_stored_page_summaries_stitch_without_a_result_around_them() -> None:
    first = PageSummary(total=12, ids=("a", "b"), has_more=True, returned=2)
    second = PageSummary(total=12, ids=("c",), has_more=False, returned=1)
    assert stitch_pages([first, second]) == StitchResult(
        True, ("a", "b", "c"), 12, False, False, 2, ()
    )
    moved = PageSummary(total=13, ids=("c",), has_more=False, returned=1)
    assert stitch_pages([first, moved]).anomalies == (Anomaly.TOTAL_CHANGED,)


def test_a_stored_summary_and_a_fresh_result_stitch_together() -> None:
    stored = PageSummary(total=30, ids=("a",), has_more=True, returned=1)
    result = stitch_pages([stored, page(["b"], has_more=False)])
    assert (result.ok, result.ids, result.total) == (True, ("a", "b"), 30)
    overlap = stitch_pages([stored, page(["a"], has_more=False)])
    assert overlap.anomalies == (Anomaly.OVERLAPPING_IDS,)


def test_a_page_summary_round_trips_through_json_as_the_store_keeps_it() -> None:
    kept = {"total": 189, "bound": True, "ids": ["ph-1", "ph-2"], "has_more": True, "returned": 2}
    summary = PageSummary.model_validate(kept)
    assert summary == PageSummary(
        total=189, bound=True, ids=("ph-1", "ph-2"), has_more=True, returned=2
    )
    assert summary.model_dump(mode="json") == kept
