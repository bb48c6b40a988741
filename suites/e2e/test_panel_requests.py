"""What the panel sends and how it reads a refusal, in real Chromium against routed
``/v1/turns`` answers: the bearer in a header only, the chat session continued,
a refused request's status and the server's message shown."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from panel_routing import (
    QUESTION,
    ROUTED_TOKEN,
    START,
    ask,
    done,
    request_body,
    sse_body,
    wait_for_the_turn_to_end,
)
from playwright.sync_api import Page, Request, expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        pytest.param(
            401,
            {"error": {"code": "unauthorized", "message": "The bearer is not valid."}},
            ["HTTP 401", "unauthorized", "The bearer is not valid."],
            id="401-error-envelope",
        ),
        pytest.param(
            422,
            {"detail": [{"loc": ["body", "message"], "msg": "Field required", "type": "missing"}]},
            ["HTTP 422", "body.message: Field required"],
            id="422-fastapi-detail",
        ),
        pytest.param(500, {"unexpected": True}, ["HTTP 500"], id="500-unknown-body"),
    ],
)
def test_a_refused_request_shows_the_status_and_the_servers_message(
    page: Page,
    routed_turn: Callable[..., list[Request]],
    status: int,
    body: dict[str, Any],
    expected: list[str],
) -> None:
    routed_turn(json.dumps(body), status=status, content_type="application/json")
    ask(page)

    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    for text in expected:
        expect(notice).to_contain_text(text)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")
    expect(page.get_by_test_id("count-line")).to_be_hidden()


def test_send_carries_the_bearer_from_the_url_and_never_shows_it(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    sent = routed_turn(sse_body([START, done("ok")]))
    page.get_by_test_id("locale").select_option("de")
    page.get_by_test_id("question").fill(QUESTION)
    with page.expect_response("**/v1/turns"):
        page.get_by_test_id("question").press("Enter")
    wait_for_the_turn_to_end(page)

    assert len(sent) == 1
    request = sent[0]
    assert request.method == "POST"
    assert request.headers["authorization"] == f"Bearer {ROUTED_TOKEN}"
    assert request.headers["accept"] == "text/event-stream"
    assert request_body(request) == {"mode": "single", "message": QUESTION, "locale": "de"}
    assert ROUTED_TOKEN not in page.url
    assert ROUTED_TOKEN not in page.content()


def test_chat_mode_continues_the_session_the_server_started(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    sent = routed_turn(sse_body([("start", {"session_id": "ses-1", "mode": "chat"}), done("a")]))
    page.get_by_test_id("mode").select_option("chat")
    ask(page, "first")
    ask(page, "second")

    assert [request_body(r).get("session_id") for r in sent] == [None, "ses-1"]
    assert all(request_body(r)["mode"] == "chat" for r in sent)
