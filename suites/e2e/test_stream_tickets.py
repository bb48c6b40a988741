"""Stream tickets (issue 29, item 4): a browser's EventSource sends no
Authorization header, so the owner of a turn mints a ticket with its bearer and
follows the turn with ``?ticket=…``. A ticket opens one turn, for its owner, for
minutes (never past the bearer it came from); the bearer itself is never taken
from a URL. Everything over real HTTP against ``beacon up``."""

from __future__ import annotations

import time

import httpx
import pytest

from beacon.wire.sse import parse_sse
from harness.stack import Stack

pytestmark = pytest.mark.e2e
QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start_turn(stack: Stack, token: str) -> tuple[str, str]:
    """A finished single-mode turn: its id and the stream's text."""
    reply = httpx.post(
        f"{stack.chat_url}/v1/turns",
        headers=bearer(token),
        json={"mode": "single", "message": QUESTION},
        timeout=60,
    )
    assert reply.status_code == 200, reply.text
    return reply.headers["X-Beacon-Turn"], reply.text


def mint(stack: Stack, token: str, turn_id: str) -> httpx.Response:
    return httpx.post(f"{stack.chat_url}/v1/turns/{turn_id}/ticket", headers=bearer(token))


def events(stack: Stack, turn_id: str, **params: str | int) -> httpx.Response:
    return httpx.get(f"{stack.chat_url}/v1/turns/{turn_id}/events", params=params, timeout=30)


def refusal(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


@pytest.fixture(scope="module")
def turn(stack: Stack, token: str) -> tuple[str, str]:
    return start_turn(stack, token)


def test_a_ticket_replays_the_owners_turn_without_any_authorization_header(
    stack: Stack, token: str, turn: tuple[str, str]
) -> None:
    turn_id, live = turn
    minted = mint(stack, token, turn_id)
    assert minted.status_code == 200, minted.text
    assert minted.headers["cache-control"] == "no-store"
    ticket = minted.json()["ticket"]
    assert 0 < minted.json()["expires_in"] <= 300
    assert token not in ticket  # the bearer never rides along

    followed = events(stack, turn_id, ticket=ticket)

    assert followed.status_code == 200, followed.text
    assert [e.data for e in parse_sse(followed.text.splitlines())] == [
        e.data for e in parse_sse(live.splitlines())
    ]


def test_a_ticket_is_refused_for_another_users_turn(
    stack: Stack, token: str, turn: tuple[str, str]
) -> None:
    turn_id, _ = turn
    stranger = stack.token(sub="someone-else")
    # Minting for a turn one does not own is the same 404 as for a missing turn.
    assert refusal(mint(stack, stranger, turn_id)) == (404, "turn_not_found")
    # The stranger's own ticket (for their own turn) opens nothing of the owner's.
    own_turn, _ = start_turn(stack, stranger)
    theirs = mint(stack, stranger, own_turn).json()["ticket"]
    assert refusal(events(stack, turn_id, ticket=theirs)) == (401, "ticket_other_turn")


def test_a_ticket_is_refused_on_another_turn_of_the_same_owner(
    stack: Stack, token: str, turn: tuple[str, str]
) -> None:
    turn_id, _ = turn
    other, _ = start_turn(stack, token)
    ticket = mint(stack, token, turn_id).json()["ticket"]

    assert refusal(events(stack, other, ticket=ticket)) == (401, "ticket_other_turn")
    assert events(stack, turn_id, ticket=ticket).status_code == 200


def test_an_expired_ticket_is_refused_and_no_ticket_outlives_its_bearer(stack: Stack) -> None:
    minted_at = time.time()
    # The bearer lives 3 s (the server's 30 s leeway still takes it for minting).
    token = httpx.post(
        f"{stack.mcp_origin}/dev/tokens",
        json={"sub": "short-lived", "tiers": ["enterprise_ai"], "ttl_s": 3},
        timeout=10,
    ).json()["token"]
    turn_id, _ = start_turn(stack, token)
    minted = mint(stack, token, turn_id).json()
    assert minted["expires_in"] <= 3
    assert events(stack, turn_id, ticket=minted["ticket"]).status_code == 200

    time.sleep(max(0.0, minted_at + 4.5 - time.time()))

    assert refusal(events(stack, turn_id, ticket=minted["ticket"])) == (401, "ticket_expired")


def test_the_bearer_is_never_accepted_in_the_query_string(
    stack: Stack, token: str, turn: tuple[str, str]
) -> None:
    turn_id, _ = turn
    assert refusal(events(stack, turn_id, ticket=token)) == (401, "bearer_in_query")
    assert refusal(events(stack, turn_id, access_token=token)) == (401, "bearer_in_query")
    # Not even beside a good header: a bearer in a URL has leaked already.
    beside = httpx.get(
        f"{stack.chat_url}/v1/sessions/s_x",
        params={"access_token": token},
        headers=bearer(token),
        timeout=10,
    )
    assert refusal(beside) == (401, "bearer_in_query")


def test_a_ticket_opens_the_event_stream_only_and_a_tampered_one_nothing(
    stack: Stack, token: str, turn: tuple[str, str]
) -> None:
    turn_id, _ = turn
    ticket = mint(stack, token, turn_id).json()["ticket"]
    # Another route wants the bearer header, ticket or not.
    more = httpx.post(
        f"{stack.chat_url}/v1/turns/{turn_id}/more",
        params={"ticket": ticket},
        json={"slot": "c1"},
        timeout=10,
    )
    assert refusal(more) == (401, "auth_missing_token")
    # Nor may a ticket mint another (a ticket cannot extend itself).
    renewed = httpx.post(f"{stack.chat_url}/v1/turns/{turn_id}/ticket", params={"ticket": ticket})
    assert refusal(renewed) == (401, "auth_missing_token")
    flipped = ticket[:-4] + ("AAAA" if not ticket.endswith("AAAA") else "BBBB")
    assert refusal(events(stack, turn_id, ticket=flipped)) == (401, "ticket_invalid")
    # A bad ticket is refused even beside a good header: the ticket decides.
    both = httpx.get(
        f"{stack.chat_url}/v1/turns/{turn_id}/events",
        params={"ticket": flipped},
        headers=bearer(token),
        timeout=10,
    )
    assert refusal(both) == (401, "ticket_invalid")
