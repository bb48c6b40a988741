"""The live question quota over real HTTP (issue 30, item 5), one `beacon serve` on
SQLite beside the stack's stubs: the quota stream's first event on connect and
its pushes as questions are spent, the refused question a 429 ``quota_exhausted``
with its reset (``Retry-After``, ``reset_at``) that made no model or upstream call
(the stubs' request logs), the token's claim over the server's setting, and no
quota at all answered ``{"remaining": null}``."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from harness.chat_process import chat_env, running_chat
from harness.stack import Stack

pytestmark = pytest.mark.e2e
QUESTION = "How many panoramas are in Harbor Tower?"


def quota_token(stack: Stack, sub: str, questions_per_day: int | None = None) -> str:
    wanted: dict[str, Any] = {"sub": sub, "tiers": ["enterprise_ai"]}
    if questions_per_day is not None:
        wanted["questions_per_day"] = questions_per_day
    reply = httpx.post(f"{stack.mcp_origin}/dev/tokens", json=wanted, timeout=10)
    reply.raise_for_status()
    token = reply.json()["token"]
    assert isinstance(token, str)
    return token


def ask(url: str, token: str) -> httpx.Response:
    """POST a turn and read its stream to the end."""
    return httpx.post(
        f"{url}/v1/turns",
        json={"mode": "single", "message": QUESTION},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60.0,
    )


class QuotaStream:
    """``GET /v1/quota/events`` read in a thread: each ``quota`` event's data, in order."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.events: list[dict[str, Any]] = []
        self.status = 0
        self.headers: dict[str, str] = {}
        self._changed = threading.Condition()
        self._client = httpx.Client(timeout=httpx.Timeout(30.0, read=None))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        try:
            with self._client.stream("GET", f"{self.url}/v1/quota/events", headers=headers) as r:
                self.status, self.headers = r.status_code, dict(r.headers)
                event = ""
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                    elif line.startswith("data: ") and event == "quota":
                        with self._changed:
                            self.events.append(json.loads(line.removeprefix("data: ")))
                            self._changed.notify_all()
        except httpx.HTTPError:
            pass  # closed by the test

    def wait_for(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        with self._changed:
            self._changed.wait_for(lambda: len(self.events) >= count, timeout)
            return list(self.events)

    def close(self) -> None:
        self._client.close()
        self._thread.join(timeout=5)


@contextmanager
def quota_stream(url: str, token: str) -> Iterator[QuotaStream]:
    stream = QuotaStream(url, token)
    try:
        yield stream
    finally:
        stream.close()


def calls_made(stack: Stack, sub: str) -> tuple[int, int]:
    """(tool calls the upstream received for ``sub``, completion requests the model received)."""
    tools: list[dict[str, Any]] = httpx.get(f"{stack.mcp_origin}/dev/requests").json()["requests"]
    model = httpx.get(f"{stack.llm_url.removesuffix('/v1')}/dev/requests").json()["requests"]
    return sum(1 for entry in tools if entry["sub"] == sub), len(model)


def next_midnight() -> datetime:
    today = datetime.now(UTC).date()
    return datetime(today.year, today.month, today.day, tzinfo=UTC) + timedelta(days=1)


def test_without_a_quota_the_stream_answers_remaining_null_on_connect(
    stack: Stack, tmp_path: Path
) -> None:
    token = quota_token(stack, "unlimited-user")
    with running_chat(chat_env(stack, tmp_path)) as url, quota_stream(url, token) as stream:
        assert stream.wait_for(1) == [{"remaining": None}]
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        # Unlimited questions are spent from nothing: no push, no refusal.
        assert ask(url, token).status_code == 200
        assert stream.wait_for(2, timeout=1.5) == [{"remaining": None}]


def test_the_stream_sends_the_remaining_count_on_connect_and_a_push_per_question_spent(
    stack: Stack, tmp_path: Path
) -> None:
    token = quota_token(stack, "pushed-user")
    env = chat_env(stack, tmp_path, BEACON_QUOTA_PER_DAY="2")
    with running_chat(env) as url, quota_stream(url, token) as stream:
        reset = next_midnight().strftime("%Y-%m-%dT%H:%M:%SZ")
        assert stream.wait_for(1) == [{"remaining": 2, "limit": 2, "reset_at": reset}]
        assert ask(url, token).status_code == 200
        assert [e["remaining"] for e in stream.wait_for(2)] == [2, 1]
        assert ask(url, token).status_code == 200
        assert [e["remaining"] for e in stream.wait_for(3)] == [2, 1, 0]
        # A second stream connecting now starts from what is left.
        with quota_stream(url, token) as late:
            assert late.wait_for(1) == [{"remaining": 0, "limit": 2, "reset_at": reset}]


def test_the_question_past_the_quota_is_a_429_with_its_reset_and_calls_nothing(
    stack: Stack, tmp_path: Path
) -> None:
    sub = "quota-spent-user"
    # The claim overrides the server's setting: one question, not five.
    token = quota_token(stack, sub, questions_per_day=1)
    env = chat_env(stack, tmp_path, BEACON_QUOTA_PER_DAY="5")
    with running_chat(env) as url:
        first = ask(url, token)
        assert first.status_code == 200 and "event: done" in first.text
        before = calls_made(stack, sub)
        assert before[0] > 0 and before[1] > 0

        refused = ask(url, token)

        assert refused.status_code == 429, refused.text[:300]
        error = refused.json()["error"]
        assert error["code"] == "quota_exhausted"
        reset = next_midnight()
        assert error["reset_at"] == reset.strftime("%Y-%m-%dT%H:%M:%SZ")
        wait = (reset - datetime.now(UTC)).total_seconds()
        assert abs(int(refused.headers["retry-after"]) - wait) <= 5
        # No model request, no tool call: the refusal came before the turn.
        assert calls_made(stack, sub) == before
        # The setting still holds for a user whose token names no quota.
        assert ask(url, quota_token(stack, "quota-neighbour")).status_code == 200
