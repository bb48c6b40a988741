"""The stub over real HTTP, driven by the official MCP SDK client as a real peer: honest
errors, the scenarios, the request log and the stub's declared contract."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp import MCPError
from mcp_types import INVALID_PARAMS
from stub_mcp_peer import HARBOR, Stub, accounting_of, serving_stub, session, structured_of, text_of

from beacon.wire.contract import drift, stub_contract
from stub_server.photo_detail import MEASURED_RESULT_BYTES


@pytest.fixture(scope="module")
def stub() -> Iterator[Stub]:
    with serving_stub() as served:
        yield served


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
    assert mentions in text_of(result)
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
    assert text_of(search).startswith("Search results for")


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
    assert text_of(result).startswith(text_prefix)


async def test_zero_hits_is_a_real_empty_result_with_its_envelope(stub: Stub) -> None:
    async with session(stub, scenario="zero-hits") as mcp:
        result = await mcp.call_tool("search_photos", {"project_id": HARBOR, "query": "rebar"})
    structured = structured_of(result)
    assert (structured["returned"], structured["total_lower_bound"], structured["items"]) == (
        0,
        0,
        [],
    )
    assert accounting_of(result)["has_more"] is False


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
    items = structured_of(heavy)["items"]
    assert len(items) == 10 and all(len(i["analysis"]) > 50_000 for i in items)
    assert "Analysis:" in text_of(heavy)  # written for a model too, as the upstream does
    # Same hits, same accounting; the default stays light for the suites.
    assert [i["id"] for i in items] == [i["id"] for i in structured_of(light)["items"]]
    assert accounting_of(heavy) == accounting_of(light)
    assert all("analysis" not in i for i in structured_of(light)["items"])


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
