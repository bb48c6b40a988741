"""The live question quota over real HTTP (issue 30, item 5), one `beacon serve` on
SQLite beside the stack's stubs: the quota stream's first event on connect and
its pushes as questions are spent, the refused question a 429 ``quota_exhausted``
with its reset (``Retry-After``, ``reset_at``) that made no model or upstream call
(the stubs' request logs), the token's claim over the server's setting, and no
quota at all answered ``{"remaining": null}``; and on PostgreSQL, concurrent turns
of one user spread over two processes spend exactly the quota, each spend pushed
to a stream held open on the other process."""

from __future__ import annotations

import json
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from beacon.store.crypto import new_key_slot
from harness.chat_process import chat_env, chat_process, running_chat
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
        self._socket: socket.socket | None = None
        self._closed = False  # under _changed: a reader connecting after close() stops at once
        self._client = httpx.Client(timeout=httpx.Timeout(30.0, read=None))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        try:
            with self._client.stream("GET", f"{self.url}/v1/quota/events", headers=headers) as r:
                self.status, self.headers = r.status_code, dict(r.headers)
                with self._changed:
                    self._socket = r.extensions["network_stream"].get_extra_info("socket")
                    if self._closed:
                        return
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
        return self.wait_until(lambda events: len(events) >= count, timeout)

    def wait_until(
        self, done: Callable[[list[dict[str, Any]]], bool], timeout: float = 10.0
    ) -> list[dict[str, Any]]:
        with self._changed:
            self._changed.wait_for(lambda: done(self.events), timeout)
            return list(self.events)

    def close(self) -> None:
        # Closing the client from here does not wake a read blocked in the thread
        # (each close waited out its 5 s join, the thread left reading): shutting
        # the socket down ends the read at once.
        with self._changed:
            self._closed = True
            if self._socket is not None:
                with suppress(OSError):
                    self._socket.shutdown(socket.SHUT_RDWR)
        self._client.close()
        self._thread.join(timeout=5)
        assert not self._thread.is_alive(), "the quota stream's reader did not stop"


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


def test_a_server_asked_to_stop_ends_its_open_quota_streams_and_stops_at_once(
    stack: Stack, tmp_path: Path
) -> None:
    token = quota_token(stack, "stopping-user", questions_per_day=3)
    with chat_process(chat_env(stack, tmp_path)) as (url, proc), quota_stream(url, token) as open_:
        assert open_.wait_for(1)[0]["remaining"] == 3
        asked = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        # uvicorn re-raises the signal once it has shut down: -SIGTERM is a clean stop.
        assert proc.wait(timeout=10) in (0, -signal.SIGTERM)
        # uvicorn's graceful shutdown waits for every open response: the stream ended.
        assert time.monotonic() - asked < 5


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


def logged_turns(stack: Stack, sub: str) -> tuple[list[str | None], list[str | None]]:
    """The turn of each tool call the upstream received for ``sub``, and of each
    completion request the model received, in order."""
    tools = httpx.get(f"{stack.mcp_origin}/dev/requests").json()["requests"]
    model = httpx.get(f"{stack.llm_url.removesuffix('/v1')}/dev/requests").json()["requests"]
    return [e["turn"] for e in tools if e["sub"] == sub], [e["turn"] for e in model]


@pytest.mark.xdist_group("postgres-e2e")
def test_concurrent_turns_of_one_user_on_two_processes_spend_exactly_the_quota(
    stack: Stack, tmp_path: Path, pg_url: str, record_property: Callable[[str, object], None]
) -> None:
    quota, attempted = 5, 16
    sub = "quota-on-two"
    token = quota_token(stack, sub, questions_per_day=quota)
    env = chat_env(stack, tmp_path, BEACON_DB=pg_url, BEACON_KEYS=new_key_slot("quota"))
    with chat_process(env) as (a, _), chat_process(env) as (b, _):
        urls = (a, b)
        # A stream on each process (which also has each verify the token once already).
        with quota_stream(a, token) as on_a, quota_stream(b, token) as on_b:
            assert on_a.wait_for(1)[0]["remaining"] == quota
            assert on_b.wait_for(1)[0]["remaining"] == quota
            tools_before, model_before = logged_turns(stack, sub)
            assert tools_before == []
            start = threading.Barrier(attempted)

            def attempt(n: int) -> httpx.Response:
                start.wait(timeout=30)
                return ask(urls[n % 2], token)

            with ThreadPoolExecutor(max_workers=attempted) as pool:
                replies = list(pool.map(attempt, range(attempted)))
            admitted = [r for r in replies if r.status_code == 200]
            refused = [r for r in replies if r.status_code == 429]
            figure = f"attempted {attempted} / admitted {len(admitted)} / refused {len(refused)}"
            print(f"quota concurrency (N = {quota}): {figure}")
            record_property("quota_concurrency", f"N = {quota}: {figure}")
            assert len(admitted) == quota, figure
            assert len(refused) == attempted - quota, [r.status_code for r in replies]
            assert {r.json()["error"]["code"] for r in refused} == {"quota_exhausted"}
            assert all("event: done" in r.text for r in admitted)
            # Eight attempts on each process: one count per process would admit ten.
            for i, url in enumerate(urls):
                codes = [r.status_code for r in replies[i::2]]
                print(f"  {url}: admitted {codes.count(200)} / refused {codes.count(429)}")
            # Each stream saw the questions spent on either process, down to none left.
            for watching in (on_a, on_b):
                pushed = watching.wait_until(lambda e: e[-1]["remaining"] == 0)
                remaining = [e["remaining"] for e in pushed]
                assert remaining[0] == quota and remaining[-1] == 0, remaining
                assert remaining == sorted(remaining, reverse=True), remaining
        # No refused turn reached the model or the upstream: every call logged since
        # belongs to one of the admitted turns.
        admitted_ids = {r.headers["x-beacon-turn"] for r in admitted}
        tools_after, model_after = logged_turns(stack, sub)
        assert set(tools_after) == admitted_ids
        assert set(model_after[len(model_before) :]) == admitted_ids
