"""Load-more stays honest: the stub's real pages, stitched through the stored record.

Each test starts from a turn's page as the loop adjudicated it (the stub's
real first page), keeps the record the store would keep, and asks for the
next page from a fake upstream that answers with the stub's real next page.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import partial
from typing import Any, cast

import anyio
import pytest

from beacon.adjudication import Anomaly, PageSummary
from beacon.loop.evidence import Evidence, adjudicate
from beacon.loop.pages import fetch_more, has_more, page_record, serve_pending, stitch_next
from beacon.store.records import PageRecord
from beacon.upstream.mcp_client import McpUpstream, ToolOutcome
from beacon.wire.frames import MoreReply
from harness import producers

HARBOR = "prj-harbor-tower"
PHOTOS = {"project_id": HARBOR, "query": "missing hard hats"}
FINDINGS = {"project_id": "prj-maple-clinic", "limit": 20, "status": "open"}


def outcome(tool: str, arguments: dict[str, Any], mode: str = "ok") -> ToolOutcome:
    result = producers.tool_result(tool, arguments, mode)
    return ToolOutcome(tool, arguments, result, 200, len(json.dumps(result)))


def first_page(tool: str = "search_photos", arguments: dict[str, Any] = PHOTOS) -> Evidence:
    return adjudicate(
        outcome(tool, arguments), call_id="k1", slot="c1", sentinel=3000, project_id=HARBOR
    )


class Upstream:
    """Answers the one load-more call with the stub's page, rendered beforehand
    (the stub renders with an event loop of its own)."""

    def __init__(self, answer: ToolOutcome) -> None:
        self.answer = answer
        self.calls: list[dict[str, Any]] = []

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        self.calls.append(arguments)
        return self.answer


def more(
    record: PageRecord, mode: str = "ok", **kwargs: Any
) -> tuple[MoreReply, PageRecord, Upstream]:
    asked = {**record.arguments, "cursor": record.cursor}
    upstream = Upstream(outcome(record.tool, asked, mode))
    reply, updated = anyio.run(
        partial(
            fetch_more,
            cast(McpUpstream, upstream),
            record,
            turn_id="t_1",
            slot="c1",
            sentinel=3000,
            **kwargs,
        )
    )
    return reply, updated, upstream


def test_a_clean_next_page_adds_its_cards_and_keeps_the_population() -> None:
    record = page_record(first_page(), locale="en")
    reply, updated, _ = more(record)
    assert len(reply.citations) == 10 and not {c.id for c in reply.citations} & set(record.shown)
    assert (reply.count.total, reply.count.grade, reply.count.displayed) == (173, "LOWER_BOUND", 20)
    assert reply.count.more is True and reply.anomalies == [] and reply.notices == []
    assert len(updated.pages) == 2 and updated.anchors == ()


def test_a_drifting_next_page_is_set_aside_disclosed_and_anchored() -> None:
    record = page_record(first_page(), locale="en")
    reply, updated, _ = more(record, "cursor_drift")
    assert reply.citations == [] and "total_changed" in reply.anomalies
    (notice,) = reply.notices
    assert notice.kind == "disclosure" and "changed while paging" in notice.text
    assert reply.count.total == 173 and reply.count.displayed == 10  # page 1 only
    assert reply.count.more is False and updated.cursor is None
    (anchor,) = updated.anchors
    assert anchor["kind"] == "stitch_discarded" and anchor["slot"] == "c1"
    assert "total_changed" in anchor["anomalies"] and "first page only" in anchor["instruction"]
    assert updated.pages == record.pages  # the set-aside page is not kept


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        pytest.param("ko", "데이터가 바뀜", id="ko"),
        pytest.param("ja", "データが変わりました", id="ja"),
        pytest.param("de", "beim Blättern", id="de"),
        pytest.param("es", "mientras se paginaba", id="es"),
    ],
)
def test_the_disclosure_speaks_the_turns_locale(locale: str, words: str) -> None:
    record = page_record(first_page(), locale=locale)
    reply, _, _ = more(record, "cursor_drift")
    (notice,) = reply.notices
    assert words in notice.text


def test_a_failed_next_page_is_a_failure_notice_not_a_stitch() -> None:
    record = page_record(first_page(), locale="en")
    reply, updated, _ = more(record, "inband_502")
    assert reply.failed and reply.citations == [] and reply.anomalies == []
    (notice,) = reply.notices
    assert notice.kind == "failure" and "search_photos" in notice.text
    assert updated.cursor is None and reply.count.more is False


def _advanced(record: PageRecord, pages: int) -> PageRecord:
    """The record as it stands after ``pages`` clean pages (ids made up, totals equal)."""
    first = record.pages[0]
    extra = [
        PageSummary(total=first.total, bound=first.bound, ids=(f"x-{n}",), has_more=True)
        for n in range(pages - 1)
    ]
    return record.model_copy(update={"pages": (*record.pages, *extra)})


def test_the_fifth_page_that_still_has_more_stops_and_says_so() -> None:
    record = _advanced(page_record(first_page(), locale="en"), 4)
    reply, updated, _ = more(record)
    assert len(reply.citations) == 10 and reply.anomalies == ["page_cap_reached"]
    (notice,) = reply.notices
    assert notice.kind == "disclosure" and "5 pages" in notice.text
    assert reply.count.more is False and reply.count.has_more is True
    assert not has_more(updated) and updated.cursor is not None


def test_no_page_past_the_cap_is_offered() -> None:
    record = _advanced(page_record(first_page(), locale="en"), 5)
    assert not has_more(record)
    assert has_more(record, page_cap=6)  # the cap is configuration
    assert has_more(record.model_copy(update={"pending": (["ph-x", "t", None, None, None],)}))


def test_a_page_past_the_cap_is_set_aside_even_when_asked_for() -> None:
    record = _advanced(page_record(first_page(), locale="en"), 5)
    reply, updated, upstream = more(record)
    assert len(upstream.calls) == 1
    assert reply.citations == [] and reply.anomalies == ["page_cap_exceeded"]
    assert [n.kind for n in reply.notices] == ["disclosure"]
    assert updated.cursor is None and len(updated.pages) == 5


def test_a_stitch_onto_a_record_at_its_cap_is_discarded() -> None:
    evidence = first_page()
    record = page_record(evidence, locale="en")
    nxt = stitch_next(record, evidence, slot="c1", page_cap=1)
    assert not nxt.stitch.ok and nxt.stitch.anomalies[-1] is Anomaly.PAGE_CAP_EXCEEDED
    assert nxt.record.cursor is None


def test_a_page_kept_without_a_summary_is_weighed_as_unaccounted() -> None:
    evidence = first_page()
    record = page_record(evidence, locale="en")
    nxt = stitch_next(record, replace(evidence, page=None), slot="c1")
    assert not nxt.stitch.ok and Anomaly.UNACCOUNTED_PAGE in nxt.stitch.anomalies


def test_pending_cards_carry_the_turns_count_entry_forward() -> None:
    evidence = adjudicate(
        outcome("list_annotations", FINDINGS),
        call_id="k1",
        slot="c1",
        sentinel=3000,
        project_id="prj-maple-clinic",
    )
    turn_entry = evidence.count_entry()
    record = page_record(evidence, locale="en")
    served = serve_pending(record, turn_id="t_1", slot="c1")
    assert served is not None
    reply, updated = served
    assert [c.id for c in reply.citations] == list(updated.shown[10:])
    assert reply.count.model_dump(exclude={"displayed"}) == turn_entry.model_dump(
        exclude={"displayed"}
    )
    assert (turn_entry.total, turn_entry.grade, reply.count.displayed) == (41, "EXACT", 20)


def test_a_record_saved_before_this_shape_still_serves() -> None:
    """Older records kept page dicts without the turn's total or locale."""
    legacy = {
        "tool": "search_photos",
        "arguments": PHOTOS,
        "cursor": "c",
        "pages": [{"total": 173, "bound": True, "ids": ["ph-1"], "has_more": True, "returned": 1}],
        "shown": ["ph-1"],
        "pending": [["ph-2", "Hard hat", None, "Level 3", None]],
        "grade": "LOWER_BOUND",
        "has_more": True,
    }
    served = serve_pending(PageRecord.model_validate(legacy), turn_id="t_1", slot="c1")
    assert served is not None
    assert (served[0].count.total, served[0].count.displayed) == (173, 2)
