"""Past BEACON_MAX_TURNS running turns, a new turn is answered 503 busy at once.

A process already running its most turns refuses a new one before anything is
spent — no quota, no model or upstream call, no stored turn — with
``Retry-After: 1``, rather than starting it late; once a running turn ends, a
turn is admitted again. Two stalled turns (the stub model stalls past a 3 s
answer deadline) hold a process whose limit is two.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.server.timing import parse_server_timing
from harness.stack import Stack, running_stack

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"


@pytest.fixture(scope="module")
def two_turn_stack() -> Iterator[Stack]:
    env = {
        "BEACON_MAX_TURNS": "2",
        "BEACON_ANSWER_DEADLINE_S": "3",
        "BEACON_STUB_STALL_S": "30",
        "BEACON_HEARTBEAT_S": "1",
    }
    with running_stack("default", extra_env=env) as stack:
        yield stack


def _post(stack: Stack, token: str, scenario: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    if scenario:
        headers["X-Beacon-Scenario"] = scenario
    return httpx.post(
        f"{stack.chat_url}/v1/turns",
        json={"mode": "single", "message": PHOTOS, "locale": "en"},
        headers=headers,
        timeout=30,
    )


def _metric(stack: Stack, name: str) -> float:
    text = httpx.get(f"{stack.chat_url}/metrics", timeout=10).text
    lines = [line for line in text.splitlines() if line.startswith(name + " ")]
    return float(lines[0].split()[1]) if lines else 0.0


def test_a_turn_past_the_limit_is_answered_busy_at_once_and_admitted_when_one_ends(
    two_turn_stack: Stack,
) -> None:
    stack, token = two_turn_stack, two_turn_stack.token()
    stalled: list[httpx.Response] = []
    holders = [
        threading.Thread(target=lambda: stalled.append(_post(stack, token, "model-stall")))
        for _ in range(2)
    ]
    for holder in holders:
        holder.start()
    time.sleep(1.0)  # both have started (each stalls ~3 s at the answer call)
    shed_before = _metric(stack, "beacon_turns_shed_total")
    started = time.perf_counter()
    refused = _post(stack, token)
    took_s = time.perf_counter() - started
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "1"
    assert refused.json()["error"]["code"] == "busy"
    assert "x-beacon-turn" not in refused.headers  # no turn was made
    assert took_s < 2.0  # answered at once, not after a running turn ended
    assert _metric(stack, "beacon_turns_shed_total") == shed_before + 1
    for holder in holders:
        holder.join(30)
    assert [r.status_code for r in stalled] == [200, 200]
    # A running turn ended: the next one is admitted and runs to its terminal.
    events = run_turn(stack.chat_url, {"message": PHOTOS}, token=token)
    assert events[-1].event == "done"


def test_a_started_turn_says_where_its_time_went_before_the_stream_opened(
    two_turn_stack: Stack,
) -> None:
    with httpx.stream(
        "POST",
        f"{two_turn_stack.chat_url}/v1/turns",
        json={"mode": "single", "message": PHOTOS, "locale": "en"},
        headers={
            "Authorization": f"Bearer {two_turn_stack.token()}",
            "Accept": "text/event-stream",
        },
        timeout=30,
    ) as response:
        phases = parse_server_timing(response.headers["server-timing"])
        response.read()
    assert list(phases) == ["edge", "session", "quota", "start"]
    assert all(0.0 <= ms < 30_000 for ms in phases.values())
