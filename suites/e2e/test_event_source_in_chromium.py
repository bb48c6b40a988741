"""A browser's own EventSource follows a turn with a stream ticket (issue 29, item
4), through the example client a host copies (``beacon/hosts/shared/turn-events.js``,
shown by ``stream.html``), in Debian's Chromium: the frames arrive in order to the
terminal; the server's ``error`` frame is told from EventSource's connection error
(only the frame has data); and a source that never closes reconnects once after
the terminal, is answered 204 and stops, instead of every 3 s for ever."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Page, expect

from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"
EXAMPLE = "/hosts/shared/stream.html"


def start_turn(stack: Stack, token: str, scenario: str = "slow-upstream") -> str:
    """Start a turn and hang up at once: the turn runs on, live, for the browser."""
    with httpx.stream(
        "POST",
        f"{stack.chat_url}/v1/turns",
        json={"mode": "single", "message": QUESTION},
        headers={"Authorization": f"Bearer {token}", "X-Beacon-Scenario": scenario},
        timeout=30,
    ) as response:
        assert response.status_code == 200
        return response.headers["X-Beacon-Turn"]


def ticket_for(stack: Stack, token: str, turn_id: str) -> str:
    reply = httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/ticket",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert reply.status_code == 200, reply.text
    ticket = reply.json()["ticket"]
    assert isinstance(ticket, str)
    return ticket


def events_requests(page: Page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "/events" in r.url else None)
    return seen


def test_a_ticket_lets_eventsource_follow_a_turn_in_chromium(
    stack: Stack, token: str, page: Page
) -> None:
    turn_id = start_turn(stack, token)
    ticket = ticket_for(stack, token, turn_id)
    requested = events_requests(page)

    page.goto(f"{stack.chat_url}{EXAMPLE}#turn={turn_id}&ticket={ticket}")

    status = page.get_by_test_id("stream-status")
    expect(status).to_have_attribute("data-state", "done", timeout=30_000)
    frames = page.get_by_test_id("frames").locator("li")
    types = [f.get_attribute("data-type") for f in frames.all()]
    seqs = [int(f.get_attribute("data-seq") or 0) for f in frames.all()]
    assert types[0] == "start" and types[-1] == "done" and "references" in types
    assert seqs == list(range(1, len(seqs) + 1))
    # The query carried the ticket, never the bearer; one request, no reconnects.
    assert len(requested) == 1 and f"ticket={ticket}" in requested[0]
    assert token not in requested[0]


def test_eventsource_tells_the_servers_error_frame_from_a_connection_error(
    stack: Stack, token: str, page: Page
) -> None:
    failing = start_turn(stack, token, scenario="model-429")
    page.goto(
        f"{stack.chat_url}{EXAMPLE}#turn={failing}&ticket={ticket_for(stack, token, failing)}"
    )
    status = page.get_by_test_id("stream-status")
    expect(status).to_have_attribute("data-state", "error-frame", timeout=30_000)
    expect(status).to_contain_text("llm_refused")

    # A refused ticket (another turn's): EventSource's own error, no data, no frames.
    other = start_turn(stack, token, scenario="default")
    page.goto("about:blank")
    page.goto(f"{stack.chat_url}{EXAMPLE}#turn={other}&ticket={ticket_for(stack, token, failing)}")
    expect(status).to_have_attribute("data-state", "connection-closed", timeout=15_000)
    expect(page.get_by_test_id("frames").locator("li")).to_have_count(0)


def test_an_eventsource_left_open_after_the_terminal_gets_one_204_and_stops(
    stack: Stack, token: str, page: Page
) -> None:
    turn_id = start_turn(stack, token, scenario="default")
    ticket = ticket_for(stack, token, turn_id)
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/events" in r.url else None)
    page.goto(f"{stack.chat_url}{EXAMPLE}")  # the page, but no client of its own

    page.evaluate(
        """([turn, ticket]) => {
            window.opened = [];
            const source = new EventSource(`/v1/turns/${turn}/events?ticket=${ticket}`);
            source.addEventListener("done", () => window.opened.push("done"));
            source.addEventListener("error", (e) => window.opened.push(
                typeof e.data === "string" ? "frame" : `connection:${source.readyState}`));
            window.source = source;
        }""",
        [turn_id, ticket],
    )
    # Polled from here: the page's policy allows no eval, which wait_for_function uses.
    deadline = time.monotonic() + 15
    while page.evaluate("() => window.source.readyState") != 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(4)  # past Chromium's own 3 s reconnect delay: nothing more is asked

    assert statuses == [200, 204]
    # The end of the stream (reconnecting: 0), then the 204 (closed for good: 2).
    assert page.evaluate("window.opened") == ["done", "connection:0", "connection:2"]
