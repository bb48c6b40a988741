"""Two token families: the verifier reads ``typ`` and ``scope``, and every route of
the chat server declares the one family it takes (beacon/server/access.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import jwt
import pytest
from fastapi.routing import APIRoute
from offline_app import offline_app

from beacon.auth import Reason, TokenRejected, verify_with_keys
from beacon.auth.families import Family
from beacon.server.access import ROUTE_ACCESS, Access, access_of
from beacon.server.routes import service
from harness.forged_tokens import KEY_1, POLICY, mint
from stub_server.tokens import TokenIssuer

KEYS = {"k1": KEY_1.public_key()}


def test_a_token_without_typ_is_a_user_token_with_its_tiers_and_no_scopes() -> None:
    identity = verify_with_keys(mint(), KEYS, POLICY)
    assert (identity.family, identity.tiers, identity.scopes) == (
        Family.USER,
        frozenset({"professional"}),
        frozenset(),
    )


def test_a_service_token_carries_its_space_separated_scopes_and_grants_no_tiers() -> None:
    # A tiers claim on a service token is not read: it grants no user's sources.
    token = mint(typ="service", sub="ci", scope="verify metrics")
    identity = verify_with_keys(token, KEYS, POLICY)
    assert (identity.sub, identity.family) == ("ci", Family.SERVICE)
    assert identity.scopes == frozenset({"verify", "metrics"})
    assert identity.tiers == frozenset()


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        pytest.param({"typ": "robot"}, Reason.BAD_TYPE, id="unknown-typ"),
        pytest.param({"typ": 7}, Reason.BAD_TYPE, id="typ-not-a-string"),
        pytest.param({"typ": "service"}, Reason.BAD_SCOPE, id="service-without-scope"),
        pytest.param({"typ": "service", "scope": ""}, Reason.BAD_SCOPE, id="empty-scope"),
        pytest.param({"typ": "service", "scope": ["probe"]}, Reason.BAD_SCOPE, id="scope-list"),
        pytest.param({"typ": "service", "scope": "probe admin"}, Reason.BAD_SCOPE, id="unknown"),
        pytest.param({"typ": "service", "scope": "probe " * 17}, Reason.BAD_SCOPE, id="too-many"),
    ],
)
def test_a_token_of_no_known_family_or_scope_is_refused_with_its_reason(
    overrides: dict[str, object], reason: Reason
) -> None:
    with pytest.raises(TokenRejected) as refused:
        verify_with_keys(mint(**overrides), KEYS, POLICY)
    assert refused.value.code == f"auth_{reason.value}"


def test_the_stubs_service_token_verifies_as_a_service_identity() -> None:
    issuer = TokenIssuer()
    token = issuer.mint_service("probe-1", ["probe"], ttl_s=60)
    key = jwt.PyJWK(issuer.jwks()["keys"][0]).key
    identity = verify_with_keys(token, {"stub-1": key}, POLICY)
    assert (identity.sub, identity.family, identity.scopes) == (
        "probe-1",
        Family.SERVICE,
        frozenset({"probe"}),
    )
    assert 0 < (identity.expires_at - datetime.now(UTC)).total_seconds() <= 61


def test_every_operation_of_the_openapi_document_declares_its_token_family(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = offline_app(tmp_path, monkeypatch)
    operations = [
        operation["operationId"]
        for item in app.openapi()["paths"].values()
        for operation in item.values()
    ]
    assert len(operations) >= 11  # the document is walked, not an empty one
    undeclared = [op for op in operations if op not in ROUTE_ACCESS]
    assert undeclared == []


def test_every_route_the_app_serves_declares_its_token_family_even_outside_the_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = offline_app(tmp_path, monkeypatch)
    # An included router is one entry of app.routes; its own routes are what is served.
    routes = [
        route
        for entry in app.routes
        for route in getattr(getattr(entry, "original_router", None), "routes", [entry])
    ]
    served = [r.operation_id for r in routes if isinstance(r, APIRoute)]
    assert "metrics" in served  # /metrics is left out of the document
    assert [op for op in served if op not in ROUTE_ACCESS] == []


def test_a_route_the_table_does_not_name_fails_closed() -> None:
    with pytest.raises(RuntimeError, match="declares no token family"):
        access_of("a_route_nobody_declared")
    with pytest.raises(RuntimeError):
        access_of(None)


def test_only_the_whoami_route_takes_service_tokens_and_it_wants_the_probe_scope() -> None:
    services = {op: a for op, a in ROUTE_ACCESS.items() if a.family is Family.SERVICE}
    assert services == {"service_whoami": Access(Family.SERVICE, "probe")}
    assert [r.path for r in service.router.routes] == ["/v1/service/whoami"]
