"""Specs for a new user's first hour (issue 19, items 4 and 7), in Debian's Chromium
against ``beacon up``: the tab keeps its token across a reload and a citation
click, a refused token says how to mint a new one, the status line and the count
line tell the same story, the prose and the count line agree after "Load more",
the viewer host is readable on a phone, and no page asks for an icon that is not
there."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Response, Route, expect
from spec_helpers import HOW_MANY, PHOTOS, ask, open_surface, settle

from harness.chat_process import chat_env, running_chat
from harness.forged_tokens import KEY_1, jwks, mint
from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
# Written out, not read from the panel's copy: what a user must be told.
MINT_COMMAND = "beacon token --mcp"
SURFACES = ("/panel/", "/hosts/viewer/", "/hosts/console/")


@pytest.fixture(scope="module")
def keyed_chat(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A chat server trusting a key the test holds, so it can sign an expired token."""
    data: Path = tmp_path_factory.mktemp("keyed-chat-first-hour")
    keyset = data / "jwks.json"
    keyset.write_text(json.dumps(jwks((KEY_1, "k1"))))
    with running_chat(chat_env(stack, data, BEACON_JWKS=str(keyset))) as url:
        yield url


def _alone(n: int) -> re.Pattern[str]:
    """The number as a numeral of its own ("10", not the 10 in "110" or "2,010")."""
    return re.compile(rf"(?<![\d,.]){n:,}(?![\d]|[,.]\d)")


def _bearer_of_next_turn(page: Page, question: str) -> str | None:
    page.get_by_test_id("question").fill(question)
    with page.expect_request(lambda r: r.url.endswith("/v1/turns") and r.method == "POST") as sent:
        page.get_by_test_id("send").click()
    settle(page)
    return sent.value.headers.get("authorization")


# ---- item 4: the panel keeps working ----------------------------------------------


def test_a_reload_keeps_the_tabs_token_out_of_the_address_and_the_next_question_answered(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    assert "token" not in page.url
    page.reload()
    expect(page.get_by_test_id("send")).to_be_enabled()

    assert _bearer_of_next_turn(page, HOW_MANY) == f"Bearer {token}"
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    assert "token" not in page.url and token not in page.content()


def test_a_citation_link_opens_the_viewer_still_signed_in(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)
    page.get_by_test_id("citation-card").first.locator("a").click()
    page.wait_for_url("**/hosts/viewer/?*")
    assert "token" not in page.url

    assert _bearer_of_next_turn(page, HOW_MANY) == f"Bearer {token}"
    expect(page.get_by_test_id("status")).not_to_have_attribute("data-phase", "failed")
    expect(page.get_by_test_id("count-line")).to_have_attribute("data-grade", "EXACT")


def test_a_token_given_in_the_address_replaces_the_one_the_tab_kept(
    stack: Stack, page: Page
) -> None:
    first, second = stack.token(sub="first-user"), stack.token(sub="second-user")
    open_surface(page, stack, first)
    open_surface(page, stack, second)
    assert _bearer_of_next_turn(page, HOW_MANY) == f"Bearer {second}"


def test_a_token_that_is_not_accepted_says_so_and_names_the_command_that_mints_one(
    stack: Stack, page: Page
) -> None:
    page.goto(f"{stack.chat_url}/panel/?token=not-a-jwt")
    ask(page, HOW_MANY)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")
    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    expect(notice).to_have_attribute("data-code", re.compile(r"^auth_"))
    expect(notice).to_contain_text("not accepted")
    expect(notice).to_contain_text(MINT_COMMAND)
    expect(notice).to_contain_text("?token=")


def test_an_expired_token_says_how_long_tokens_last_and_how_to_mint_a_new_one(
    keyed_chat: str, page: Page
) -> None:
    expired = mint(exp=int(time.time()) - 3600)
    page.goto(f"{keyed_chat}/panel/?token={expired}")
    ask(page, HOW_MANY)

    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    expect(notice).to_have_attribute("data-code", "auth_expired")
    expect(notice).to_contain_text("expired")
    expect(notice).to_contain_text("one hour")
    expect(notice).to_contain_text(MINT_COMMAND)
    assert expired not in page.content()


def test_a_load_more_refused_for_its_token_says_how_to_mint_a_new_one(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)
    cards = page.get_by_test_id("citation-card").count()

    # The token goes bad after the answer: the real server refuses the load-more.
    def spoil(route: Route) -> None:
        route.continue_(headers={**route.request.headers, "authorization": "Bearer spoiled"})

    page.route("**/more", spoil)
    with page.expect_response(lambda r: r.url.endswith("/more")) as answered:
        page.get_by_test_id("load-more").click()
    assert answered.value.status == 401

    notice = page.locator('[data-testid="notice"][data-kind="failure"]')
    expect(notice).to_contain_text("not accepted")
    expect(notice).to_contain_text(MINT_COMMAND)
    expect(page.get_by_test_id("citation-card")).to_have_count(cards)


# ---- item 7: the on-screen wrongs -------------------------------------------------


def test_after_load_more_the_prose_names_the_cards_the_count_line_shows(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    ask(page, PHOTOS)
    cards, line, prose = (
        page.get_by_test_id("citation-card"),
        page.get_by_test_id("count-line"),
        page.get_by_test_id("prose"),
    )
    first = cards.count()
    expect(prose).to_contain_text(_alone(first))

    with page.expect_response(lambda r: r.url.endswith("/more")) as answered:
        page.get_by_test_id("load-more").click()
    assert answered.value.status == 200
    expect(cards).not_to_have_count(first)
    on_screen = cards.count()
    assert on_screen > first

    expect(line).to_have_text(re.compile(rf"— showing {on_screen}$"))
    expect(prose).to_contain_text(_alone(on_screen))
    assert not _alone(first).search(prose.inner_text()), prose.inner_text()


@pytest.mark.parametrize(
    ("question", "grade", "status"),
    [
        pytest.param(
            PHOTOS, "LOWER_BOUND", "Answered — there may be more than shown", id="lower-bound"
        ),
        pytest.param(
            HOW_MANY, "EXACT", "Answered — part of a counted set is shown", id="exact-part-shown"
        ),
    ],
)
def test_a_partly_shown_answer_is_worded_by_its_grade_never_complete_and_a_sample(
    stack: Stack, token: str, page: Page, question: str, grade: str, status: str
) -> None:
    open_surface(page, stack, token)
    ask(page, question)
    expect(page.get_by_test_id("count-line")).to_have_attribute("data-grade", grade)
    line = page.get_by_test_id("status")
    expect(line).to_have_attribute("data-phase", "complete-sample")
    expect(line).to_have_text(status)
    assert "Complete" not in line.inner_text()


@pytest.mark.parametrize(
    ("host", "path"),
    [("viewer", "/hosts/viewer/"), ("console", "/hosts/console/"), ("standalone", "/panel/")],
)
def test_a_host_keeps_its_panel_readable_at_phone_width(
    stack: Stack, token: str, browser: Browser, screens: Path, host: str, path: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        open_surface(page, stack, token, path)
        ask(page, PHOTOS)
        page.screenshot(path=str(screens / f"host-{host}-390px.png"), full_page=True)

        width = page.locator("#beacon-panel").evaluate("n => n.getBoundingClientRect().width")
        assert width >= 340, width  # the whole phone width, less the margins
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= 390, overflow
        # Words keep their letters on one line: a button is wider than tall, a
        # card's title has room for words.
        send = page.get_by_test_id("send").bounding_box()
        assert send is not None and send["width"] > send["height"]
        title = page.locator('[data-testid="citation-card"] .card-title').first.bounding_box()
        assert title is not None and title["width"] >= 200, title
    finally:
        context.close()


@pytest.mark.parametrize("path", SURFACES)
def test_no_page_asks_for_an_icon_or_any_file_that_is_not_there(
    stack: Stack, token: str, page: Page, path: str
) -> None:
    failed: list[str] = []

    def record(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("response", record)
    open_surface(page, stack, token, path)
    page.wait_for_load_state("networkidle")

    icon = page.locator('link[rel~="icon"]')
    expect(icon).to_have_count(1)
    href = icon.get_attribute("href")
    assert href is not None
    fetched = page.request.get(f"{stack.chat_url}{href}")
    assert fetched.status == 200 and fetched.headers["content-type"].startswith("image/")
    assert failed == []
