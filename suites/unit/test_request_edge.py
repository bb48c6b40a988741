"""The edge's pieces on their own (issue 15): the catch-all's coded 500, the
token-lifetime rule in each of its two forms, one load-more per slot, and the
settings that switch the edge (the over-HTTP cases: suites/e2e/test_hostile_edge.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
import jwt
import pytest
from fastapi import FastAPI

from beacon.auth import Reason, TokenPolicy, TokenRejected, parse_jwks, verify_with_keys
from beacon.server.edge import unforeseen
from beacon.server.settings import SettingsError, settings_from_env
from beacon.server.slots import SlotLocks
from beacon.store.crypto import new_key_slot
from harness.forged_tokens import AUD, ISS, KEY_1, KNOWN_TIERS, claims, jwks, mint

KEYS = parse_jwks(jwks((KEY_1, "k1")))
DAY = 24 * 3600
POLICY = TokenPolicy(ISS, AUD, KNOWN_TIERS)


async def test_anything_unforeseen_is_a_coded_500_without_internals() -> None:
    app = FastAPI()
    app.add_exception_handler(Exception, unforeseen)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("/srv/beacon/secret.sqlite3 is locked")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://edge") as client:
        response = await client.get("/boom")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal"
    assert "secret" not in response.text and "RuntimeError" not in response.text
    # Outside every middleware, the 500 carries the security headers itself.
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-security-policy"].startswith("default-src 'none'")


def _without_iat(exp: int) -> str:
    body = claims(exp=exp)
    del body["iat"]
    return jwt.encode(body, KEY_1, algorithm="RS256", headers={"kid": "k1"})


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda now: mint(iat=now, exp=now + DAY + 60), id="exp-minus-iat"),
        pytest.param(
            lambda now: mint(iat=now - DAY, nbf=now - DAY, exp=now + 120), id="minted-a-day-ago"
        ),
        pytest.param(lambda now: _without_iat(now + 2 * DAY), id="exp-minus-now-without-iat"),
        pytest.param(lambda now: mint(iat=now, exp=10**400), id="exp-of-400-digits"),
        pytest.param(lambda now: mint(iat=now, exp=now + 100 * 365 * DAY), id="a-century"),
    ],
)
def test_a_token_living_longer_than_the_maximum_is_rejected(make: Callable[[int], str]) -> None:
    with pytest.raises(TokenRejected) as caught:
        verify_with_keys(make(int(time.time())), KEYS, POLICY)
    assert caught.value.reason is Reason.LIFETIME_TOO_LONG
    assert caught.value.code == "auth_lifetime_too_long"


def test_a_token_of_exactly_the_maximum_lifetime_is_accepted_and_the_maximum_is_a_setting() -> None:
    now = int(time.time())
    day = mint(iat=now, exp=now + DAY)
    assert verify_with_keys(day, KEYS, POLICY).sub == "user-1"
    hour = TokenPolicy(ISS, AUD, KNOWN_TIERS, max_lifetime_s=3600)
    with pytest.raises(TokenRejected):
        verify_with_keys(day, KEYS, hour)


async def test_calls_on_one_slot_take_turns_and_leave_no_lock_behind() -> None:
    locks, inside, most = SlotLocks(), 0, 0

    async def call(slot: str) -> None:
        nonlocal inside, most
        async with locks.hold("t_1", slot):
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.01)
            inside -= 1

    await asyncio.gather(*(call("c1") for _ in range(8)))
    assert most == 1 and len(locks) == 0
    await asyncio.gather(call("c1"), call("c2"))  # another slot does not wait
    assert len(locks) == 0


BASE = {
    "BEACON_MCP_URL": "http://127.0.0.1:1/mcp",
    "BEACON_LLM_BASE_URL": "http://127.0.0.1:1/v1",
    "BEACON_JWKS": "/dev/null",
    "BEACON_DB": "/tmp/unused.sqlite3",
}


def test_the_edge_settings_default_to_closed_and_refuse_nonsense() -> None:
    env = {**BASE, "BEACON_KEYS": new_key_slot("k")}
    settings = settings_from_env(env)
    assert settings.scenarios_allowed is False
    assert (settings.max_body_bytes, settings.token_max_lifetime_s) == (256 * 1024, DAY)
    assert settings_from_env({**env, "BEACON_SCENARIOS": "allow"}).scenarios_allowed
    for name, value in [
        ("BEACON_SCENARIOS", "yes"),
        ("BEACON_MAX_BODY_BYTES", "１０"),
        ("BEACON_MAX_HEADER_BYTES", "1024"),
        ("BEACON_TOKEN_MAX_LIFETIME_S", "-1"),
    ]:
        with pytest.raises(SettingsError, match=name):
            settings_from_env({**env, name: value})
