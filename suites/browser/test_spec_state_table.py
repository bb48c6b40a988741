"""Spec 16: the panel state table's illegal transitions are refused — every row
through the modules the chat server serves, in Chromium, and a real turn
whose stream is followed by frames no legal state accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect
from spec_helpers import HOW_MANY, ask, open_surface

from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
DRIVER = Path(__file__).with_name("table_driver.js").read_text()


def test_every_illegal_row_of_the_panel_state_table_is_refused_in_the_served_panel(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    rows = page.evaluate(DRIVER, f"{stack.chat_url}/panel/")

    illegal = [r for r in rows if not r["legal"]]
    assert len(rows) == 231 and len(illegal) > len(rows) / 2
    wrong = [r["id"] for r in illegal if not r["untouched"] or r["stepReason"] != r["reason"]]
    assert wrong == []
    moved = [r["id"] for r in rows if r["legal"] and r["reachedPhase"] != r["expectedTo"]]
    assert moved == []


def test_frames_after_a_real_turns_terminal_are_refused_and_never_drawn(
    stack: Stack, token: str, page: Page
) -> None:
    def append_illegal_frames(route: Route) -> None:
        response = route.fetch(timeout=30_000)
        text = response.text()
        turn_id = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])["turn_id"]
        late = [
            ("delta", {"text": " LEAKED"}),
            ("notice", {"kind": "disclosure", "text": "LEAKED", "options": []}),
            ("done", {"finish_reason": "stop", "answer": "LEAKED"}),
        ]
        tail = "".join(
            f"event: {kind}\nid: {900 + i}\ndata: "
            f"{json.dumps({'turn_id': turn_id, 'seq': 900 + i, **data})}\n\n"
            for i, (kind, data) in enumerate(late)
        )
        route.fulfill(response=response, body=text + tail)

    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.route("**/v1/turns", append_illegal_frames)
    open_surface(page, stack, token)
    ask(page, HOW_MANY)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    assert "LEAKED" not in page.get_by_test_id("prose").inner_text()
    expect(page.get_by_test_id("notice")).to_have_count(0)
    assert sum("after-terminal" in w for w in warnings) == 2, warnings
    assert sum("duplicate-terminal" in w for w in warnings) == 1, warnings
