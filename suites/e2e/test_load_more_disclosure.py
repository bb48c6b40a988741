"""The panel shows what a load-more reply disclosed, in real Chromium.

``/v1/turns`` and ``/v1/turns/{id}/more`` are answered with canned bodies:
a sample with a next page, then a reply whose page the stitcher set aside.
The card the reply earned must be on screen, not only in the JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from harness.browser import PageLog

pytestmark = pytest.mark.browser

TURN = "t_routed_more_1"
TOKEN = "routed-test-bearer-more"
SETTLED = re.compile("^(complete|complete-sample|empty-with-standing|unknown|denied|failed)$")
SET_ASIDE = "The next page did not match the earlier ones, so it was set aside."


def _citation(i: int) -> dict[str, Any]:
    return {
        "id": f"ph-{i:06d}",
        "source": "search_photos",
        "kind": "photo",
        "title": f"Missing hard hat #{i}",
        "deep_link": f"/projects/prj-harbor-tower/photos/ph-{i:06d}",
        "thumbnail": None,
        "level": "Level 3",
        "date": "2026-03-01",
    }


def _count(displayed: int, more: bool) -> dict[str, Any]:
    return {
        "source": "search_photos",
        "slot": "c1",
        "displayed": displayed,
        "total": 173,
        "total_is_lower_bound": True,
        "has_more": True,
        "grade": "LOWER_BOUND",
        "more": more,
    }


def _sse(frames: list[tuple[str, dict[str, Any]]]) -> str:
    lines = []
    for seq, (event, data) in enumerate(frames, start=1):
        payload = {"turn_id": TURN, "seq": seq, **data}
        lines.append(f"event: {event}\r\nid: {seq}\r\ndata: {json.dumps(payload)}\r\n\r\n")
    return "".join(lines)


SAMPLE = _sse(
    [
        ("start", {"session_id": None, "mode": "single"}),
        (
            "references",
            {
                "citations": [_citation(i) for i in range(10)],
                "counts": [_count(10, more=True)],
                "complete": False,
            },
        ),
        ("done", {"finish_reason": "stop", "answer": ""}),
    ]
)


def _open(page: Page, panel_origin: str, more_reply: dict[str, Any]) -> None:
    def turns(route: Route) -> None:
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=SAMPLE)

    def more(route: Route) -> None:
        route.fulfill(
            status=200, headers={"Content-Type": "application/json"}, body=json.dumps(more_reply)
        )

    page.route("**/v1/turns", turns)
    page.route(f"**/v1/turns/{TURN}/more", more)
    page.goto(f"{panel_origin}/panel/?token={TOKEN}")
    page.get_by_test_id("question").fill("Photos of missing hard hats in Harbor Tower")
    page.get_by_test_id("send").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", SETTLED)


def test_a_set_aside_page_is_disclosed_as_a_notice_card(
    page: Page, page_log: PageLog, panel_origin: str
) -> None:
    _open(
        page,
        panel_origin,
        {
            "turn_id": TURN,
            "slot": "c1",
            "citations": [],
            "count": _count(10, more=False),
            "anomalies": ["total_changed"],
            "failed": False,
            "notices": [{"kind": "disclosure", "text": SET_ASIDE}],
        },
    )
    expect(page.get_by_test_id("notice")).to_have_count(0)
    with page.expect_response(f"**/v1/turns/{TURN}/more"):
        page.get_by_test_id("load-more").click()

    notice = page.get_by_test_id("notice")
    expect(notice).to_have_count(1)
    expect(notice).to_have_attribute("data-kind", "disclosure")
    expect(notice).to_have_text(SET_ASIDE)
    expect(page.get_by_test_id("citation-card")).to_have_count(10)
    expect(page.get_by_test_id("load-more")).to_be_hidden()
    assert page_log.errors == []


def test_a_clean_page_adds_cards_and_no_notice(
    page: Page, page_log: PageLog, panel_origin: str
) -> None:
    _open(
        page,
        panel_origin,
        {
            "turn_id": TURN,
            "slot": "c1",
            "citations": [_citation(i) for i in range(10, 20)],
            "count": _count(20, more=True),
            "anomalies": [],
            "failed": False,
            "notices": [],
        },
    )
    with page.expect_response(f"**/v1/turns/{TURN}/more"):
        page.get_by_test_id("load-more").click()

    expect(page.get_by_test_id("citation-card")).to_have_count(20)
    expect(page.get_by_test_id("notice")).to_have_count(0)
    assert page_log.errors == []
