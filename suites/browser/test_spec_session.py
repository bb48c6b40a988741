"""Specs 10–13: the session around an answer — expired auth, locale, reattach
after a dropped connection, and single-question mode leaving no transcript."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, Route, expect
from spec_helpers import HOW_MANY, PHOTOS, ask, body, open_safety_findings_on_level_3, open_surface

from harness.chat_process import chat_env, running_chat
from harness.forged_tokens import KEY_1, jwks, mint
from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


@pytest.fixture(scope="module")
def keyed_chat(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A chat server trusting a key the test holds, so it can sign an expired token."""
    data: Path = tmp_path_factory.mktemp("keyed-chat")
    keyset = data / "jwks.json"
    keyset.write_text(json.dumps(jwks((KEY_1, "k1"))))
    with running_chat(chat_env(stack, data, BEACON_JWKS=str(keyset))) as url:
        yield url


def test_an_expired_bearer_ends_in_auth_expired_and_draws_no_answer(
    keyed_chat: str, page: Page
) -> None:
    expired = mint(exp=int(time.time()) - 3600)
    page.goto(f"{keyed_chat}/panel/?token={expired}")
    ask(page, HOW_MANY)

    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-phase", "failed")
    expect(status).to_have_attribute("data-cause", "auth-expired")
    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    expect(notice).to_have_attribute("data-code", "auth_expired")
    expect(notice).to_contain_text("Your sign-in has expired")
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("citation-card")).to_have_count(0)
    assert expired not in page.content()


def test_switching_the_locale_changes_the_chrome_the_request_and_the_count_line(
    stack: Stack, token: str, page: Page
) -> None:
    expected = open_safety_findings_on_level_3()
    open_surface(page, stack, token)
    chrome = {"ko": "보내기", "ja": "送信", "de": "Senden", "es": "Enviar", "en": "Send"}
    for locale, send in chrome.items():
        page.get_by_test_id("locale").select_option(locale)
        expect(page.get_by_test_id("send")).to_have_text(send)

    page.get_by_test_id("locale").select_option("ko")
    sent = ask(page, HOW_MANY)

    assert body(sent)["locale"] == "ko"
    # The count line words the count as the server's count slot does (the phrase
    # of adjudication/guard/slots.py, via the generated vocabulary), so the prose the
    # server rendered and the line agree word for word.
    expect(page.get_by_test_id("count-line")).to_have_text(f"정확히 {expected} — 10건 표시")
    expect(page.get_by_test_id("prose")).to_contain_text(f"정확히 {expected}")
    expect(page.get_by_test_id("status")).to_have_text("답변 완료 — 집계된 항목 중 일부만 표시")
    page.get_by_test_id("locale").select_option("de")
    expect(page.get_by_test_id("count-line")).to_have_text(f"genau {expected} — 10 angezeigt")


def test_a_dropped_connection_reattaches_and_completes_the_turn_once(
    stack: Stack, token: str, page: Page
) -> None:
    cut_after: list[int] = []

    def drop_mid_stream(route: Route) -> None:
        # The whole stream from the real server, cut right after `references`:
        # what a client sees when its connection dies mid-turn.
        response = route.fetch(timeout=30_000)
        blocks = response.text().split("\n\n")
        kept = []
        for block in blocks:
            kept.append(block)
            if "event: references" in block:
                cut_after.append(int(block.split("id: ")[1].split("\n")[0]))
                break
        route.fulfill(response=response, body="\n\n".join(kept) + "\n\n")

    page.route("**/v1/turns", drop_mid_stream)
    open_surface(page, stack, token)
    with page.expect_request(lambda r: "/events" in r.url) as reattached:
        ask(page, PHOTOS)

    assert cut_after, "the stream was not cut"
    assert f"after={cut_after[0]}" in reattached.value.url
    assert reattached.value.headers["last-event-id"] == str(cut_after[0])
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    expect(page.get_by_test_id("citation-card")).to_have_count(10)
    prose = page.get_by_test_id("prose").inner_text()
    assert prose.count("These 10 are shown as cards.") == 1, prose
    expect(page.locator('[data-testid="notice"][data-kind="error"]')).to_have_count(0)


def test_single_question_mode_sends_no_session_and_leaves_no_transcript(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token)
    page.get_by_test_id("mode").select_option("chat")
    ask(page, HOW_MANY)
    session = page.locator("[data-session]").first.get_attribute("data-session")
    assert session

    def transcript() -> list[dict[str, str]]:
        answer = httpx.get(
            f"{stack.chat_url}/v1/sessions/{session}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10.0,
        )
        assert answer.status_code == 200, answer.text
        messages = answer.json()["messages"]
        assert isinstance(messages, list)
        return messages

    before = transcript()
    assert [m["role"] for m in before] == ["user", "assistant"]

    page.get_by_test_id("mode").select_option("single")
    sent = ask(page, PHOTOS)

    assert body(sent)["mode"] == "single"
    assert "session_id" not in body(sent)
    expect(page.locator("[data-session]").first).to_have_attribute("data-session", "")
    assert transcript() == before
