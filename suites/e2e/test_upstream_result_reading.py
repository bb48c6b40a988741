"""Reading a large tool result over real HTTP builds neither its text nor a copy
of it, and reads it once: the MCP SDK client formats every message it receives
into a debug line whether or not debug is logged, dumps every result it checks
back to JSON data it throws away, and reads each message against every kind of
message; the upstream client takes that work out (beacon/upstream/lean_reading.py;
what it returns and raises: suites/unit/test_lean_reading.py).

Against the stack's stub, with the demo's largest result (the 3000-row panorama
list, ~320 KB): every time pydantic builds a model's full text, dumps through a
type adapter or reads a large message through the union, the test hears of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from mcp_types import jsonrpc_message_adapter
from pydantic import BaseModel, TypeAdapter

from beacon.upstream.lean_reading import READER
from beacon.upstream.mcp_client import connect
from harness.stack import Stack

pytestmark = pytest.mark.e2e

PANORAMAS = {"project_id": "prj-harbor-tower", "question": "List all panoramas in Harbor Tower"}
LARGE = 100_000


@pytest.fixture
def spent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The work pydantic did on a model while the test runs: each full text built
    (by the model's class), each dump through a type adapter, each large message read
    through the JSON-RPC union."""
    seen: list[str] = []
    whole, dump, read = BaseModel.__repr_str__, TypeAdapter.dump_python, TypeAdapter.validate_json

    def text(self: BaseModel, join_str: str) -> str:
        seen.append(f"text of {type(self).__name__}")
        return whole(self, join_str)

    def dumped(self: TypeAdapter[Any], instance: Any, /, **kwargs: Any) -> Any:
        seen.append(f"dump of {type(instance).__name__}")
        return dump(self, instance, **kwargs)

    def parsed(self: TypeAdapter[Any], data: Any, /, **kwargs: Any) -> Any:
        if self is jsonrpc_message_adapter and len(data) > LARGE:
            seen.append(f"union read of {len(data)} bytes")
        return read(self, data, **kwargs)

    monkeypatch.setattr(BaseModel, "__repr_str__", text)
    monkeypatch.setattr(TypeAdapter, "dump_python", dumped)
    monkeypatch.setattr(TypeAdapter, "validate_json", parsed)
    yield seen


async def test_a_3000_row_result_is_read_once_without_its_text_or_a_copy_being_made(
    stack: Stack, spent: list[str]
) -> None:
    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=30) as upstream:
        await upstream.list_tools()
        outcome = await upstream.call_tool("query_data", PANORAMAS)
    assert outcome.bytes > 300_000, outcome.bytes  # the large result, not an error
    assert outcome.result.get("isError") is not True, outcome.result.get("content")
    assert spent == []


async def test_a_results_size_is_its_bytes_as_sent_read_without_writing_it_out_again(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[Any] = []
    written: list[str] = []
    read, dump = READER.validate_json, BaseModel.model_dump_json

    def reading(data: Any, /, **options: Any) -> Any:
        message = read(data, **options)
        sent.append(json.loads(data))
        return message

    def dumped(self: BaseModel, **kwargs: Any) -> str:
        written.append(type(self).__name__)
        return dump(self, **kwargs)

    monkeypatch.setattr(READER, "validate_json", reading)
    monkeypatch.setattr(BaseModel, "model_dump_json", dumped)
    async with connect(stack.mcp_url, bearer=stack.token(), timeout_s=30) as upstream:
        for tool, arguments in (("query_data", PANORAMAS), ("list_projects", {})):
            outcome = await upstream.call_tool(tool, arguments)
            result = sent[-1]["result"]
            as_sent = json.dumps(result, separators=(",", ":"), ensure_ascii=False).encode()
            assert outcome.bytes == len(as_sent), tool
    assert "CallToolResult" not in written
