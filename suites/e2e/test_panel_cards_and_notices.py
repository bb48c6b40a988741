"""What the panel draws under an answer, in real Chromium against routed ``/v1/turns``
answers: citation cards with the host's link, untrusted text as text, notices and
the options that send their reply."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from panel_routing import (
    PIXEL,
    START,
    ask,
    citation,
    done,
    request_body,
    sse_body,
    wait_for_the_turn_to_end,
)
from playwright.sync_api import Page, Request, expect

from harness.browser import PageLog

pytestmark = pytest.mark.browser


def test_notice_frames_show_their_text_and_options_send_their_reply(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    sent = routed_turn(
        sse_body(
            [
                START,
                (
                    "notice",
                    {
                        "kind": "counter_question",
                        "text": "Which project do you mean?",
                        "options": [
                            {"label": "Harbor Tower", "reply": "Harbor Tower", "recommended": True},
                            {
                                "label": "All my projects",
                                "reply": "all projects",
                                "recommended": False,
                            },
                        ],
                    },
                ),
                done(),
            ]
        )
    )
    ask(page)

    notice = page.get_by_test_id("notice")
    expect(notice).to_have_attribute("data-kind", "counter_question")
    expect(notice).to_contain_text("Which project do you mean?")
    expect(page.get_by_test_id("option")).to_have_count(2)
    with page.expect_response("**/v1/turns"):
        page.get_by_test_id("option").first.click()
    wait_for_the_turn_to_end(page)
    assert len(sent) == 2
    assert request_body(sent[1])["message"] == "Harbor Tower"


def test_untrusted_text_is_drawn_as_text_and_unsafe_links_are_dropped(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]]
) -> None:
    markup = '<img src=x onerror="window.__pwned=1"><b>bold</b>'
    hostile = {
        **citation(0),
        "title": markup,
        "deep_link": "javascript:window.__pwned=2",
        "target": {"kind": "photo", "id": "javascript:window.__pwned=3"},
    }
    routed_turn(
        sse_body(
            [
                START,
                ("references", {"citations": [hostile], "counts": [], "complete": True}),
                ("delta", {"text": markup}),
                done(),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("prose")).to_have_text(markup)
    card = page.get_by_test_id("citation-card")
    expect(card).to_contain_text(markup)
    assert page.locator('[data-testid="prose"] img, [data-testid="citation-card"] b').count() == 0
    # The server's link is never followed, and the host's URL for the target is a path.
    hrefs = card.locator("a").evaluate_all("links => links.map((a) => a.getAttribute('href'))")
    origin = page.evaluate("location.origin")
    assert hrefs == [f"{origin}/hosts/viewer/?photo=javascript%3Awindow.__pwned%3D3"]
    assert page.evaluate("window.__pwned") is None
    assert page_log.errors == []


def test_citation_cards_carry_thumbnail_title_level_date_and_a_link_the_host_built(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    cited = {**citation(3), "thumbnail": PIXEL}
    routed_turn(
        sse_body(
            [
                START,
                ("references", {"citations": [cited], "counts": [], "complete": True}),
                done(),
            ]
        )
    )
    ask(page)

    card = page.get_by_test_id("citation-card")
    expect(card.locator("img")).to_have_attribute("alt", cited["title"])
    expect(card.locator("a")).to_have_text(cited["title"])
    # Standalone, the panel's own host builds the URL from the target: the demo viewer.
    expect(card.locator("a")).to_have_attribute(
        "href",
        re.compile(
            r"^http://[^/]+/hosts/viewer/\?project=prj-harbor-tower&annotation=ann-0003&level=3$"
        ),
    )
    expect(card).to_contain_text("Level 3")
    expect(card).to_contain_text(cited["date"])
