"""The event stream as a browser's EventSource meets it (issue 29, item 4): every
stream opens with a ``retry:`` hint; a reconnect after the terminal frame is a
``204 No Content`` (EventSource stops; an empty 200 made Chromium reconnect every
3 s for ever) while a reconnect before it still gets the rest; and a route asked
for a media type it cannot answer says ``406`` instead of streaming anyway."""

from __future__ import annotations

import httpx
import pytest

from beacon.wire.sse import parse_sse
from harness.stack import Stack

pytestmark = pytest.mark.e2e
QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"


@pytest.fixture(scope="module")
def finished(stack: Stack, token: str) -> tuple[str, str]:
    reply = httpx.post(
        f"{stack.chat_url}/v1/turns",
        headers={"Authorization": f"Bearer {token}"},
        json={"mode": "single", "message": QUESTION},
        timeout=60,
    )
    assert reply.status_code == 200, reply.text
    return reply.headers["X-Beacon-Turn"], reply.text


def last_seq(stream: str) -> int:
    frames = list(parse_sse(stream.splitlines()))
    assert frames[-1].event in {"done", "error"}
    return int(frames[-1].id or 0)


def test_a_reconnect_after_the_terminal_frame_is_204_and_one_before_it_gets_the_rest(
    stack: Stack, token: str, finished: tuple[str, str]
) -> None:
    turn_id, live = finished
    last = last_seq(live)
    url = f"{stack.chat_url}/v1/turns/{turn_id}/events"
    auth = {"Authorization": f"Bearer {token}"}

    by_header = httpx.get(url, headers={**auth, "Last-Event-ID": str(last)}, timeout=10)
    by_query = httpx.get(url, params={"after": last}, headers=auth, timeout=10)
    before = httpx.get(url, headers={**auth, "Last-Event-ID": str(last - 1)}, timeout=10)

    assert (by_header.status_code, by_header.content) == (204, b"")
    assert (by_query.status_code, by_query.content) == (204, b"")
    assert before.status_code == 200
    assert [(e.event, e.id) for e in parse_sse(before.text.splitlines())] == [("done", str(last))]


def test_a_stream_opened_with_a_ticket_leads_with_a_retry_hint_and_a_bearers_is_exact_frames(
    stack: Stack, token: str, finished: tuple[str, str]
) -> None:
    turn_id, live = finished
    url = f"{stack.chat_url}/v1/turns/{turn_id}/events"
    auth = {"Authorization": f"Bearer {token}"}
    ticket = httpx.post(f"{url.removesuffix('/events')}/ticket", headers=auth).json()["ticket"]

    ticketed = httpx.get(url, params={"ticket": ticket}, timeout=10).text
    by_bearer = httpx.get(url, headers=auth, timeout=10).text

    # The streams an EventSource can open (a ticket: it sends no header) tell it
    # how long to wait before reconnecting after a cut.
    head, _, rest = ticketed.partition("\n\n")
    assert head.startswith("retry: ") and int(head.removeprefix("retry: ")) >= 1000
    assert rest == live
    # A hint is a field, not an event: the frames parse exactly as without it.
    assert list(parse_sse(ticketed.splitlines())) == list(parse_sse(live.splitlines()))
    # A fetch client with a bearer gets the exact frames (a cut stream and the rest
    # after it join byte for byte into the saved turn).
    assert by_bearer == live and not live.startswith("retry:")


@pytest.mark.parametrize(
    ("method", "path", "accept"),
    [
        pytest.param("GET", "/v1/turns/{turn}/events", "application/json", id="events-json"),
        pytest.param("GET", "/v1/turns/{turn}/events", "text/event-stream;q=0", id="events-q0"),
        pytest.param("POST", "/v1/turns", "application/json", id="start-json"),
        pytest.param("GET", "/v1/sessions/s_none", "text/event-stream", id="session-sse"),
        pytest.param("POST", "/v1/turns/{turn}/ticket", "text/html", id="ticket-html"),
        pytest.param("GET", "/healthz", "image/png", id="health-png"),
    ],
)
def test_an_accept_the_route_cannot_serve_is_406_in_the_error_format(
    stack: Stack, token: str, finished: tuple[str, str], method: str, path: str, accept: str
) -> None:
    turn_id, _ = finished
    body = {"mode": "single", "message": QUESTION} if path == "/v1/turns" else None
    reply = httpx.request(
        method,
        stack.chat_url + path.format(turn=turn_id),
        headers={"Authorization": f"Bearer {token}", "Accept": accept},
        json=body,
        timeout=10,
    )
    assert reply.status_code == 406, reply.text
    assert reply.headers["content-type"] == "application/json"
    assert reply.json()["error"]["code"] == "not_acceptable"


@pytest.mark.parametrize(
    "accept", ["text/event-stream", "text/*", "*/*", "application/json, text/event-stream;q=0.5"]
)
def test_an_accept_that_admits_the_stream_gets_it(
    stack: Stack, token: str, finished: tuple[str, str], accept: str
) -> None:
    turn_id, _ = finished
    reply = httpx.get(
        f"{stack.chat_url}/v1/turns/{turn_id}/events",
        headers={"Authorization": f"Bearer {token}", "Accept": accept},
        timeout=10,
    )
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/event-stream")
