"""Pact: the chat server's expectations of the MCP upstream, recorded and replayed.

Consumer side: each interaction is what ``beacon.upstream.mcp_client`` sends
(JSON-RPC over streamable HTTP, a bearer, both Accept types) and the fields the
adjudication reads back (the accounting envelope on ``_meta`` and in
``structuredContent``, ``isError``), with type matchers, so the pact pins shape,
not corpus values. Provider side: the pact file replayed against the installed
stub in its JSON mode (one JSON body per request, so fields can be matched).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from pact import Pact, Verifier, match

from harness.stub_process import StubProcess, running_stub

ROOT = Path(__file__).resolve().parents[2]
PACT_DIR = ROOT / "reports" / "pacts"
CONSUMER, PROVIDER = "beacon-chat", "beacon-stub-mcp"
HARBOR = "prj-harbor-tower"
META = "beacon.dev/accounting"
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
BEARER = match.regex("Bearer stub.token.here", regex=r"^Bearer \S+$")
STATE = "the stub serves the default scenario"
NO_BEARER = "the caller sends no bearer"


@dataclass(frozen=True)
class Interaction:
    description: str
    request: dict[str, Any]
    status: int
    response: dict[str, Any]
    with_bearer: bool = True


def _rpc(id_: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


def _call(id_: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return _rpc(id_, "tools/call", {"name": tool, "arguments": arguments})


def _envelope(kind: str, count_field: str) -> dict[str, Any]:
    return {
        "result_kind": kind,
        "returned": match.int(10),
        count_field: match.int(150),
        "has_more": match.bool(True),
        "cursor": match.str("opaque-cursor") if count_field != "total" else None,
    }


def _result(id_: int, envelope: dict[str, Any], items_key: str, item: dict[str, Any]) -> Any:
    block = {"type": "text", "text": match.str("Results"), "_meta": {META: envelope}}
    structured = {**envelope, items_key: match.each_like(item)}
    return {
        "jsonrpc": "2.0",
        "id": id_,
        "result": {"content": match.each_like(block), "structuredContent": structured},
    }


_ROWS = {**_envelope("rows", "total"), "has_more": match.bool(False)}
# A single-value aggregate: exact, exempt from the row cap, one row.
_COUNT = {
    "result_kind": "rows", "returned": 1, "total": 1, "has_more": False, "cursor": None,
    "aggregate": {"function": "COUNT", "column": "count", "value": match.int(7961)},
}  # fmt: skip
INTERACTIONS = (
    Interaction(
        "initialize",
        _rpc(1, "initialize", {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "beacon", "version": "0.1.0"},
        }),
        200,
        {"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": match.like({"listChanged": False})},
            "serverInfo": {"name": "beacon-stub", "version": match.str("0.1.0")},
        }},
    ),
    Interaction(
        "tools/list",
        _rpc(2, "tools/list", {}),
        200,
        {"jsonrpc": "2.0", "id": 2, "result": {"tools": match.each_like({
            "name": match.str("search_photos"),
            "description": match.str("Semantic search"),
            "inputSchema": match.like({"type": "object"}),
            "outputSchema": match.like({"type": "object"}),
        })}},
    ),
    Interaction(
        "tools/call search_photos",
        _call(3, "search_photos", {"project_id": HARBOR, "query": "missing hard hats"}),
        200,
        _result(3, _envelope("search", "total_lower_bound"), "items", {
            "id": match.str("ph-000001"), "title": match.str("t"), "score": match.number(0.9),
            "thumbnail": match.str("http://127.0.0.1/thumbs/ph-000001.svg"),
        }),
    ),
    Interaction(
        "tools/call query_data count",
        _call(4, "query_data", {"project_id": HARBOR, "question": "How many panoramas?"}),
        200,
        {"jsonrpc": "2.0", "id": 4, "result": {
            "content": match.each_like({
                "type": "text", "text": match.str("Query executed"), "_meta": {META: _COUNT},
            }),
            "structuredContent": {**_COUNT, "sql": match.str("SELECT COUNT(*)")},
        }},
    ),
    Interaction(
        "tools/call list_projects",
        _call(5, "list_projects", {}),
        200,
        _result(5, _ROWS, "items", {"id": match.str(HARBOR), "name": match.str("Harbor Tower")}),
    ),
    Interaction(
        "tools/call list_annotations",
        _call(6, "list_annotations", {"project_id": HARBOR, "status": "open", "limit": 10}),
        200,
        _result(6, {**_ROWS, "has_more": match.bool(True), "cursor": match.str("c")}, "items", {
            "id": match.str("ann-000001"), "status": "open", "category": match.str("ppe"),
        }),
    ),
    Interaction(
        "tools/call with arguments that fail the input schema",
        _call(7, "search_photos", {"project_id": HARBOR}),
        200,
        {"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": match.regex(
                "Invalid arguments for search_photos: query: Field required",
                regex=r"^Invalid arguments for search_photos: .*query.*$",
            )}],
            "isError": True,
        }},
    ),
    Interaction(
        "tools/call of an unknown tool",
        _call(8, "drop_tables", {}),
        200,
        {"jsonrpc": "2.0", "id": 8, "error": {"code": -32602, "message": match.str("Unknown")}},
    ),
    Interaction(
        "a request without a bearer",
        _rpc(9, "ping", {}),
        401,
        {"error": "invalid_token", "reason": "missing_bearer"},
        with_bearer=False,
    ),
)  # fmt: skip


def _pact(interactions: tuple[Interaction, ...]) -> Pact:
    pact = Pact(CONSUMER, PROVIDER).with_specification("V4")
    for it in interactions:
        request = (
            pact.upon_receiving(it.description)
            .given(STATE if it.with_bearer else NO_BEARER)
            .with_request("POST", "/mcp")
            .with_headers(HEADERS)
            .with_body(it.request, content_type="application/json")
        )
        if it.with_bearer:
            request = request.with_header("Authorization", BEARER)
        request.will_respond_with(it.status).with_body(it.response, content_type="application/json")
    return pact


def _consume(url: str, it: Interaction) -> dict[str, Any]:
    """What the chat server's client does with the answer: read the fields it relies on."""
    headers = {**HEADERS, **({"Authorization": "Bearer any.dev.token"} if it.with_bearer else {})}
    response = httpx.post(f"{url}/mcp", headers=headers, json=it.request, timeout=10.0)
    assert response.status_code == it.status
    body = response.json()
    assert isinstance(body, dict)
    result = body.get("result", {})
    structured = result.get("structuredContent")
    if structured is not None:  # the envelope rides on the block and in structuredContent
        accounting = result["content"][0]["_meta"][META]
        assert accounting == {k: structured[k] for k in accounting}
    return body


def record_pacts(out_dir: Path) -> Path:
    """Drive every interaction against the pact mock server and write one pact file."""
    pact = _pact(INTERACTIONS)
    with pact.serve() as server:
        for it in INTERACTIONS:
            _consume(str(server.url).rstrip("/"), it)
    pact.write_file(out_dir, overwrite=True)
    return out_dir / f"{CONSUMER}-{PROVIDER}.json"


@pytest.mark.parametrize("interaction", [pytest.param(i, id=i.description) for i in INTERACTIONS])
def test_the_consumer_reads_what_the_pact_promises(
    interaction: Interaction, tmp_path: Path
) -> None:
    pact = _pact((interaction,))
    with pact.serve() as server:
        body = _consume(str(server.url).rstrip("/"), interaction)
    assert ("error" in body) == ("error" in interaction.response)
    pact.write_file(tmp_path)


@pytest.fixture(scope="module")
def pact_file() -> Path:
    PACT_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        written = record_pacts(Path(scratch))
        final = PACT_DIR / written.name
        os.replace(written, final)  # atomic: two workers may record at once
    return final


def _verify(stub: StubProcess, pact_file: Path, *, bearer: bool) -> Verifier:
    # No state handler: both states need no set-up, and pact-python's callback
    # server shuts down without closing its socket (a ResourceWarning, an error here).
    verifier = (
        Verifier(PROVIDER, host="127.0.0.1")
        .add_transport(url=stub.origin)
        .add_source(pact_file)
        .filter(state=STATE if bearer else NO_BEARER)
    )
    if bearer:
        # The bearer is minted per run; the verifier adds it to every replayed request.
        verifier.add_custom_header("Authorization", f"Bearer {stub.token()}")
    return verifier


@pytest.fixture(scope="module")
def json_stub() -> Iterator[StubProcess]:
    with running_stub("mcp", env={"BEACON_STUB_MCP_JSON": "1"}) as stub:
        yield stub


@pytest.mark.parametrize(
    "bearer", [pytest.param(True, id="with-bearer"), pytest.param(False, id="no-bearer")]
)
def test_the_stub_honours_every_recorded_interaction(
    json_stub: StubProcess, pact_file: Path, bearer: bool
) -> None:
    _verify(json_stub, pact_file, bearer=bearer).verify()


def test_a_stub_that_drops_the_accounting_fails_the_pact(pact_file: Path) -> None:
    env = {"BEACON_STUB_MCP_JSON": "1"}
    with running_stub("mcp", scenario="legacy-upstream", env=env) as broken:
        verifier = _verify(broken, pact_file, bearer=True)
        with pytest.raises(RuntimeError):
            verifier.verify()
    assert "structuredContent" in verifier.output(strip_ansi=True)
