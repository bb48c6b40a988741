"""The stub over real HTTP, driven by the official MCP SDK client as a real peer: the
bearer gate, the dev endpoints and the tool results (``test_stub_mcp_scenarios.py``:
errors, scenarios, the request log and the declared contract)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import jwt
import pytest
from stub_mcp_peer import HARBOR, Stub, accounting_of, serving_stub, session, structured_of, text_of

from stub_server.tokens import TokenIssuer


@pytest.fixture(scope="module")
def stub() -> Iterator[Stub]:
    with serving_stub() as served:
        yield served


# --- the bearer gate -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        pytest.param({}, "missing_bearer", id="no-bearer"),
        pytest.param({"Authorization": "Bearer not-a-jwt"}, "malformed", id="garbage-bearer"),
        pytest.param({"Authorization": "Basic dXNlcjpwYXNz"}, "missing_bearer", id="basic-auth"),
    ],
)
def test_the_mcp_endpoint_answers_401_before_mcp_sees_the_request(
    stub: Stub, headers: dict[str, str], reason: str
) -> None:
    response = httpx.post(
        stub.mcp_url, headers=headers, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}
    )
    assert response.status_code == 401
    assert response.json() == {"error": "invalid_token", "reason": reason}
    assert response.headers["www-authenticate"].startswith("Bearer")


def test_a_token_signed_by_another_key_is_refused(stub: Stub) -> None:
    foreign = TokenIssuer().mint("intruder", ["enterprise_ai"])
    response = httpx.post(stub.mcp_url, headers={"Authorization": f"Bearer {foreign}"}, json={})
    assert response.status_code == 401
    assert response.json()["reason"] == "bad_signature"


# --- dev endpoints -------------------------------------------------------------------------


def test_the_jwks_publishes_the_signing_key(stub: Stub) -> None:
    keys = httpx.get(f"{stub.origin}/.well-known/jwks.json").json()["keys"]
    assert [(k["kid"], k["kty"], k["alg"]) for k in keys] == [("stub-1", "RSA", "RS256")]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"tiers": []}, "sub", id="missing-sub"),
        pytest.param({"sub": "u", "tiers": "enterprise"}, "tiers", id="tiers-not-a-list"),
        pytest.param({"sub": "u", "tiers": [], "ttl_s": 0}, "ttl_s", id="ttl-zero"),
        pytest.param({"sub": "u", "tiers": [], "expired_s": 0}, "expired_s", id="expired-zero"),
        pytest.param(
            {"sub": "u", "tiers": [], "ttl_s": 60, "expired_s": 60}, "(body)", id="ttl-and-expired"
        ),
        pytest.param({"sub": "u"}, "(body)", id="user-without-tiers"),
        pytest.param({"sub": "u", "tiers": [], "scopes": ["probe"]}, "(body)", id="user-scopes"),
        pytest.param({"sub": "s", "typ": "service"}, "(body)", id="service-without-scopes"),
        pytest.param(
            {"sub": "s", "typ": "service", "scopes": ["probe"], "tiers": ["essentials"]},
            "(body)",
            id="service-with-tiers",
        ),
        pytest.param({"sub": "s", "typ": "robot", "scopes": ["probe"]}, "typ", id="unknown-typ"),
    ],
)
def test_a_bad_token_request_is_a_422_naming_the_field(
    stub: Stub, body: dict[str, Any], field: str
) -> None:
    response = httpx.post(f"{stub.origin}/dev/tokens", json=body)
    assert response.status_code == 422
    assert response.json()["field"] == field


def test_a_token_asked_expired_ended_that_long_ago_after_a_life_that_began_before(
    stub: Stub,
) -> None:
    before = int(time.time())
    response = httpx.post(
        f"{stub.origin}/dev/tokens", json={"sub": "u", "tiers": ["essentials"], "expired_s": 40}
    )
    after = int(time.time())
    claims = jwt.decode(response.json()["token"], options={"verify_signature": False})
    assert before - 40 <= claims["exp"] <= after - 40
    assert claims["iat"] == claims["nbf"] < claims["exp"]
    with pytest.raises(jwt.ExpiredSignatureError):  # expired beyond a 30 s leeway too
        jwt.decode(
            response.json()["token"],
            options={"verify_signature": False, "verify_exp": True},
            leeway=30,
        )


def test_thumbnails_and_health(stub: Stub) -> None:
    svg = httpx.get(f"{stub.origin}/thumbs/ph-000001.svg")
    assert svg.status_code == 200 and "ph-000001" in svg.text
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert httpx.get(f"{stub.origin}/thumbs/ph-999999.svg").status_code == 404
    assert httpx.get(f"{stub.origin}/healthz").json() == {"ok": True}


# --- tool results --------------------------------------------------------------------------


async def test_search_photos_reports_a_lower_bound_in_both_places(stub: Stub) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool(
            "search_photos", {"project_id": HARBOR, "query": "missing hard hats", "limit": 10}
        )
    structured, accounting = structured_of(result), accounting_of(result)
    assert 150 <= structured["total_lower_bound"] <= 199
    assert "total" not in structured
    assert accounting == {k: structured[k] for k in accounting}
    assert structured["returned"] == len(structured["items"]) == 10
    assert structured["has_more"] is True and isinstance(structured["cursor"], str)
    assert (
        structured["items"][0]["thumbnail"]
        == f"{stub.origin}/thumbs/{structured['items'][0]['id']}.svg"
    )
    assert text_of(result).startswith('Search results for "missing hard hats" in Harbor Tower')
    assert text_of(result).count("## Image #") == 10


async def test_a_saturated_list_pins_to_the_cap_and_falsely_claims_completion(stub: Stub) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool(
            "query_data", {"project_id": HARBOR, "question": "List all panoramas in Harbor Tower"}
        )
    structured = structured_of(result)
    assert (structured["total"], structured["returned"], structured["has_more"]) == (
        3000,
        3000,
        False,
    )
    assert len(structured["rows"]) == 3000 and structured["aggregate"] is None
    assert structured["sql"].endswith("LIMIT 3000")
    assert accounting_of(result)["total"] == 3000
    assert text_of(result).splitlines()[0] == "Query executed successfully."
    assert len(result.model_dump_json(by_alias=True)) < 1024 * 1024


async def test_a_count_is_an_exact_aggregate_exempt_from_the_cap(stub: Stub) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool(
            "query_data",
            {"project_id": HARBOR, "question": "How many panoramas are in Harbor Tower?"},
        )
    structured = structured_of(result)
    assert structured["aggregate"] == {"function": "COUNT", "column": "count", "value": 7961}
    assert accounting_of(result)["aggregate"]["value"] == 7961
    assert "LIMIT" not in structured["sql"]


async def test_list_projects_lists_all_four_in_one_page(stub: Stub) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool("list_projects", {})
    structured = structured_of(result)
    assert (structured["returned"], structured["total"], structured["has_more"]) == (4, 4, False)
    harbor = next(item for item in structured["items"] if item["id"] == HARBOR)
    assert (harbor["panoramas"], harbor["levels"]) == (7961, 14)
    assert accounting_of(result)["result_kind"] == "rows"


async def test_an_omitted_project_falls_back_to_the_last_explicit_one(stub: Stub) -> None:
    async with session(stub) as mcp:
        await mcp.call_tool("list_levels", {"project_id": "prj-cedar-school"})
        fallback = await mcp.call_tool("list_levels", {})
    assert structured_of(fallback)["total"] == 6
