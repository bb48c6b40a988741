"""Which boundaries the live sweep checks, and how a tool list and a configured sentinel
are judged (``harness.live_sweep``), without an upstream."""

from __future__ import annotations

from pathlib import Path

import pytest

from beacon.cli.report import duration_seconds
from boundaries import Boundary, load_registry
from harness.checks.base import CheckContext
from harness.checks.wire import judge_tool_result
from harness.live_sweep import held_to, judge_tool_list, live_rows
from harness.refs import CheckFailed

ROOT = Path(__file__).resolve().parents[2]
SENTINEL_ROW = "mirror:sentinel-equals-upstream-cap"
TEN_TOOLS = {
    "search_photos",
    "query_data",
    "list_projects",
    "get_project",
    "list_levels",
    "get_capture",
    "list_annotations",
    "search_documents",
    "get_progress_summary",
    "get_clash_report",
}


def _row(boundary_id: str) -> Boundary:
    return next(b for b in load_registry(ROOT).boundaries if b.id == boundary_id)


def test_the_live_rows_are_the_tool_results_the_sentinel_the_tool_lists_and_the_cursor_walk() -> (
    None
):
    ids = {b.id for b in live_rows(load_registry(ROOT).boundaries)}
    assert ids == {
        *(f"wire:tool-result:{tool}" for tool in TEN_TOOLS),
        SENTINEL_ROW,
        "mirror:tool-capability-map",
        "mirror:result-contract-tools",
        "seam:stub-pages>stitcher",
    }


def test_the_fault_rows_stay_in_process() -> None:
    ids = {b.id for b in live_rows(load_registry(ROOT).boundaries)}
    assert "wire:fault:cursor-rejected" not in ids


def test_a_tool_list_without_a_pinned_tool_drifts_naming_it() -> None:
    with pytest.raises(CheckFailed, match="no longer lists get_clash_report"):
        judge_tool_list(_row("mirror:tool-capability-map"), TEN_TOOLS - {"get_clash_report"})


def test_an_extra_tool_drifts_the_exact_map_but_not_the_contracted_subset() -> None:
    listed = TEN_TOOLS | {"get_weather"}
    judge_tool_list(_row("mirror:result-contract-tools"), listed)
    with pytest.raises(CheckFailed, match="get_weather"):
        judge_tool_list(_row("mirror:tool-capability-map"), listed)


def _saturated(total: int) -> dict[str, object]:
    return {
        "structuredContent": {
            "result_kind": "rows",
            "returned": total,
            "total": total,
            "has_more": False,
        }
    }


def test_the_live_upstream_is_held_to_the_sentinel_this_beacon_is_configured_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    row = _row(SENTINEL_ROW)
    ctx = CheckContext(ROOT, row.id)
    monkeypatch.setenv("BEACON_ROW_CAP_SENTINEL", "4000")
    judge_tool_result(_saturated(4000), row.check, ctx, held_to)
    with pytest.raises(CheckFailed, match="upstream sent 3000"):
        judge_tool_result(_saturated(3000), row.check, ctx, held_to)


def test_without_configuration_the_shipped_sentinel_of_3000_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    row = _row(SENTINEL_ROW)
    monkeypatch.delenv("BEACON_ROW_CAP_SENTINEL", raising=False)
    judge_tool_result(_saturated(3000), row.check, CheckContext(ROOT, row.id), held_to)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        pytest.param("30s", 30.0, id="seconds"),
        pytest.param("15m", 900.0, id="minutes"),
        pytest.param("1.5h", 5400.0, id="fractional-hours"),
        pytest.param("soon", None, id="not-a-duration"),
    ],
)
def test_a_watch_interval_reads_as_seconds(text: str, seconds: float | None) -> None:
    assert duration_seconds(text) == seconds
