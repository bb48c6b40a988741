"""Specs for the panel of a newcomer's first hour (issue 29, item 1), in Debian's
Chromium against ``beacon up``: the Automatic language, a badge per standing,
notices after their answer, the conversation on screen and after a reload or a
citation's Back, token problems before the first question with the typed
question kept, and an opening page that says what can be asked."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from spec_helpers import HOW_MANY, PHOTOS, ask, body, open_surface

from harness.forged_tokens import mint
from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

# Written out, not read from the panel's copy: what a user must be told.
MINT_COMMAND = "beacon token --mcp"
GERMAN_HOW_MANY = "Wie viele offene Sicherheitsmängel gibt es auf Ebene 3 von Harbor Tower?"
# Names no project: with several projects visible, code asks which one.
NO_PROJECT = "How many open findings are there?"


def _mode(page: Page, mode: str) -> None:
    page.get_by_test_id("mode").select_option(mode)


# ---- (a) the Automatic language ----------------------------------------------------


def test_automatic_language_sends_no_locale_and_a_german_question_is_answered_in_german(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    select = page.get_by_test_id("locale")
    expect(select).to_have_value("")
    expect(select.locator("option:checked")).to_have_text("Automatic")

    sent = ask(page, GERMAN_HOW_MANY)

    assert "locale" not in body(sent), body(sent)
    expect(page.get_by_test_id("prose")).to_contain_text("genau")
    expect(page.get_by_test_id("prose")).not_to_contain_text("exactly")


def test_a_language_picked_by_the_user_is_sent_and_answers_in_it(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    page.get_by_test_id("locale").select_option("de")
    sent = ask(page, HOW_MANY)
    assert body(sent)["locale"] == "de"
    expect(page.get_by_test_id("prose")).to_contain_text("genau")


# ---- (b) the badge says the answer's standing ---------------------------------------


def test_a_counter_question_is_needs_your_choice_never_complete(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    _mode(page, "chat")
    ask(page, NO_PROJECT)

    expect(page.locator('[data-testid="notice"][data-kind="counter_question"]')).to_have_count(1)
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-standing", "needs-choice")
    expect(status).to_have_text("Needs your choice")
    assert status.evaluate("n => getComputedStyle(n).color") != "rgb(31, 122, 61)"  # not green


def test_a_single_question_naming_no_project_asks_which_with_buttons_too(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, NO_PROJECT)  # single mode: the same offer as chat, its replies whole questions

    offer = page.locator('[data-testid="notice"][data-kind="counter_question"]')
    expect(offer).to_have_count(1)
    expect(page.get_by_test_id("status")).to_have_attribute("data-standing", "needs-choice")


def test_an_answer_in_words_with_nothing_counted_is_not_complete(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, "What can you do?")  # nothing to count: the answer is words only

    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-standing", "uncounted")
    expect(status).to_have_text("Answered — nothing was counted")
    assert "Complete" not in status.inner_text()


def test_an_error_terminal_is_failed_never_complete(stack: Stack, token: str, page: Page) -> None:
    frames = [
        ("start", {"turn_id": "t_x", "seq": 1, "session_id": None, "mode": "single"}),
        (
            "error",
            {"turn_id": "t_x", "seq": 2, "code": "model_unavailable", "message": "No model."},
        ),
    ]
    stream = "".join(f"event: {e}\nid: {d['seq']}\ndata: {json.dumps(d)}\n\n" for e, d in frames)

    def fulfil(route: Route) -> None:
        route.fulfill(status=200, headers={"content-type": "text/event-stream"}, body=stream)

    page.route("**/v1/turns", fulfil)
    open_surface(page, stack, token)
    ask(page, HOW_MANY)

    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-phase", "failed")
    expect(status).to_have_text("Failed")
    expect(page.locator('[data-testid="notice"][data-kind="error"]')).to_have_attribute(
        "data-code", "model_unavailable"
    )


# ---- (c) notices after the answer they speak of -------------------------------------


def test_a_notice_comes_after_the_answer_it_refers_to(stack: Stack, token: str, page: Page) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)

    notice = page.locator('[data-testid="notice"][data-kind="disclosure"]')
    expect(notice).to_contain_text("sample")
    prose = page.get_by_test_id("prose")
    cards = page.get_by_test_id("citation-card")
    follows = "(a, b) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)"
    assert prose.evaluate(follows, notice.element_handle())
    assert cards.last.evaluate(follows, notice.element_handle())
    notice_box, prose_box = notice.bounding_box(), prose.bounding_box()
    assert notice_box and prose_box and notice_box["y"] > prose_box["y"]


# ---- (d) the whole conversation on screen -------------------------------------------


def _conversation_of_two(page: Page) -> str:
    _mode(page, "chat")
    ask(page, PHOTOS)
    ask(page, HOW_MANY)
    session = page.locator("[data-session]").first.get_attribute("data-session")
    assert session
    return session


def _two_turns_on_screen(page: Page) -> None:
    turns = page.get_by_test_id("transcript").locator('[data-testid="turn"].past')
    expect(turns).to_have_count(1)  # the earlier turn, settled; the newest is the live one
    expect(turns.first.get_by_test_id("past-asked")).to_have_text(PHOTOS)
    expect(turns.first.get_by_test_id("past-citation-card")).to_have_count(10)
    expect(turns.first.get_by_test_id("past-count-line")).to_have_attribute(
        "data-grade", "LOWER_BOUND"
    )


def test_chat_mode_shows_every_turn_with_its_question_count_and_cards_newest_in_view(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    _conversation_of_two(page)

    _two_turns_on_screen(page)
    expect(page.get_by_test_id("asked")).to_have_text(HOW_MANY)
    expect(page.get_by_test_id("count-line")).to_have_attribute("data-grade", "EXACT")
    expect(page.get_by_test_id("asked")).to_be_in_viewport()


def test_a_reload_draws_the_conversation_again_and_the_next_question_continues_it(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    session = _conversation_of_two(page)

    with page.expect_response(lambda r: f"/v1/sessions/{session}" in r.url):
        page.reload()
    turns = page.locator('[data-testid="transcript"] [data-testid="turn"].past')
    expect(turns).to_have_count(2)
    expect(turns.nth(0).get_by_test_id("past-asked")).to_have_text(PHOTOS)
    expect(turns.nth(0).get_by_test_id("past-citation-card")).to_have_count(10)
    expect(turns.nth(1).get_by_test_id("past-asked")).to_have_text(HOW_MANY)
    expect(turns.nth(1).get_by_test_id("past-count-line")).to_have_attribute("data-grade", "EXACT")
    expect(page.get_by_test_id("mode")).to_have_value("chat")

    sent = ask(page, PHOTOS)
    assert body(sent)["session_id"] == session


def test_single_mode_keeps_its_earlier_answers_on_the_page(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)
    sent = ask(page, HOW_MANY)

    assert "session_id" not in body(sent)
    _two_turns_on_screen(page)


def test_a_citation_opens_the_viewer_and_back_returns_to_the_conversation(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    _conversation_of_two(page)
    page.locator('[data-testid="past-citation-card"] a').first.click()
    page.wait_for_url("**/hosts/viewer/?*")

    page.go_back()
    page.wait_for_url("**/panel/*")
    turns = page.locator('[data-testid="transcript"] [data-testid="turn"].past')
    expect(turns).to_have_count(2)
    expect(turns.nth(0).get_by_test_id("past-citation-card")).to_have_count(10)
    expect(turns.nth(1).get_by_test_id("past-asked")).to_have_text(HOW_MANY)


def test_the_conversation_reads_at_phone_width(stack: Stack, token: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_surface(page, stack, token)
        _conversation_of_two(page)
        _two_turns_on_screen(page)
        expect(page.get_by_test_id("asked")).to_be_in_viewport()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


# ---- (e) token problems before the first question -----------------------------------


@pytest.mark.parametrize(
    ("bearer", "problem", "words"),
    [
        pytest.param(lambda: None, "missing", "no token", id="missing"),
        pytest.param(lambda: "not-a-jwt", "malformed", "not a token", id="malformed"),
        pytest.param(lambda: mint(exp=int(time.time()) - 3600), "expired", "expired", id="expired"),
    ],
)
def test_a_token_that_cannot_work_is_said_before_the_first_question_and_keeps_it(
    stack: Stack,
    new_page: Callable[..., Page],
    bearer: Callable[[], str | None],
    problem: str,
    words: str,
) -> None:
    page = new_page()
    value = bearer()
    page.goto(f"{stack.chat_url}/panel/" + (f"?token={value}" if value else ""))

    note = page.get_by_test_id("token-problem")
    expect(note).to_be_visible()
    expect(note).to_have_attribute("data-problem", problem)
    expect(note).to_contain_text(words)
    expect(note).to_contain_text(MINT_COMMAND)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "idle")

    ask(page, HOW_MANY)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")
    expect(page.get_by_test_id("question")).to_have_value(HOW_MANY)


def test_a_good_token_shows_no_token_problem(stack: Stack, token: str, page: Page) -> None:
    open_surface(page, stack, token)
    page.wait_for_load_state("networkidle")
    expect(page.get_by_test_id("token-problem")).to_be_hidden()


# ---- (f) the opening page and the cards ---------------------------------------------


def test_the_empty_panel_offers_example_questions_that_ask_themselves(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    examples = page.get_by_test_id("example")
    # Built from the caller's own projects once GET /v1/projects has answered.
    expect(examples).to_have_count(4)
    texts = [examples.nth(i).inner_text() for i in range(4)]
    assert texts[0] == "How many open safety findings are on level 3 of Harbor Tower?", texts
    assert "Maple Clinic" in texts[1] and "{project}" not in " ".join(texts), texts
    first = examples.first.inner_text()

    with page.expect_request(lambda r: r.url.endswith("/v1/turns")) as sent:
        examples.first.click()
    expect(page.get_by_test_id("status")).to_have_attribute(
        "data-phase", re.compile("^(complete|complete-sample)$"), timeout=20_000
    )
    assert body(sent.value)["message"] == first
    expect(page.get_by_test_id("examples")).to_be_hidden()


def test_without_the_callers_projects_no_example_names_a_project(
    stack: Stack, token: str, page: Page
) -> None:
    page.route("**/v1/projects", lambda route: route.fulfill(status=502, body="{}"))
    open_surface(page, stack, token)
    examples = page.get_by_test_id("example")
    expect(examples).to_have_count(1)
    assert examples.first.inner_text() == "How many open findings are there?"


def test_photo_cards_are_headed_by_their_title_never_an_id_or_a_repeated_level(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)
    cards = page.get_by_test_id("citation-card")
    expect(cards).to_have_count(10)
    for i in range(cards.count()):
        card = cards.nth(i)
        ident = card.get_attribute("data-citation-id") or ""
        title = card.locator(".card-title").inner_text()
        level = card.locator(".card-level").inner_text()
        assert title and ident not in title, (ident, title)
        assert not title.startswith(f"{level}:"), title
