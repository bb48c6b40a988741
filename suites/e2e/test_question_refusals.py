"""A blank or too-long question over real HTTP (issue 19): the chat server started by
``beacon up`` refuses it with a small 422 before a turn starts, and the refusal
never carries the question back (the pieces alone: suites/unit/test_question_limits.py)."""

from __future__ import annotations

import httpx
import pytest

from harness.stack import Stack

pytestmark = pytest.mark.e2e
LONGEST = 4000  # SPEC §4's bound on a question, written out
MARKER = "formwork-strip-9K"


def _ask(stack: Stack, token: str, message: str) -> httpx.Response:
    return httpx.post(
        f"{stack.chat_url}/v1/turns",
        json={"mode": "single", "message": message},
        headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"},
        timeout=30,
    )


@pytest.mark.parametrize("blank", ["   ", "\n\t\u3000"], ids=["spaces", "mixed-whitespace"])
def test_a_whitespace_only_question_is_refused_with_422_and_no_turn_starts(
    stack: Stack, token: str, blank: str
) -> None:
    response = _ask(stack, token, blank)
    assert response.status_code == 422, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]["code"] == "invalid_request"
    assert "X-Beacon-Turn" not in response.headers


def test_a_too_long_question_is_refused_with_422_without_echoing_it(
    stack: Stack, token: str
) -> None:
    question = (f"Where is {MARKER} on level 4 of Harbor Tower? " * 400)[: LONGEST + 1]
    response = _ask(stack, token, question)
    assert response.status_code == 422, response.text[:300]
    assert response.json()["error"]["code"] == "invalid_request"
    assert MARKER not in response.text and "Harbor Tower" not in response.text
    assert len(response.content) < 1024
