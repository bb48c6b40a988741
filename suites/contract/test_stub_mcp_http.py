"""The stub over real HTTP, driven by the official MCP SDK client as a real peer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import httpx2
import pytest
from mcp import ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp_types import INVALID_PARAMS, CallToolResult, TextContent

from beacon.upstream.mcp_client import MAX_EVENT_BYTES
from beacon.wire.accounting import ACCOUNTING_META_KEY, Accounting
from beacon.wire.contract import drift, stub_contract
from harness.inproc import serving
from stub_server.mcp_app import PROTOCOL_VERSION, create_app
from stub_server.photo_detail import MEASURED_RESULT_BYTES
from stub_server.tokens import TokenIssuer

HARBOR = "prj-harbor-tower"
STARTUP_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class Stub:
    origin: str

    @property
    def mcp_url(self) -> str:
        return f"{self.origin}/mcp"

    def token(self, sub: str = "contract-user") -> str:
        response = httpx.post(
            f"{self.origin}/dev/tokens", json={"sub": sub, "tiers": ["enterprise_ai"]}
        )
        response.raise_for_status()
        token = response.json()["token"]
        assert isinstance(token, str)
        return token


@pytest.fixture(scope="module")
def stub() -> Iterator[Stub]:
    with serving(lambda origin: create_app(public_origin=origin)) as origin:
        yield Stub(origin)


@asynccontextmanager
async def session(stub: Stub, *, scenario: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {stub.token()}"}
    if scenario is not None:
        headers["X-Beacon-Scenario"] = scenario
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30.0) as client,
        # The chat server's event limit: a 3000-row page or 10 measured photos is one event.
        streamable_http_client(
            stub.mcp_url, http_client=client, max_sse_event_size=MAX_EVENT_BYTES
        ) as (read, write, *_),
        ClientSession(read, write) as mcp,
    ):
        init = await mcp.initialize()
        assert init.protocol_version == PROTOCOL_VERSION
        yield mcp


def _accounting(result: CallToolResult) -> dict[str, Any]:
    block = result.content[0]
    assert isinstance(block, TextContent) and block.meta is not None
    accounting = block.meta[ACCOUNTING_META_KEY]
    Accounting.model_validate(accounting)
    assert isinstance(accounting, dict)
    return accounting


def _structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def _text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


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
    ],
)
def test_a_bad_token_request_is_a_422_naming_the_field(
    stub: Stub, body: dict[str, Any], field: str
) -> None:
    response = httpx.post(f"{stub.origin}/dev/tokens", json=body)
    assert response.status_code == 422
    assert response.json()["field"] == field


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
    structured, accounting = _structured(result), _accounting(result)
    assert 150 <= structured["total_lower_bound"] <= 199
    assert "total" not in structured
    assert accounting == {k: structured[k] for k in accounting}
    assert structured["returned"] == len(structured["items"]) == 10
    assert structured["has_more"] is True and isinstance(structured["cursor"], str)
    assert (
        structured["items"][0]["thumbnail"]
        == f"{stub.origin}/thumbs/{structured['items'][0]['id']}.svg"
    )
    assert _text(result).startswith('Search results for "missing hard hats" in Harbor Tower')
    assert _text(result).count("## Image #") == 10


async def test_a_saturated_list_pins_to_the_cap_and_falsely_claims_completion(stub: Stub) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool(
            "query_data", {"project_id": HARBOR, "question": "List all panoramas in Harbor Tower"}
        )
    structured = _structured(result)
    assert (structured["total"], structured["returned"], structured["has_more"]) == (
        3000,
        3000,
        False,
    )
    assert len(structured["rows"]) == 3000 and structured["aggregate"] is None
    assert structured["sql"].endswith("LIMIT 3000")
    assert _accounting(result)["total"] == 3000
    assert _text(result).splitlines()[0] == "Query executed successfully."
    assert len(result.model_dump_json(by_alias=True)) < 1024 * 1024


async def test_a_count_is_an_exact_aggregate_exempt_from_the_cap(stub: Stub) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool(
            "query_data",
            {"project_id": HARBOR, "question": "How many panoramas are in Harbor Tower?"},
        )
    structured = _structured(result)
    assert structured["aggregate"] == {"function": "COUNT", "column": "count", "value": 7961}
    assert _accounting(result)["aggregate"]["value"] == 7961
    assert "LIMIT" not in structured["sql"]


async def test_list_projects_lists_all_four_in_one_page(stub: Stub) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool("list_projects", {})
    structured = _structured(result)
    assert (structured["returned"], structured["total"], structured["has_more"]) == (4, 4, False)
    harbor = next(item for item in structured["items"] if item["id"] == HARBOR)
    assert (harbor["panoramas"], harbor["levels"]) == (7961, 14)
    assert _accounting(result)["result_kind"] == "rows"


async def test_an_omitted_project_falls_back_to_the_last_explicit_one(stub: Stub) -> None:
    async with session(stub) as mcp:
        await mcp.call_tool("list_levels", {"project_id": "prj-cedar-school"})
        fallback = await mcp.call_tool("list_levels", {})
    assert _structured(fallback)["total"] == 6


# --- errors --------------------------------------------------------------------------------


async def test_an_unknown_tool_is_a_json_rpc_error(stub: Stub) -> None:
    async with session(stub) as mcp:
        with pytest.raises(MCPError) as raised:
            await mcp.call_tool("drop_tables", {})
    assert raised.value.code == INVALID_PARAMS


@pytest.mark.parametrize(
    ("tool", "arguments", "mentions"),
    [
        pytest.param(
            "search_photos",
            {"project_id": HARBOR, "query": "x", "limit": 500},
            "limit",
            id="limit-too-big",
        ),
        pytest.param("search_photos", {"project_id": HARBOR}, "query", id="query-missing"),
        pytest.param(
            "search_photos",
            {
                "project_id": HARBOR,
                "query": "x",
                "date_from": "2026-03-31",
                "date_to": "2026-03-01",
            },
            "date_from must not be after date_to",
            id="photo-dates-reversed",
        ),
        pytest.param(
            "query_data",
            {"project_id": HARBOR, "question": "List photos", "inspector": "Dana Whitfield"},
            "photos have no inspector to filter by",
            id="inspector-on-photos",
        ),
        pytest.param(
            "query_data",
            {"project_id": HARBOR, "question": "Tell me a joke"},
            "translate",
            id="untranslatable",
        ),
        pytest.param(
            "list_levels", {"project_id": "prj-nowhere"}, "Unknown project_id", id="unknown-project"
        ),
    ],
)
async def test_bad_arguments_are_an_honest_tool_error(
    stub: Stub, tool: str, arguments: dict[str, Any], mentions: str
) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool(tool, arguments)
    assert result.is_error is True
    assert mentions in _text(result)
    assert result.structured_content is None


# --- scenarios -----------------------------------------------------------------------------


async def test_the_legacy_scenario_attaches_no_accounting_anywhere(stub: Stub) -> None:
    async with session(stub, scenario="legacy-upstream") as mcp:
        tools = await mcp.list_tools()
        search = await mcp.call_tool(
            "search_photos", {"project_id": HARBOR, "query": "missing hard hats"}
        )
        query = await mcp.call_tool(
            "query_data", {"project_id": HARBOR, "question": "List all panoramas"}
        )
    assert all(tool.output_schema is None for tool in tools.tools)
    for result in (search, query):
        assert result.structured_content is None and result.is_error is False
        assert all(block.meta is None for block in result.content)
    assert _text(search).startswith("Search results for")


@pytest.mark.parametrize(
    ("scenario", "text_prefix"),
    [
        pytest.param(
            "inband-502", "Search API error: 502 Server Error: Bad Gateway", id="inband-502"
        ),
        pytest.param("auth-empty", "{}", id="auth-empty"),
    ],
)
async def test_fault_scenarios_disguise_a_failure_as_success(
    stub: Stub, scenario: str, text_prefix: str
) -> None:
    async with session(stub, scenario=scenario) as mcp:
        result = await mcp.call_tool("search_photos", {"project_id": HARBOR, "query": "rebar"})
    assert result.is_error is False and result.structured_content is None
    assert len(result.content) == 1 and result.content[0].meta is None
    assert _text(result).startswith(text_prefix)


async def test_zero_hits_is_a_real_empty_result_with_its_envelope(stub: Stub) -> None:
    async with session(stub, scenario="zero-hits") as mcp:
        result = await mcp.call_tool("search_photos", {"project_id": HARBOR, "query": "rebar"})
    structured = _structured(result)
    assert (structured["returned"], structured["total_lower_bound"], structured["items"]) == (
        0,
        0,
        [],
    )
    assert _accounting(result)["has_more"] is False


async def test_measured_photos_weigh_what_the_real_upstream_sent(stub: Stub) -> None:
    """Seed 000 §4.5 measured a 10-photo result at 1,175,854 bytes."""
    arguments = {"project_id": HARBOR, "query": "missing hard hats", "limit": 10}
    async with session(stub, scenario="measured-photos") as mcp:
        heavy = await mcp.call_tool("search_photos", arguments)
        again = await mcp.call_tool("search_photos", arguments)
    async with session(stub) as mcp:
        light = await mcp.call_tool("search_photos", arguments)
    size = len(heavy.model_dump_json(by_alias=True, exclude_none=True).encode())
    assert abs(size - MEASURED_RESULT_BYTES) / MEASURED_RESULT_BYTES < 0.03, size
    assert again.model_dump_json() == heavy.model_dump_json()  # deterministic
    items = _structured(heavy)["items"]
    assert len(items) == 10 and all(len(i["analysis"]) > 50_000 for i in items)
    assert "Analysis:" in _text(heavy)  # written for a model too, as the upstream does
    # Same hits, same accounting; the default stays light for the suites.
    assert [i["id"] for i in items] == [i["id"] for i in _structured(light)["items"]]
    assert _accounting(heavy) == _accounting(light)
    assert all("analysis" not in i for i in _structured(light)["items"])


def test_an_unknown_scenario_header_is_a_400_never_a_default(stub: Stub) -> None:
    headers = {"Authorization": f"Bearer {stub.token()}", "X-Beacon-Scenario": "no-such-scenario"}
    response = httpx.post(stub.mcp_url, headers=headers, json={})
    assert response.status_code == 400
    assert response.json()["error"] == "unknown_scenario"
    assert response.json()["scenario"] == "no-such-scenario"


async def test_the_request_log_records_every_call_in_order(stub: Stub) -> None:
    assert httpx.delete(f"{stub.origin}/dev/requests").status_code == 204
    async with session(stub, scenario="legacy-upstream") as mcp:
        await mcp.call_tool("list_projects", {})
        await mcp.call_tool("get_project", {"project_id": HARBOR})
    entries = httpx.get(f"{stub.origin}/dev/requests").json()["requests"]
    assert [(e["tool"], e["arguments"], e["scenario"], e["sub"]) for e in entries] == [
        ("list_projects", {}, "legacy-upstream", "contract-user"),
        ("get_project", {"project_id": HARBOR}, "legacy-upstream", "contract-user"),
    ]
    assert entries[1]["seq"] == entries[0]["seq"] + 1


# One call per counted tool: the smallest arguments that make it answer.
CONTRACT_CALLS: dict[str, dict[str, Any]] = {
    "search_photos": {"project_id": HARBOR, "query": "missing hard hats"},
    "query_data": {"project_id": HARBOR, "question": "How many open safety findings?"},
    "list_projects": {},
    "list_levels": {"project_id": HARBOR},
    "list_annotations": {"project_id": HARBOR},
    "search_documents": {"project_id": HARBOR, "query": "fire stopping"},
    "get_progress_summary": {"project_id": HARBOR},
    "get_clash_report": {"project_id": HARBOR},
}


def _at(document: Any, pointer: str) -> Any:
    for part in pointer.strip("/").split("/"):
        assert isinstance(document, dict) and part in document, (pointer, part)
        document = document[part]
    return document


async def test_the_stubs_declared_contract_names_its_tools_and_where_its_accounting_lives(
    stub: Stub,
) -> None:
    contract = stub_contract()
    async with session(stub) as mcp:
        listed = [
            tool.model_dump(by_alias=True, mode="json", exclude_none=True)
            for tool in (await mcp.list_tools()).tools
        ]
        found = drift(contract, listed)
        # Every tool listed, none unknown, and each schema the digest the contract holds.
        assert (found.gone, found.changed, found.unknown) == ((), (), ())
        assert all(t["schema_digest"] for t in contract["tools"].values())
        counted = {n for n, t in contract["tools"].items() if t["result_kind"] is not None}
        assert counted == set(CONTRACT_CALLS)
        for name, arguments in CONTRACT_CALLS.items():
            tool = contract["tools"][name]
            raw = (await mcp.call_tool(name, arguments)).model_dump(by_alias=True)
            assert raw["isError"] is False, (name, raw["content"])
            assert isinstance(_at(raw, tool["items"]), list), name
            assert isinstance(_at(raw, tool["has_more"]), bool), name
            cursor = _at(raw, tool["cursor"])
            assert cursor is None or isinstance(cursor, str), name
            # Exactly one population field is declared, and it is a count.
            (population,) = [tool[k] for k in ("total", "total_lower_bound") if tool[k]]
            assert isinstance(_at(raw, population), int), name
