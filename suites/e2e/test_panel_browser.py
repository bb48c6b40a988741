"""The web panel in real Chromium against the real stack (``beacon up`` as processes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from harness.browser import PageLog
from harness.stack import Stack

QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"
AUTH_CODE = re.compile(r"401|unauthori[sz]ed|unauthenticated|auth|token", re.IGNORECASE)

pytestmark = pytest.mark.browser


def _open_safety_findings_on_level_3() -> int:
    from harness.gold_case import open_annotations
    from stub_server.corpus import build_corpus

    return len(open_annotations(build_corpus(), "prj-harbor-tower", 3, "safety", "open"))


def _occurrences_of_number(text: str, n: int) -> int:
    # A whole number, not a digit run inside another number ("13", "3,000").
    return len(re.findall(rf"(?<![\d.,]){n:,}(?![\d]|[.,]\d)", text))


@pytest.mark.e2e
def test_first_question_shows_the_exact_count_its_cards_and_the_narration(
    stack: Stack, token: str, page: Page, page_log: PageLog, screenshots: Path
) -> None:
    expected = _open_safety_findings_on_level_3()
    page.goto(f"{stack.chat_url}/panel/?token={token}")
    page.get_by_test_id("question").fill(QUESTION)
    page.get_by_test_id("send").click()

    count_line = page.get_by_test_id("count-line")
    expect(count_line).to_have_text(re.compile(rf"^exactly {expected:,}\b"), timeout=30_000)
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-phase", re.compile("^complete"), timeout=30_000)

    shown = re.search(r" — showing ([\d,]+)$", count_line.inner_text())
    cards = page.get_by_test_id("citation-card")
    expected_cards = int(shown.group(1).replace(",", "")) if shown else expected
    expect(cards).to_have_count(expected_cards)
    expect(cards.first).to_be_visible()
    assert 1 <= expected_cards <= 10

    prose = page.get_by_test_id("prose").inner_text()
    assert _occurrences_of_number(prose, expected) == 1, prose
    expect(page.locator('[data-testid="notice"][data-kind="error"]')).to_have_count(0)
    assert token not in page.content()
    assert page_log.errors == []
    page.screenshot(path=str(screenshots / "panel-first-question.png"), full_page=True)


@pytest.mark.e2e
def test_a_bad_bearer_ends_the_turn_with_an_auth_notice_and_draws_nothing(
    stack: Stack, page: Page
) -> None:
    page.goto(f"{stack.chat_url}/panel/?token=garbage")
    page.get_by_test_id("question").fill(QUESTION)
    page.get_by_test_id("send").click()

    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    expect(notice).to_have_count(1, timeout=30_000)
    expect(notice).to_have_text(AUTH_CODE)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("citation-card")).to_have_count(0)
