"""Specs 1–9: what an answer puts on screen, from the count line to the error
trail, in Debian's Chromium against ``beacon up`` (scenarios by header)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from spec_helpers import (
    HOW_MANY,
    LIST_FINDINGS,
    PHOTOS,
    ask,
    body,
    open_safety_findings_on_level_3,
    open_surface,
    visible_text,
)

from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
DIGIT = re.compile(r"\d")


def test_an_exact_count_reads_exactly_n_beside_its_cards(
    stack: Stack, token: str, page: Page
) -> None:
    expected = open_safety_findings_on_level_3()
    open_surface(page, stack, token)
    ask(page, HOW_MANY)

    line = page.get_by_test_id("count-line")
    expect(line).to_have_attribute("data-grade", "EXACT")
    expect(line).to_have_text(f"exactly {expected:,} — showing 10")
    expect(page.get_by_test_id("citation-card")).to_have_count(10)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    assert f"exactly {expected}" in page.get_by_test_id("prose").inner_text()


def test_a_lower_bound_reads_at_least_n_showing_m_and_never_exactly(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)

    line = page.get_by_test_id("count-line")
    expect(line).to_have_attribute("data-grade", "LOWER_BOUND")
    expect(line).to_have_text(re.compile(r"^at least [\d,]+ — showing 10$"))
    bound = int(re.findall(r"[\d,]+", line.inner_text())[0].replace(",", ""))
    assert bound >= 10
    expect(page.get_by_test_id("citation-card")).to_have_count(10)
    expect(page.locator('[data-testid="citation-card"] img')).to_have_count(10)
    assert "exactly" not in visible_text(page).lower()


def test_a_counter_question_button_narrows_to_the_complete_set_in_the_same_session(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    page.get_by_test_id("mode").select_option("chat")
    first = ask(page, PHOTOS)
    session = page.locator("[data-session]").first.get_attribute("data-session")
    assert session

    question = page.locator('[data-testid="notice"][data-kind="counter_question"]')
    expect(question).to_have_count(1)
    options = page.get_by_test_id("option")
    assert options.count() >= 2
    recommended = page.locator('[data-testid="option"][data-recommended="true"]')
    expect(recommended).to_have_count(1)
    with page.expect_request(lambda r: r.url.endswith("/v1/turns")) as narrowed:
        recommended.click()
    expect(page.get_by_test_id("status")).to_have_attribute(
        "data-phase", "complete", timeout=20_000
    )

    sent = body(narrowed.value)
    assert body(first).get("session_id") is None
    assert sent["session_id"] == session and sent["mode"] == "chat"
    line = page.get_by_test_id("count-line")
    expect(line).to_have_attribute("data-grade", "EXACT")
    expect(line).to_have_text(re.compile(r"^exactly [\d,]+$"))
    total = int(line.inner_text().split()[1].replace(",", ""))
    expect(page.get_by_test_id("citation-card")).to_have_count(total)
    expect(page.get_by_test_id("load-more")).to_be_hidden()


def test_load_more_fetches_the_next_pages_until_the_exact_set_is_on_screen(
    stack: Stack, token: str, page: Page
) -> None:
    expected = open_safety_findings_on_level_3()
    open_surface(page, stack, token)
    ask(page, LIST_FINDINGS)
    line, cards, more = (
        page.get_by_test_id("count-line"),
        page.get_by_test_id("citation-card"),
        page.get_by_test_id("load-more"),
    )
    expect(line).to_have_text(f"exactly {expected} — showing 10")

    pages = 0
    while cards.count() < expected:
        expect(more).to_be_visible()
        shown = cards.count()
        with page.expect_response(lambda r: r.url.endswith("/more")) as answered:
            more.click()
        assert answered.value.status == 200
        assert answered.value.request.post_data_json == {"slot": more.get_attribute("data-slot")}
        expect(cards).not_to_have_count(shown)
        pages += 1
        assert pages <= 5
    expect(cards).to_have_count(expected)
    expect(line).to_have_text(f"exactly {expected}")
    expect(more).to_be_hidden()
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete")
    ids = page.locator('[data-testid="citation-card"]').evaluate_all(
        "cards => cards.map(c => c.dataset.citationId)"
    )
    assert len(set(ids)) == expected


def test_zero_hits_read_as_no_results_with_standing_and_an_absence_notice(
    stack: Stack, token: str, new_page: Callable[..., Page]
) -> None:
    page = new_page("zero-hits")
    open_surface(page, stack, token)
    ask(page, PHOTOS)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "empty-with-standing")
    expect(page.get_by_test_id("count-line")).to_have_text("no results")
    expect(page.get_by_test_id("citation-card")).to_have_count(0)
    absence = page.locator('[data-testid="notice"][data-kind="absence"]')
    expect(absence).to_have_count(1)
    # Zero from the start, not zero after narrowing: no "previous results" to release.
    expect(absence).not_to_contain_text(re.compile("previous", re.IGNORECASE))
    assert not DIGIT.search(absence.inner_text())


def test_an_unknown_count_from_a_legacy_upstream_puts_no_number_on_screen(
    stack: Stack, token: str, new_page: Callable[..., Page]
) -> None:
    page = new_page("legacy-upstream")
    open_surface(page, stack, token)
    ask(page, PHOTOS)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "unknown")
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("count-line")).to_have_text("")
    said = visible_text(page)
    assert said.strip(), "the unknown answer must still say something"
    assert not DIGIT.search(said), said


def test_a_disguised_502_is_shown_as_a_failure_never_as_no_results(
    stack: Stack, token: str, new_page: Callable[..., Page]
) -> None:
    page = new_page("inband-502")
    open_surface(page, stack, token)
    ask(page, PHOTOS)

    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-phase", "failed")
    expect(status).to_have_attribute("data-cause", "source-failure")
    expect(page.locator('[data-testid="notice"][data-kind="failure"]')).to_have_count(1)
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("citation-card")).to_have_count(0)
    assert "no results" not in visible_text(page)
    assert "502" not in visible_text(page)  # error text is never shown as data


def test_a_permission_denial_draws_one_denial_card_and_no_thumbnails(
    stack: Stack, page: Page
) -> None:
    open_surface(page, stack, stack.token(sub="essentials-user", tiers=("essentials",)))
    ask(page, PHOTOS)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "denied")
    denial = page.locator('[data-testid="notice"][data-kind="denied"]')
    expect(denial).to_have_count(1)
    expect(denial).to_contain_text("Photo AI")
    expect(page.locator("img")).to_have_count(0)
    expect(page.get_by_test_id("citation-card")).to_have_count(0)
    expect(page.get_by_test_id("count-line")).to_be_hidden()


def test_a_denial_the_model_restates_is_still_shown_once(
    stack: Stack, new_page: Callable[..., Page]
) -> None:
    page = new_page("model-restates-denial")
    open_surface(page, stack, stack.token(sub="essentials-user", tiers=("essentials",)))
    ask(page, PHOTOS)

    expect(page.locator('[data-testid="notice"][data-kind="denied"]')).to_have_count(1)
    prose = page.get_by_test_id("prose").inner_text().lower()
    # The card says why; narration that says it again is a second denial on screen.
    for phrase in ("access denied", "licence", "license", "upgrade", "your plan", "tier"):
        assert phrase not in prose, prose
