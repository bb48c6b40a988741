"""The panel's live question quota (issue 30, item 5) in Chromium: the count the
quota stream sends on connect, pushed again on the same stream when a question is
spent in the panel and when one is spent elsewhere with the same token (another
tab, a script); no quota, no count shown. The stream is read with fetch and the
bearer header: no token in its URL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, Request, expect
from spec_helpers import HOW_MANY, ask, open_surface

from harness.chat_process import chat_env, running_chat
from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
QUOTA_PATH = "/v1/quota/events"


@pytest.fixture(scope="module")
def quota_chat(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A chat server whose users may ask three questions a day."""
    data: Path = tmp_path_factory.mktemp("quota-chat")
    with running_chat(chat_env(stack, data, BEACON_QUOTA_PER_DAY="3")) as url:
        yield url


def quota_requests(page: Page) -> list[Request]:
    seen: list[Request] = []
    page.on("request", lambda r: seen.append(r) if QUOTA_PATH in r.url else None)
    return seen


def test_the_panel_shows_the_count_on_connect_and_each_question_spent_live(
    stack: Stack, quota_chat: str, page: Page
) -> None:
    token = stack.token(sub="panel-quota-user")
    opened = quota_requests(page)
    page.goto(f"{quota_chat}/panel/?token={token}")
    quota = page.get_by_test_id("quota")
    # The stream's first event, on connect.
    expect(quota).to_have_attribute("data-remaining", "3")
    expect(quota).to_be_visible()
    expect(quota).to_contain_text("3")

    ask(page, HOW_MANY)
    expect(quota).to_have_attribute("data-remaining", "2")

    # A question spent elsewhere with the same token is pushed to the open page.
    elsewhere = httpx.post(
        f"{quota_chat}/v1/turns",
        json={"mode": "single", "message": HOW_MANY},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert elsewhere.status_code == 200
    expect(quota).to_have_attribute("data-remaining", "1")
    expect(quota).to_contain_text("1")

    # Every value came over one stream, opened with the bearer header, not the URL.
    assert len(opened) == 1, [r.url for r in opened]
    assert opened[0].headers.get("authorization") == f"Bearer {token}"
    assert token not in opened[0].url


def test_the_last_question_spent_shows_none_left_and_the_next_is_refused(
    stack: Stack, quota_chat: str, page: Page
) -> None:
    token = stack.token(sub="panel-quota-spender")
    for _ in range(2):
        spent = httpx.post(
            f"{quota_chat}/v1/turns",
            json={"mode": "single", "message": HOW_MANY},
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        assert spent.status_code == 200
    page.goto(f"{quota_chat}/panel/?token={token}")
    quota = page.get_by_test_id("quota")
    expect(quota).to_have_attribute("data-remaining", "1")
    ask(page, HOW_MANY)
    expect(quota).to_have_attribute("data-remaining", "0")
    expect(quota).to_have_attribute("data-exhausted", "true")

    ask(page, HOW_MANY)
    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-phase", "failed")
    expect(status).to_have_attribute("data-cause", "quota_exhausted")
    refused = page.locator('[data-testid="notice"][data-kind="error"]')
    expect(refused).to_have_attribute("data-code", "quota_exhausted")
    expect(refused).to_contain_text("resets at")
    expect(quota).to_have_attribute("data-remaining", "0")


def test_without_a_quota_the_panel_shows_no_count(stack: Stack, token: str, page: Page) -> None:
    opened = quota_requests(page)
    open_surface(page, stack, token)
    quota = page.get_by_test_id("quota")
    # The stream answered {"remaining": null}: unlimited, so nothing to count down.
    expect(quota).to_have_attribute("data-remaining", "unlimited")
    expect(quota).to_be_hidden()
    assert len(opened) == 1
