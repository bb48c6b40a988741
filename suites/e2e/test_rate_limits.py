"""Rate limits over real HTTP (issue 27): a chat server started with a burst of
three turns a user refuses the fourth with a 429 and ``Retry-After`` before any
model or upstream call (the stubs' request logs prove none went out), leaves
another user their turns, and on PostgreSQL two processes spend one bucket."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from beacon.store.crypto import new_key_slot
from harness.chat_process import chat_env, running_chat
from harness.stack import Stack

pytestmark = pytest.mark.e2e
QUESTION = "How many panoramas are in Harbor Tower?"
THREE_A_MINUTE = {"BEACON_RATE_TURNS_PER_MINUTE": "3", "BEACON_RATE_TURNS_BURST": "3"}


def start(url: str, token: str) -> httpx.Response:
    """POST a turn and read its stream to the end (the turn has ended when it closes)."""
    return httpx.post(
        f"{url}/v1/turns",
        json={"mode": "single", "message": QUESTION},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60.0,
    )


def calls_made(stack: Stack, sub: str) -> tuple[int, int]:
    """(tool calls the upstream received for ``sub``, completion requests the model received)."""
    tools: list[dict[str, Any]] = httpx.get(f"{stack.mcp_origin}/dev/requests").json()["requests"]
    model = httpx.get(f"{stack.llm_url.removesuffix('/v1')}/dev/requests").json()["requests"]
    return sum(1 for entry in tools if entry["sub"] == sub), len(model)


def assert_rate_limited(refused: httpx.Response) -> None:
    assert refused.status_code == 429, refused.text[:300]
    assert refused.headers["retry-after"].isdigit()
    assert 1 <= int(refused.headers["retry-after"]) <= 20  # 3 a minute: one every 20 s
    assert refused.json()["error"]["code"] == "rate_limited"


def test_the_fourth_turn_of_a_three_turn_burst_is_a_429_and_calls_nothing(
    stack: Stack, tmp_path: Path
) -> None:
    sub = "rate-limited-user"
    token = stack.token(sub=sub)
    with running_chat(chat_env(stack, tmp_path, **THREE_A_MINUTE)) as url:
        started = [start(url, token) for _ in range(3)]
        assert [r.status_code for r in started] == [200, 200, 200]
        assert all("event: done" in r.text for r in started), started[-1].text[-500:]
        tools_before, model_before = calls_made(stack, sub)
        assert tools_before > 0 and model_before > 0

        refused = start(url, token)

        assert_rate_limited(refused)
        assert calls_made(stack, sub) == (tools_before, model_before)
        # Another user's bucket is their own.
        assert start(url, stack.token(sub="rate-limited-neighbour")).status_code == 200


def test_two_processes_on_one_postgresql_spend_one_bucket_per_user(
    stack: Stack, tmp_path: Path, pg_url: str
) -> None:
    env = chat_env(
        stack, tmp_path, BEACON_DB=pg_url, BEACON_KEYS=new_key_slot("rl"), **THREE_A_MINUTE
    )
    token = stack.token(sub="rate-limited-on-two")
    with running_chat(env) as first, running_chat(env) as second:
        started = [start(first, token), start(second, token), start(first, token)]
        assert [r.status_code for r in started] == [200, 200, 200]
        # Each process has spent one or two of its own: only a shared bucket is empty.
        assert_rate_limited(start(second, token))
        assert_rate_limited(start(first, token))
