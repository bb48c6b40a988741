"""The panel's count line in real Chromium against routed ``/v1/turns`` answers: drawn
only from the ``references`` frame, worded as the grade permits, hidden when unknown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from panel_routing import START, ask, count, done, plan_and_gather, references, sse_body
from playwright.sync_api import Page, Request, expect

from harness.browser import PageLog

pytestmark = pytest.mark.browser


def test_count_line_is_drawn_only_from_the_references_frame(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]], screenshots: Path
) -> None:
    narration = "Of the findings on level 3, 7 are shown here; there are 42 in all."
    routed_turn(
        sse_body(
            [
                START,
                *plan_and_gather(),
                references([count("EXACT", 42, displayed=10)], cited=10),
                ("delta", {"text": narration[:30]}),
                ("delta", {"text": narration[30:]}),
                done(narration),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("count-line")).to_have_text("exactly 42 — showing 10")
    expect(page.get_by_test_id("count-line")).to_have_attribute("data-grade", "EXACT")
    expect(page.get_by_test_id("citation-card")).to_have_count(10)
    expect(page.get_by_test_id("prose")).to_have_text(narration)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    expect(page.get_by_test_id("notice")).to_have_count(0)
    assert page_log.errors == []
    page.screenshot(path=str(screenshots / "panel-routed-exact.png"), full_page=True)


def test_prose_alone_never_draws_a_count_line(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(sse_body([START, ("delta", {"text": "There are exactly 42 findings."}), done()]))
    ask(page)

    expect(page.get_by_test_id("prose")).to_have_text("There are exactly 42 findings.")
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("count-line")).to_have_text("")


@pytest.mark.parametrize(
    ("counts", "cited", "line"),
    [
        pytest.param([count("EXACT", 3000)], 0, "exactly 3,000", id="exact-without-cards"),
        pytest.param([count("EXACT", 4)], 4, "exactly 4", id="exact-all-shown"),
        pytest.param(
            [count("LOWER_BOUND", 3000, 10)],
            10,
            "at least 3,000 — showing 10",
            id="lower-bound-with-cards",
        ),
        pytest.param([count("LOWER_BOUND", 189)], 0, "at least 189", id="lower-bound-no-cards"),
        pytest.param([count("SHOWN", None, 4)], 4, "these 4", id="shown-is-the-cards"),
        pytest.param(
            [count("EXACT", 5, 2), count("LOWER_BOUND", 900)],
            2,
            "exactly 5 — showing 2",
            id="first-count-is-primary",
        ),
    ],
)
def test_count_line_says_what_the_grade_permits(
    page: Page,
    routed_turn: Callable[..., list[Request]],
    counts: list[dict[str, Any]],
    cited: int,
    line: str,
) -> None:
    routed_turn(sse_body([START, references(counts, cited), done()]))
    ask(page)

    expect(page.get_by_test_id("count-line")).to_be_visible()
    expect(page.get_by_test_id("count-line")).to_have_text(line)
    expect(page.get_by_test_id("citation-card")).to_have_count(cited)


@pytest.mark.parametrize(
    "counts",
    [
        pytest.param([count("UNKNOWN", None)], id="unknown"),
        pytest.param([count("UNKNOWN", 42)], id="unknown-even-with-a-total"),
        pytest.param([], id="no-counts"),
    ],
)
def test_an_unknown_count_hides_the_count_line(
    page: Page, routed_turn: Callable[..., list[Request]], counts: list[dict[str, Any]]
) -> None:
    routed_turn(sse_body([START, references(counts, 3), done()]))
    ask(page)

    expect(page.get_by_test_id("citation-card")).to_have_count(3)
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("count-line")).to_have_text("")
