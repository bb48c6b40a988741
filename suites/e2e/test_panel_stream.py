"""The panel reading a turn's stream in real Chromium against routed ``/v1/turns``
answers: frames out of order refused, the terminal final, an error or a missing
terminal a failure, and the SSE parser whole across any chunk split."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from panel_routing import START, ask, count, done, references, sse_body
from playwright.sync_api import Page, Request, expect

from harness.browser import PageLog

pytestmark = pytest.mark.browser


def test_frames_after_done_are_not_drawn(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(
        sse_body(
            [
                START,
                references([count("EXACT", 42, displayed=2)], cited=2),
                ("delta", {"text": "There are exactly 42."}),
                done(),
                ("delta", {"text": " LEAKED"}),
                references([count("LOWER_BOUND", 3000)], cited=9),
                ("notice", {"kind": "disclosure", "text": "LEAKED notice", "options": []}),
                ("error", {"code": "late_error", "message": "LEAKED error"}),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    expect(page.get_by_test_id("prose")).to_have_text("There are exactly 42.")
    expect(page.get_by_test_id("count-line")).to_have_text("exactly 42 — showing 2")
    expect(page.get_by_test_id("citation-card")).to_have_count(2)
    expect(page.get_by_test_id("notice")).to_have_count(0)
    warnings = page_log.warnings()
    assert sum("after-terminal" in w for w in warnings) == 3, warnings
    assert sum("duplicate-terminal" in w for w in warnings) == 1, warnings


def test_frames_before_start_are_refused(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(
        sse_body(
            [
                ("delta", {"text": "EARLY "}),
                references([count("EXACT", 99)], cited=1),
                START,
                ("delta", {"text": "On time."}),
                done(),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("prose")).to_have_text("On time.")
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("citation-card")).to_have_count(0)
    assert any("delta-before-start" in w for w in page_log.warnings())
    assert any("references-before-start" in w for w in page_log.warnings())


def test_a_stream_that_ends_without_a_terminal_is_a_failure(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(sse_body([START, ("delta", {"text": "Half an ans"})]))
    ask(page)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")
    expect(page.locator('[data-testid="notice"][data-kind="error"]')).to_have_attribute(
        "data-code", "unterminated"
    )


def test_an_error_frame_shows_its_code_and_message(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(
        sse_body(
            [
                START,
                ("error", {"code": "upstream_unavailable", "message": "The tool server is down."}),
            ]
        )
    )
    ask(page)

    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    expect(notice).to_have_attribute("data-code", "upstream_unavailable")
    expect(notice).to_contain_text("upstream_unavailable")
    expect(notice).to_contain_text("The tool server is down.")
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")


# Every split of a CRLF stream into two chunks, including between \r and \n.
SPLIT_PROBE = """async (text) => {
  const { SseParser } = await import(new URL("sse.js", document.baseURI).href);
  const seen = [];
  for (let cut = 0; cut <= text.length; cut += 1) {
    const parser = new SseParser();
    const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut)),
                    ...parser.end()];
    seen.push(JSON.stringify(events));
  }
  return [...new Set(seen)];
}"""


def test_sse_parser_reassembles_frames_split_across_chunks(page: Page, panel_origin: str) -> None:
    page.goto(f"{panel_origin}/panel/")
    text = (
        ': comment\r\n\r\nevent: start\r\nid: 1\r\ndata: {"seq":1}\r\n\r\n'
        "event: delta\nid: 2\ndata: line one\ndata: line two\n\n"
        "event: done\rid: 3\rdata: {}\r\r"
        "event: delta\ndata: never terminated\n"
    )
    distinct = page.evaluate(SPLIT_PROBE, text)

    assert len(distinct) == 1, distinct
    assert json.loads(distinct[0]) == [
        {"event": "start", "id": "1", "data": '{"seq":1}'},
        {"event": "delta", "id": "2", "data": "line one\nline two"},
        {"event": "done", "id": "3", "data": "{}"},
    ]
