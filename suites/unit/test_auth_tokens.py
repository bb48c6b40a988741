"""Bearer verification: every rejection has its own stable reason code.

Keys are minted here with ``cryptography``; the stub's own issuer proves that
the dev tokens the stack hands out verify, over a real loopback JWKS URL too.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import beacon.auth
from beacon.auth import (
    Identity,
    JwksCache,
    JwksUnavailable,
    Reason,
    TokenPolicy,
    TokenRejected,
    Verifier,
    bearer_token,
    load_jwks_file,
    parse_jwks,
    verify_with_keys,
)
from harness.forged_tokens import (
    AUD,
    ISS,
    KEY_1,
    KEY_2,
    KNOWN_TIERS,
    POLICY,
    REJECTIONS,
    _b64,
    claims,
    forge,
    jwk,
    jwks,
    mint,
    now,
)
from harness.inproc import serving
from stub_server.tokens import TokenIssuer

KEYS = parse_jwks(jwks((KEY_1, "k1")))


def rejected(token: str, policy: TokenPolicy = POLICY) -> Reason:
    with pytest.raises(TokenRejected) as caught:
        verify_with_keys(token, KEYS, policy)
    return caught.value.reason


# --- accepted ---------------------------------------------------------------


def test_a_well_formed_token_yields_its_subject_tiers_and_expiry() -> None:
    exp = int(time.time()) + 600
    identity = verify_with_keys(mint(tiers=["essentials"], exp=exp), KEYS, POLICY)
    assert identity.sub == "user-1"
    assert identity.tiers == frozenset({"essentials"})
    assert int(identity.expires_at.timestamp()) == exp
    assert identity.expires_at.tzinfo is not None


def test_an_empty_tier_list_is_an_identity_that_may_call_nothing() -> None:
    assert verify_with_keys(mint(tiers=[]), KEYS, POLICY).tiers == frozenset()


def test_a_token_expired_within_the_leeway_is_still_accepted() -> None:
    assert verify_with_keys(mint(exp=int(time.time()) - 10), KEYS, POLICY).sub == "user-1"


def test_an_audience_list_containing_ours_is_accepted() -> None:
    assert verify_with_keys(mint(aud=["other", AUD]), KEYS, POLICY).sub == "user-1"


def test_the_stub_issuers_dev_tokens_verify_from_its_jwks() -> None:
    issuer = TokenIssuer()
    keys = parse_jwks(issuer.jwks())
    identity = verify_with_keys(issuer.mint("dev-user", ["enterprise_ai"]), keys, POLICY)
    assert identity == Identity("dev-user", frozenset({"enterprise_ai"}), identity.expires_at)


@pytest.mark.parametrize(("make", "reason"), REJECTIONS)
def test_each_bad_token_is_rejected_with_its_reason(make: Any, reason: Reason) -> None:
    assert rejected(make()) is reason


def test_every_reason_code_is_covered_by_some_test() -> None:
    table = {param.values[1] for param in REJECTIONS}
    elsewhere = {Reason.MISSING_TOKEN, Reason.JWKS_UNAVAILABLE}  # tested below
    assert table | elsewhere == set(Reason)


def test_leeway_is_configurable() -> None:
    token = mint(exp=int(time.time()) - 10)
    assert rejected(token, TokenPolicy(ISS, AUD, KNOWN_TIERS, leeway_s=0)) is Reason.EXPIRED


def test_a_rejection_renders_as_a_401_body_with_an_auth_code() -> None:
    with pytest.raises(TokenRejected) as caught:
        verify_with_keys(mint(exp=now() - 120), KEYS, POLICY)
    assert caught.value.http_status == 401
    assert caught.value.to_body() == {
        "error": {"code": "auth_expired", "message": "the token has expired"}
    }


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        pytest.param(None, Reason.MISSING_TOKEN, id="absent"),
        pytest.param("", Reason.MISSING_TOKEN, id="empty"),
        pytest.param("Basic dXNlcjpwYXNz", Reason.MALFORMED, id="basic-scheme"),
        pytest.param("Bearer ", Reason.MALFORMED, id="bearer-without-token"),
    ],
)
def test_the_authorization_header_must_carry_a_bearer(header: str | None, reason: Reason) -> None:
    with pytest.raises(TokenRejected) as caught:
        bearer_token(header)
    assert caught.value.reason is reason


def test_the_bearer_scheme_is_case_insensitive() -> None:
    assert bearer_token("bearer abc.def.ghi") == "abc.def.ghi"


# --- the key set: parsing, files, URLs, rotation ----------------------------


def test_only_rsa_signing_keys_of_2048_bits_or_more_are_kept() -> None:
    weak = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    document = jwks((KEY_1, "good"), (weak, "weak"))
    document["keys"] += [
        {"kty": "oct", "kid": "hmac", "k": _b64(b"secret" * 6)},
        {**jwk(KEY_2, "enc"), "use": "enc"},
        {**jwk(KEY_2, "rs512"), "alg": "RS512"},
        {"kty": "RSA", "kid": "broken", "n": "!!", "e": "AQAB"},
        "not-an-object",
    ]
    assert set(parse_jwks(document)) == {"good"}


@pytest.mark.parametrize(
    "document",
    [
        pytest.param(b"not json", id="not-json"),
        pytest.param(b"[]", id="a-list"),
        pytest.param(b'{"keys": {}}', id="keys-not-a-list"),
    ],
)
def test_a_document_that_is_not_a_key_set_is_unavailable_keys(document: bytes) -> None:
    with pytest.raises(JwksUnavailable) as caught:
        parse_jwks(document)
    assert (caught.value.code, caught.value.http_status) == ("auth_jwks_unavailable", 503)


def test_a_missing_jwks_file_is_unavailable_not_a_bad_token(tmp_path: Path) -> None:
    with pytest.raises(JwksUnavailable):
        load_jwks_file(tmp_path / "absent.json")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _write(path: Path, document: dict[str, Any]) -> None:
    path.write_text(json.dumps(document))


def _verifier(source: Any, clock: Clock, **kw: Any) -> Verifier:
    cache = JwksCache(source, clock=clock, ttl_s=300, refetch_interval_s=30, **kw)
    return Verifier(cache, issuer=ISS, audience=AUD, known_tiers=KNOWN_TIERS)


async def test_a_rotated_key_is_picked_up_by_one_refetch(tmp_path: Path) -> None:
    path, clock = tmp_path / "jwks.json", Clock()
    _write(path, jwks((KEY_1, "k1")))
    verifier = _verifier(path, clock)
    assert (await verifier.verify(mint())).sub == "user-1"
    _write(path, jwks((KEY_2, "k2"), (KEY_1, "k1")))
    clock.now += 31
    assert (await verifier.verify(mint(KEY_2, kid="k2"))).sub == "user-1"
    assert verifier.keys.fetches == 2


async def test_unknown_kids_refetch_at_most_once_per_interval(tmp_path: Path) -> None:
    path, clock = tmp_path / "jwks.json", Clock()
    _write(path, jwks((KEY_1, "k1")))
    verifier = _verifier(path, clock)
    await verifier.verify(mint())
    clock.now += 31
    for _ in range(5):
        with pytest.raises(TokenRejected) as caught:
            await verifier.verify(mint(kid="k9"))
        assert caught.value.reason is Reason.UNKNOWN_KID
    assert verifier.keys.fetches == 2  # the first load, then one refetch for five asks
    _write(path, jwks((KEY_2, "k9"), (KEY_1, "k1")))
    with pytest.raises(TokenRejected):  # still inside the interval: no new fetch
        await verifier.verify(mint(KEY_2, kid="k9"))
    clock.now += 31
    assert (await verifier.verify(mint(KEY_2, kid="k9"))).sub == "user-1"


async def test_a_key_removed_from_the_set_stops_verifying_after_the_ttl(tmp_path: Path) -> None:
    path, clock = tmp_path / "jwks.json", Clock()
    _write(path, jwks((KEY_1, "k1")))
    verifier = _verifier(path, clock)
    await verifier.verify(mint())
    _write(path, jwks((KEY_2, "k2")))
    clock.now += 301
    with pytest.raises(TokenRejected) as caught:
        await verifier.verify(mint())
    assert caught.value.reason is Reason.UNKNOWN_KID


async def test_no_stale_key_is_used_when_the_refresh_fails(tmp_path: Path) -> None:
    path, clock = tmp_path / "jwks.json", Clock()
    _write(path, jwks((KEY_1, "k1")))
    verifier = _verifier(path, clock)
    await verifier.verify(mint())
    path.unlink()
    clock.now += 301
    for _ in range(2):  # the second answer comes from the back-off, not a new read
        with pytest.raises(JwksUnavailable):
            await verifier.verify(mint())
    assert verifier.keys.fetches == 2


async def test_a_junk_token_costs_no_jwks_fetch(tmp_path: Path) -> None:
    verifier = _verifier(tmp_path / "never-read.json", Clock())
    for junk in ("junk", forge({"alg": "none", "kid": "k1"}, claims())):
        with pytest.raises(TokenRejected):
            await verifier.verify(junk)
    assert verifier.keys.fetches == 0


class JwksServer:
    def __init__(self) -> None:
        self.document: dict[str, Any] = {"keys": []}
        self.status = 200
        self.hits = 0

    def app(self, _origin: str) -> Starlette:
        async def serve(_request: Request) -> Response:
            self.hits += 1
            return JSONResponse(self.document, status_code=self.status)

        return Starlette(routes=[Route("/.well-known/jwks.json", serve)])


@pytest.fixture(scope="module")
def jwks_server() -> Iterator[tuple[JwksServer, str]]:
    server = JwksServer()
    with serving(server.app) as origin:
        yield server, f"{origin}/.well-known/jwks.json"


async def test_keys_are_fetched_from_a_url_and_cached(jwks_server: tuple[JwksServer, str]) -> None:
    server, url = jwks_server
    server.document, server.status, server.hits = jwks((KEY_1, "k1")), 200, 0
    verifier = _verifier(url, Clock())
    for _ in range(3):
        assert (await verifier.verify(mint())).sub == "user-1"
    assert server.hits == 1


async def test_concurrent_first_requests_share_one_fetch(
    jwks_server: tuple[JwksServer, str],
) -> None:
    server, url = jwks_server
    server.document, server.status, server.hits = jwks((KEY_1, "k1")), 200, 0
    verifier = _verifier(url, Clock())
    identities = await asyncio.gather(*(verifier.verify(mint()) for _ in range(20)))
    assert {i.sub for i in identities} == {"user-1"}
    assert server.hits == 1


async def test_a_failing_jwks_url_is_unavailable(jwks_server: tuple[JwksServer, str]) -> None:
    server, url = jwks_server
    server.document, server.status = {"error": "down"}, 500
    with pytest.raises(JwksUnavailable) as caught:
        await _verifier(url, Clock()).verify(mint())
    assert caught.value.to_body()["error"]["code"] == "auth_jwks_unavailable"


async def test_an_unreachable_jwks_url_is_unavailable() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    verifier = _verifier(
        "http://127.0.0.1:9/jwks.json", Clock(), transport=httpx.MockTransport(refuse)
    )
    with pytest.raises(JwksUnavailable):
        await verifier.verify(mint())


@pytest.fixture(scope="module")
def stub_origin() -> Iterator[str]:
    from stub_server.mcp_app import create_app  # imports mcp: only when this fixture runs

    with serving(lambda origin: create_app(public_origin=origin)) as origin:
        yield origin


async def test_a_token_minted_by_the_running_stub_verifies_against_its_jwks_url(
    stub_origin: str,
) -> None:
    async with httpx.AsyncClient() as client:
        minted = await client.post(
            f"{stub_origin}/dev/tokens", json={"sub": "dev-7", "tiers": ["essentials"]}
        )
    verifier = Verifier(
        f"{stub_origin}/.well-known/jwks.json",
        issuer="beacon-stub",
        audience="beacon",
        known_tiers=KNOWN_TIERS,
    )
    identity = await verifier.verify_header(f"Bearer {minted.json()['token']}")
    assert (identity.sub, identity.tiers) == ("dev-7", frozenset({"essentials"}))


def test_the_public_surface_is_complete() -> None:
    exported = {n for n in dir(beacon.auth) if not n.startswith("_")}
    modules = {"errors", "families", "jwks", "verify"}
    assert set(beacon.auth.__all__) == exported - modules
