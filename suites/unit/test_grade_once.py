"""A count is graded once, at adjudication, before any frame shows it.

The stub's real pages, adjudicated as a narrowed call is: a scope that came
back as one page with nothing beyond it is EXACT from the start, so the
``tool_result`` frame (which shows ``verdict.grade``), the ``references``
count entry and the load-more record all carry the same grade.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from beacon.adjudication import Basis, Grade
from beacon.loop.evidence import Evidence, adjudicate, count_entry
from beacon.loop.pages import page_record
from beacon.upstream.mcp_client import ToolOutcome
from harness import producers

HARBOR = "prj-harbor-tower"
HARD_HATS = {"project_id": HARBOR, "query": "missing hard hats"}
# In the stub's corpus, level 5 holds 7 such photos (one page, nothing beyond it);
# level 2 holds more than one page of them.
WHOLE_LEVEL = {**HARD_HATS, "level_number": 5}
PARTIAL_LEVEL = {**HARD_HATS, "level_number": 2}


def adjudicated(arguments: dict[str, Any], *, narrowed: bool, mode: str = "ok") -> Evidence:
    result = producers.tool_result("search_photos", arguments, mode)
    outcome = ToolOutcome("search_photos", arguments, result, 200, len(json.dumps(result)))
    return adjudicate(
        outcome,
        call_id="k1",
        slot="c1",
        sentinel=3000,
        project_id=HARBOR,
        narrowed=narrowed,
        card_limit=50,
    )


def test_a_narrowed_scope_that_fit_one_page_is_exact_when_adjudicated() -> None:
    evidence = adjudicated(WHOLE_LEVEL, narrowed=True)
    assert (evidence.verdict.grade, evidence.verdict.value) == (Grade.EXACT, 7)
    assert evidence.verdict.basis is Basis.NARROWED_PAGE and evidence.verdict.has_more is False
    entry = evidence.count_entry()
    assert (entry.grade, entry.total, entry.total_is_lower_bound) == ("EXACT", 7, False)


def test_the_same_page_outside_a_narrowing_stays_a_lower_bound() -> None:
    evidence = adjudicated(WHOLE_LEVEL, narrowed=False)
    assert (evidence.verdict.grade, evidence.verdict.value) == (Grade.LOWER_BOUND, 7)
    assert evidence.count_entry().grade == "LOWER_BOUND"


@pytest.mark.parametrize(
    ("arguments", "mode"),
    [
        pytest.param(PARTIAL_LEVEL, "ok", id="more-beyond-the-page"),
        pytest.param(WHOLE_LEVEL, "zero_hits", id="nothing-matched"),
    ],
)
def test_a_narrowed_page_with_more_beyond_or_nothing_in_it_is_not_promoted(
    arguments: dict[str, Any], mode: str
) -> None:
    evidence = adjudicated(arguments, narrowed=True, mode=mode)
    assert evidence.verdict.grade is Grade.LOWER_BOUND
    assert evidence.verdict.basis is Basis.UPSTREAM_BOUND


def test_the_load_more_record_keeps_the_grade_the_frames_showed() -> None:
    evidence = adjudicated(PARTIAL_LEVEL, narrowed=True)
    record = page_record(evidence, locale="en")
    entry = evidence.count_entry()
    assert (record.grade, record.total, record.has_more) == (
        entry.grade,
        entry.total,
        entry.has_more,
    )


@pytest.mark.parametrize(
    ("grade", "value", "total", "bound"),
    [
        pytest.param(Grade.EXACT, 42, 42, False, id="exact"),
        pytest.param(Grade.LOWER_BOUND, 3000, 3000, True, id="lower-bound"),
        pytest.param(Grade.UNKNOWN, 12, None, False, id="unknown-carries-no-number"),
        pytest.param(Grade.EXACT, 4.0, 4, False, id="an-aggregate-float-is-a-whole-count"),
        pytest.param(Grade.SHOWN, None, None, False, id="no-value"),
    ],
)
def test_a_count_entry_carries_only_the_number_its_grade_permits(
    grade: Grade, value: float | None, total: int | None, bound: bool
) -> None:
    entry = count_entry("query_data", "c3", grade, value, displayed=2, has_more=True, more=False)
    assert (entry.total, entry.total_is_lower_bound, entry.grade) == (total, bound, grade.value)
    assert (entry.source, entry.slot, entry.displayed, entry.has_more, entry.more) == (
        "query_data",
        "c3",
        2,
        True,
        False,
    )
