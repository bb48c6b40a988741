"""The request edge's one more way in (``beacon/server/ticket_edge.py``): a stream
ticket opens its own turn's event stream and nothing else; a bearer is never read
from a URL. The over-HTTP cases against a whole chat server: suites/e2e/test_stream_tickets.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from fastapi import FastAPI, Request

from beacon.auth.verify import Identity, Verifier
from beacon.server.edge import EdgeLimits, verified_identity
from beacon.server.ticket_edge import TICKET_PARAM, TicketEdge
from beacon.server.tickets import TicketKeys
from beacon.store.crypto import keyring_from_env, new_key_slot

EVENTS = "/v1/turns/t_1/events"


def _edge() -> tuple[TicketEdge, TicketKeys, list[str]]:
    reached: list[str] = []
    app = FastAPI()

    @app.get("/v1/turns/{turn_id}/events")
    async def events(request: Request, turn_id: str) -> dict[str, str]:
        reached.append(verified_identity(request.scope).sub)
        return {"turn_id": turn_id}

    keys = TicketKeys(keyring_from_env({"BEACON_KEYS": new_key_slot("t1")}))
    # No key set is ever fetched here: a request that reaches the bearer check is a 401/503.
    verifier = Verifier(
        "http://127.0.0.1:9/jwks", issuer="i", audience="a", known_tiers=frozenset()
    )
    edge = TicketEdge(app, verifier=verifier, limits=EdgeLimits(1024, False), tickets=keys)
    return edge, keys, reached


def _ticket(keys: TicketKeys, turn_id: str) -> str:
    expires = datetime.now(UTC) + timedelta(hours=1)
    identity = Identity(sub="ada", tiers=frozenset({"essentials"}), expires_at=expires)
    return keys.mint(identity, turn_id).ticket


async def _get(edge: TicketEdge, url: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=edge)
    async with httpx.AsyncClient(transport=transport, base_url="http://edge") as client:
        return await client.get(url)


async def test_a_ticket_opens_its_own_turns_event_stream_as_its_owner() -> None:
    edge, keys, reached = _edge()
    response = await _get(edge, f"{EVENTS}?{TICKET_PARAM}={_ticket(keys, 't_1')}")
    assert (response.status_code, response.json()) == (200, {"turn_id": "t_1"})
    assert reached == ["ada"]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        pytest.param("access_token=abc", "bearer_in_query", id="rfc6750-query-bearer"),
        pytest.param(f"{TICKET_PARAM}=eyJa.eyJb.sig", "bearer_in_query", id="jwt-as-ticket"),
        pytest.param(f"{TICKET_PARAM}=bst.t1.AAAA", "ticket_invalid", id="forged-ticket"),
    ],
)
async def test_a_bearer_in_the_url_or_a_forged_ticket_is_a_coded_401_before_any_route(
    query: str, code: str
) -> None:
    edge, _, reached = _edge()
    response = await _get(edge, f"{EVENTS}?{query}")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == code
    assert reached == []


async def test_a_ticket_for_another_turn_opens_nothing() -> None:
    edge, keys, reached = _edge()
    response = await _get(edge, f"{EVENTS}?{TICKET_PARAM}={_ticket(keys, 't_2')}")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "ticket_other_turn"
    assert reached == []


async def test_two_tickets_in_one_url_are_refused() -> None:
    edge, keys, reached = _edge()
    ticket = _ticket(keys, "t_1")
    response = await _get(edge, f"{EVENTS}?{TICKET_PARAM}={ticket}&{TICKET_PARAM}={ticket}")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "ticket_invalid"
    assert reached == []


async def test_a_ticket_sealed_by_another_servers_ring_opens_nothing() -> None:
    edge, _, reached = _edge()
    stranger = TicketKeys(keyring_from_env({"BEACON_KEYS": new_key_slot("t1")}))
    response = await _get(edge, f"{EVENTS}?{TICKET_PARAM}={_ticket(stranger, 't_1')}")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "ticket_invalid"
    assert reached == []


async def test_a_ticket_is_no_way_into_any_other_route() -> None:
    edge, keys, reached = _edge()
    response = await _get(edge, f"/v1/turns/t_1/more?{TICKET_PARAM}={_ticket(keys, 't_1')}")
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert reached == []
