"""Reading a large tool result costs neither its text nor a second copy: the MCP
SDK formats every message it receives into a debug line whether or not debug is
logged, and dumps every result it checks back to JSON data it throws away; the
upstream client makes that line brief and checks without the dump
(beacon/upstream/lean_reading.py), raising what the SDK raises.

Checked over real HTTP against the stack's stub, with the demo's largest result
(the 3000-row panorama list, ~320 KB): every time pydantic builds a model's full
text or dumps through a type adapter, the test hears of it.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import mcp.client.streamable_http
import mcp_types.methods
import pytest
from mcp_types import JSONRPCError, JSONRPCResponse, jsonrpc_message_adapter
from pydantic import BaseModel, TypeAdapter, ValidationError

from beacon.upstream.lean_reading import validate_server_result
from beacon.upstream.mcp_client import connect
from harness.stack import Stack

pytestmark = pytest.mark.e2e

PANORAMAS = {"project_id": "prj-harbor-tower", "question": "List all panoramas in Harbor Tower"}


VERSION = "2025-11-25"


@pytest.fixture
def copies(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What pydantic made of a model while the test runs: each full text built (by
    the model's class) and each dump through a type adapter."""
    seen: list[str] = []
    whole, dump = BaseModel.__repr_str__, TypeAdapter.dump_python

    def text(self: BaseModel, join_str: str) -> str:
        seen.append(type(self).__name__)
        return whole(self, join_str)

    def dumped(self: TypeAdapter[Any], instance: Any, /, **kwargs: Any) -> Any:
        seen.append(f"dump of {type(instance).__name__}")
        return dump(self, instance, **kwargs)

    monkeypatch.setattr(BaseModel, "__repr_str__", text)
    monkeypatch.setattr(TypeAdapter, "dump_python", dumped)
    yield seen


async def test_a_3000_row_result_is_read_without_its_text_or_a_copy_being_made(
    stack: Stack, copies: list[str]
) -> None:
    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=30) as upstream:
        await upstream.list_tools()
        outcome = await upstream.call_tool("query_data", PANORAMAS)
    assert outcome.bytes > 300_000, outcome.bytes  # the large result, not an error
    assert outcome.result.get("isError") is not True, outcome.result.get("content")
    assert copies == []


def test_an_envelopes_text_names_it_and_never_carries_its_payload() -> None:
    rows = [{"id": f"cap-{i:06d}", "title": "panorama"} for i in range(3000)]
    response = jsonrpc_message_adapter.validate_python(
        {"jsonrpc": "2.0", "id": 7, "result": {"structuredContent": {"items": rows}}}
    )
    assert isinstance(response, JSONRPCResponse)
    assert f"{response}" == "JSONRPCResponse(id=7)"
    request = jsonrpc_message_adapter.validate_python(
        {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "query_data"}}
    )
    assert str(request) == "JSONRPCRequest(id=8, method='tools/call')"
    error = jsonrpc_message_adapter.validate_python(
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32602, "message": "bad"}}
    )
    assert isinstance(error, JSONRPCError)
    assert str(error) == "JSONRPCError(id=None, code=-32602)"
    # repr stays whole, for a debugger or a failing test's message.
    assert "cap-002999" in repr(response)


def test_the_sdk_still_formats_each_message_and_dumps_each_result_it_checks() -> None:
    # The reasons for lean_reading.py. When the SDK stops building the line before
    # asking the logger, or stops dumping what it checks (this fails), that part can go.
    client: Any = inspect.getsource(mcp.client.streamable_http)
    assert 'logger.debug(f"SSE message: {message}")' in client
    methods = inspect.getsource(mcp_types.methods)
    check = methods[methods.index("def validate_server_result(") :]
    check = check[: check.index("\ndef ")]
    assert "serialize_server_result(method, version, data, surface=surface)" in check


RESULTS: list[tuple[str, str, dict[str, Any]]] = [
    ("tools/call", VERSION, {"content": [{"type": "text", "text": "ok"}], "isError": False}),
    ("tools/call", VERSION, {"content": [{"type": "text", "text": "x"}], "structuredContent": {}}),
    ("tools/call", VERSION, {"content": "not a list"}),
    ("tools/call", VERSION, {"content": [{"type": "nonsense"}]}),
    ("tools/list", VERSION, {"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}),
    ("tools/list", VERSION, {"tools": [{"inputSchema": {"type": "object"}}]}),
    ("tools/list", "1999-01-01", {"tools": []}),
    ("no/such/method", VERSION, {}),
]


def _outcome(check: Any, method: str, version: str, data: dict[str, Any]) -> str:
    try:
        check(method, version, data)
    except (ValueError, KeyError) as exc:  # ValidationError is a ValueError: named first
        return type(exc).__name__ if not isinstance(exc, ValidationError) else "ValidationError"
    return "ok"


@pytest.mark.parametrize(("method", "version", "data"), RESULTS)
def test_the_lean_check_accepts_and_refuses_what_the_sdks_own_does(
    method: str, version: str, data: dict[str, Any]
) -> None:
    # The SDK's own check is serialize_server_result (its validate delegated to it).
    sdks = _outcome(mcp_types.methods.serialize_server_result, method, version, data)
    assert _outcome(validate_server_result, method, version, data) == sdks


def test_the_refusals_are_the_ones_the_sdk_documents() -> None:
    outcomes = [_outcome(validate_server_result, *row) for row in RESULTS]
    assert outcomes == [
        "ok",
        "ok",
        "ValidationError",
        "ValidationError",
        "ok",
        "ValidationError",
        "ValueError",
        "KeyError",
    ]
