"""The answer's shown-set sentence is marked where ``done.shown_spans`` says it is, and
a load-more re-renders that number there — the panel reads spans, not the prose
(issue 29). Debian's Chromium against ``beacon up``."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, Route, expect
from spec_helpers import PHOTOS, ask, open_surface

from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def test_the_shown_set_sentence_is_marked_and_its_number_follows_load_more(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)
    sentence, number = page.get_by_test_id("shown-set"), page.get_by_test_id("shown-slot")
    expect(sentence).to_have_count(1)
    expect(sentence).to_have_text("These 10 are shown as cards.")
    expect(number).to_have_text("10")
    expect(page.get_by_test_id("citation-card")).to_have_count(10)

    with page.expect_response(lambda r: r.url.endswith("/more")) as answered:
        page.get_by_test_id("load-more").click()
    assert answered.value.status == 200
    expect(page.get_by_test_id("citation-card")).to_have_count(20)
    expect(number).to_have_text("20")
    expect(sentence).to_have_text("These 20 are shown as cards.")
    assert "These 20 are shown as cards." in page.get_by_test_id("prose").inner_text()


def test_the_panel_marks_the_span_the_server_sent_not_a_number_it_finds(
    stack: Stack, token: str, page: Page
) -> None:
    """A done frame whose span marks "Harbor" (not a number at all): the panel marks
    exactly that, so nothing but the span decides what is highlighted."""

    def moved_span(route: Route) -> None:
        response = route.fetch(timeout=30_000)
        blocks = []
        for block in response.text().split("\n\n"):
            if block.startswith("event: done") or "\nevent: done" in block:
                head, _, data = block.rpartition("data: ")
                frame = json.loads(data)
                start = frame["answer"].index("Harbor")
                end = frame["answer"].index(".") + 1
                frame["shown_spans"] = [
                    {
                        "slot": "c1",
                        "start": start,
                        "end": start + len("Harbor"),
                        "sentence_start": start,
                        "sentence_end": end,
                    }
                ]
                block = head + "data: " + json.dumps(frame)
            blocks.append(block)
        route.fulfill(response=response, body="\n\n".join(blocks))

    page.route("**/v1/turns", moved_span)
    open_surface(page, stack, token)
    ask(page, PHOTOS)
    expect(page.get_by_test_id("shown-slot")).to_have_text("Harbor")
    expect(page.get_by_test_id("shown-set")).to_have_text(
        'Harbor Tower has at least 173 photos matching "missing hard hats".'
    )
