"""The installed stub MCP upstream, run as a process, checked over real HTTP (SPEC §2.5).

The official SDK client lists and calls every tool; every result validates
against the output schema the tool declares; each fault mode has its exact shape.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
import jsonschema
import pytest
from mcp import ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, CallToolResult, TextContent

from beacon.cli.up import beacon_command, free_port
from beacon.wire.accounting import ACCOUNTING_META_KEY
from harness.stub_process import StubProcess, running_stub
from stub_server.mcp_app import PROTOCOL_VERSION

HARBOR = "prj-harbor-tower"
SLOW_MS = 60
EVERY_TOOL: dict[str, dict[str, Any]] = {
    "search_photos": {"project_id": HARBOR, "query": "missing hard hats"},
    "query_data": {"project_id": HARBOR, "question": "How many open safety findings on level 3?"},
    "list_projects": {},
    "get_project": {"project_id": HARBOR},
    "list_levels": {"project_id": HARBOR},
    "get_capture": {"capture_id": "cap-000005"},
    "list_annotations": {"project_id": HARBOR, "status": "open", "level_number": 3},
    "search_documents": {"project_id": HARBOR, "query": "duct routing beam"},
    "get_progress_summary": {"project_id": "prj-maple-clinic"},
    "get_clash_report": {"project_id": HARBOR, "severity": "critical"},
}


@pytest.fixture(scope="module")
def stub() -> Iterator[StubProcess]:
    with running_stub("mcp", env={"BEACON_STUB_SLOW_MS": str(SLOW_MS)}) as running:
        yield running


@asynccontextmanager
async def session(stub: StubProcess, scenario: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {stub.token()}"}
    if scenario is not None:
        headers["X-Beacon-Scenario"] = scenario
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30.0) as client,
        streamable_http_client(stub.mcp_url, http_client=client) as (read, write, *_),
        ClientSession(read, write) as mcp,
    ):
        assert (await mcp.initialize()).protocol_version == PROTOCOL_VERSION
        yield mcp


def _text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def _structured(result: CallToolResult) -> dict[str, Any]:
    assert result.is_error is False, _text(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def test_the_sdk_client_lists_ten_tools_each_with_both_schemas(stub: StubProcess) -> None:
    async with session(stub) as mcp:
        listed = await mcp.list_tools()
    assert sorted(t.name for t in listed.tools) == sorted(EVERY_TOOL)
    for tool in listed.tools:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.output_schema is not None, tool.name
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)


async def test_every_tool_result_validates_against_its_declared_output_schema(
    stub: StubProcess,
) -> None:
    async with session(stub) as mcp:
        schemas = {t.name: t.output_schema for t in (await mcp.list_tools()).tools}
        results = {name: await mcp.call_tool(name, args) for name, args in EVERY_TOOL.items()}
    for name, result in results.items():
        structured = _structured(result)
        jsonschema.validate(structured, schemas[name])
        block = result.content[0]
        assert block.meta is not None, name
        accounting = block.meta[ACCOUNTING_META_KEY]
        assert accounting == {k: structured[k] for k in accounting}, name
        assert structured["returned"] == len(structured.get("items", structured.get("rows", [])))


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        pytest.param("list_annotations", {"project_id": HARBOR, "limit": 100}, id="annotations"),
        pytest.param("get_clash_report", {"project_id": HARBOR, "limit": 50}, id="clashes"),
        pytest.param(
            "search_documents", {"project_id": HARBOR, "query": "level", "limit": 5}, id="documents"
        ),
    ],
)
async def test_pages_are_disjoint_and_add_up_to_the_stable_total(
    stub: StubProcess, tool: str, arguments: dict[str, Any]
) -> None:
    ids: list[str] = []
    totals: set[int] = set()
    cursor: str | None = None
    async with session(stub) as mcp:
        for _ in range(50):
            page = _structured(await mcp.call_tool(tool, {**arguments, "cursor": cursor}))
            ids += [item["id"] for item in page["items"]]
            totals.add(page["total"])
            cursor = page["cursor"]
            assert page["has_more"] is (cursor is not None)
            if cursor is None:
                break
    assert len(totals) == 1 and len(ids) == len(set(ids)) == totals.pop() > arguments["limit"]


async def test_a_cursor_replayed_under_other_filters_is_an_honest_error(stub: StubProcess) -> None:
    async with session(stub) as mcp:
        first = _structured(await mcp.call_tool("list_annotations", {"project_id": HARBOR}))
        moved = await mcp.call_tool(
            "list_annotations", {"project_id": HARBOR, "status": "open", "cursor": first["cursor"]}
        )
    assert moved.is_error is True and "different query" in _text(moved)


async def test_an_omitted_project_id_falls_into_the_focus_trap(stub: StubProcess) -> None:
    async with session(stub) as mcp:
        await mcp.call_tool("get_project", {"project_id": "prj-riverside-depot"})
        trapped = _structured(await mcp.call_tool("get_progress_summary", {}))
    assert trapped["total"] == 2  # Riverside Depot's two levels, not Harbor Tower's fourteen


# --- fault modes: each one's exact shape ---------------------------------------------------

SEARCH = ("search_photos", {"project_id": HARBOR, "query": "rebar"})


@pytest.mark.parametrize(
    ("scenario", "text"),
    [
        pytest.param(
            "inband-502",
            "Search API error: 502 Server Error: Bad Gateway for url: "
            "http://127.0.0.1:9/internal/search-photos",
            id="inband-502",
        ),
        pytest.param("auth-empty", "{}", id="auth-empty"),
        pytest.param("prose-reply", "Please select a project first.", id="prose-reply"),
    ],
)
async def test_a_disguised_failure_is_one_plain_text_block_with_no_envelope(
    stub: StubProcess, scenario: str, text: str
) -> None:
    async with session(stub, scenario) as mcp:
        result = await mcp.call_tool(*SEARCH)
    assert (result.is_error, result.structured_content, _text(result)) == (False, None, text)
    assert len(result.content) == 1 and result.content[0].meta is None


async def test_degraded_empty_is_an_empty_object(stub: StubProcess) -> None:
    async with session(stub, "degraded-empty") as mcp:
        result = await mcp.call_tool("list_annotations", {"project_id": HARBOR})
    assert (result.is_error, result.structured_content, _text(result)) == (False, {}, "")
    assert result.content[0].meta is None


async def test_legacy_keeps_the_text_and_drops_every_accounting_field(stub: StubProcess) -> None:
    async with session(stub, "legacy-upstream") as mcp:
        listed = await mcp.list_tools()
        result = await mcp.call_tool("get_clash_report", {"project_id": HARBOR})
    assert all(tool.output_schema is None for tool in listed.tools)
    assert result.is_error is False and result.structured_content is None
    assert result.content[0].meta is None and _text(result).startswith("BIM clashes in Harbor")


async def test_zero_hits_is_a_real_empty_result_with_its_envelope(stub: StubProcess) -> None:
    async with session(stub, "zero-hits") as mcp:
        result = await mcp.call_tool(*SEARCH)
    structured = _structured(result)
    assert (structured["returned"], structured["total_lower_bound"], structured["has_more"]) == (
        0,
        0,
        False,
    )
    assert result.content[0].meta is not None


async def test_jsonrpc_error_mode_answers_an_internal_error_not_a_result(
    stub: StubProcess,
) -> None:
    async with session(stub, "jsonrpc-error") as mcp:
        with pytest.raises(MCPError) as raised:
            await mcp.call_tool(*SEARCH)
    assert raised.value.code == INTERNAL_ERROR


async def test_slow_mode_delays_a_normal_result(stub: StubProcess) -> None:
    async with session(stub, "slow-upstream") as mcp:
        started = time.perf_counter()
        result = await mcp.call_tool("list_projects", {})
        elapsed = time.perf_counter() - started
    assert elapsed >= SLOW_MS / 1000 and _structured(result)["total"] == 4


async def test_cursor_rejected_answers_page_two_in_band(stub: StubProcess) -> None:
    assert httpx.delete(f"{stub.origin}/dev/requests").status_code == 204
    async with session(stub, "cursor-rejected") as mcp:
        first = _structured(await mcp.call_tool(*SEARCH))
        second = await mcp.call_tool(SEARCH[0], {**SEARCH[1], "cursor": first["cursor"]})
    assert second.is_error is False and second.structured_content is None
    assert _text(second) == "The cursor is invalid or has expired. Please start the search again."


async def test_cursor_drift_moves_the_total_and_overlaps_page_ids(stub: StubProcess) -> None:
    async with session(stub, "cursor-drift") as mcp:
        first = _structured(await mcp.call_tool(*SEARCH))
        second = _structured(
            await mcp.call_tool(SEARCH[0], {**SEARCH[1], "cursor": first["cursor"]})
        )
    assert first["total_lower_bound"] != second["total_lower_bound"]
    assert {i["id"] for i in first["items"]} & {i["id"] for i in second["items"]}


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param(b"{not json", -32700, id="parse-error"),
        pytest.param(b'{"jsonrpc": "2.0", "id": 3}', -32600, id="no-method"),
        pytest.param(b'{"jsonrpc": "1.0", "id": 3, "method": "ping"}', -32600, id="wrong-version"),
        pytest.param(b"42", -32600, id="not-an-object"),
    ],
)
def test_malformed_json_rpc_gets_its_json_rpc_error_code(
    stub: StubProcess, body: bytes, code: int
) -> None:
    headers = {
        "Authorization": f"Bearer {stub.token()}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    response = httpx.post(stub.mcp_url, headers=headers, content=body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code


async def test_an_unknown_tool_is_a_json_rpc_error(stub: StubProcess) -> None:
    async with session(stub) as mcp:
        with pytest.raises(MCPError) as raised:
            await mcp.call_tool("get_weather", {})
    assert raised.value.code == INVALID_PARAMS


@pytest.mark.parametrize(
    ("tool", "arguments", "mentions"),
    [
        pytest.param("get_capture", {}, "capture_id", id="missing-required"),
        pytest.param("list_annotations", {"status": "pending"}, "status", id="bad-enum"),
        pytest.param("list_annotations", {"date_from": "2026-02-30"}, "date", id="bad-date"),
        pytest.param("get_clash_report", {"limit": 0}, "limit", id="limit-zero"),
        pytest.param(
            "query_data",
            {"project_id": HARBOR, "question": "List all inspections"},
            "no such table: inspections",
            id="sql-the-corpus-cannot-run",
        ),
        pytest.param("get_capture", {"capture_id": "cap-999999"}, "Unknown", id="no-such-capture"),
    ],
)
async def test_bad_arguments_are_an_honest_tool_error(
    stub: StubProcess, tool: str, arguments: dict[str, Any], mentions: str
) -> None:
    async with session(stub) as mcp:
        result = await mcp.call_tool(tool, arguments)
    assert result.is_error is True and result.structured_content is None
    assert mentions in _text(result)


# --- scenario selection --------------------------------------------------------------------


def test_the_process_scenario_applies_until_a_header_overrides_it() -> None:
    with running_stub("mcp", scenario="inband-502") as stub:

        async def both() -> tuple[CallToolResult, CallToolResult]:
            async with session(stub) as mcp:
                by_process = await mcp.call_tool(*SEARCH)
            async with session(stub, "default") as mcp:
                by_header = await mcp.call_tool(*SEARCH)
            return by_process, by_header

        import anyio

        by_process, by_header = anyio.run(both)
    assert _text(by_process).startswith("Search API error: 502")
    assert _structured(by_header)["returned"] > 0


def test_an_unknown_scenario_header_is_a_400_naming_it(stub: StubProcess) -> None:
    headers = {"Authorization": f"Bearer {stub.token()}", "X-Beacon-Scenario": "no-such-thing"}
    response = httpx.post(stub.mcp_url, headers=headers, json={})
    assert response.status_code == 400
    assert response.json()["scenario"] == "no-such-thing"


def test_an_unknown_process_scenario_refuses_to_start_and_names_it() -> None:
    run = subprocess.run(
        [*beacon_command(), "stub-mcp", "--port", str(free_port()), "--scenario", "no-such-thing"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2 and "no-such-thing" in run.stderr


def test_no_bearer_is_a_401_before_mcp(stub: StubProcess) -> None:
    response = httpx.post(stub.mcp_url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 401 and response.json()["reason"] == "missing_bearer"
