"""The MCP SDK client's work that buys nothing, taken out of every message
(beacon/upstream/lean_reading.py), returns and raises exactly what the SDK's own
did — the SDK's own functions are the oracle here, never the module under test.

Over real HTTP, with the demo's largest result: suites/e2e/test_upstream_result_reading.py.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import mcp.client.streamable_http
import mcp_types.methods
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mcp_types import JSONRPCError, JSONRPCResponse, jsonrpc_message_adapter
from pydantic import ValidationError

from beacon.upstream import lean_reading
from beacon.upstream.lean_reading import READER, RESULT_BYTES, validate_server_result

VERSION = "2025-11-25"


def test_an_envelopes_text_names_it_and_never_carries_its_payload() -> None:
    import beacon.upstream.mcp_client  # noqa: F401  (applies the brief text, as a server does)

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
    except ValidationError:  # a ValueError too: named first
        return "ValidationError"
    except (ValueError, KeyError) as exc:
        return type(exc).__name__
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


# Messages of every shape: any subset of the envelope's keys, each with a value of
# the right kind or a wrong one, and text that is not a JSON object at all.
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["2.0", "1.0", "tools/call", ""]),
    st.dictionaries(st.sampled_from(["code", "message", "content", "x"]), st.integers(-1, 1)),
    st.builds(dict),
    st.lists(st.integers(), max_size=2),
)
_MESSAGES = st.one_of(
    st.dictionaries(
        st.sampled_from(["jsonrpc", "id", "result", "error", "method", "params", "extra"]),
        _VALUES,
    ).map(json.dumps),
    st.sampled_from(["", "{", "[]", "null", "3", '"text"', '{"result": {}} trailing']),
)


def _read(reader: Any, data: str) -> tuple[str, Any]:
    try:
        message = reader.validate_json(data, by_name=False)
    except ValidationError:
        return "ValidationError", None
    return type(message).__name__, message.model_dump(by_alias=True)


@given(data=_MESSAGES)
@example(data='{"jsonrpc": "2.0", "id": 3, "result": {"content": []}}')
@example(data='{"jsonrpc": "2.0", "id": 3, "result": {}, "error": {"code": 1, "message": "m"}}')
@example(data='{"jsonrpc": "2.0", "id": 3, "result": {}, "method": "ping"}')
@example(data='{"jsonrpc": "2.0", "id": 3, "result": []}')
@example(data='{"jsonrpc": "1.0", "id": 3, "result": {}}')
@example(data='{"jsonrpc": "2.0", "id": true, "result": {}}')  # ids the union refuses
@example(data='{"jsonrpc": "2.0", "id": 3.0, "result": {}}')
@example(data='{"jsonrpc": "2.0", "id": 123456789012345678901234567890, "result": {"a": 1e400}}')
def test_a_message_is_read_as_the_sdks_union_reads_it(data: str) -> None:
    assert _read(READER, data) == _read(jsonrpc_message_adapter, data)


def test_the_sdk_still_does_each_piece_of_work_taken_out() -> None:
    # The reasons for lean_reading.py. When the SDK stops building the debug line
    # before asking the logger, stops dumping what it checks, or stops reading each
    # message through the union (a piece of this fails), that piece can go.
    client = inspect.getsource(mcp.client.streamable_http)
    assert 'logger.debug(f"SSE message: {message}")' in client
    assert "jsonrpc_message_adapter.validate_json(sse.data" in client
    methods = inspect.getsource(mcp_types.methods)
    check = methods[methods.index("def validate_server_result(") :]
    check = check[: check.index("\ndef ")]
    assert "serialize_server_result(method, version, data, surface=surface)" in check


SIZED = [
    {"content": [{"type": "text", "text": "3 photos"}], "structuredContent": {"total": 3}},
    {"content": [{"type": "text", "text": "Fotos: Prüfung — 写真 3枚"}], "isError": False},
    {"content": []},
]


@pytest.mark.parametrize("result", SIZED)
@pytest.mark.parametrize("request_id", [3, "req-7"])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_results_size_is_its_bytes_as_the_upstream_sent_them(
    result: dict[str, Any], request_id: int | str, as_bytes: bool
) -> None:
    body = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
    message = json.dumps({"jsonrpc": "2.0", "id": request_id}, separators=(",", ":"))
    message = message[:-1] + ',"result":' + body + "}"
    read = READER.validate_json(message.encode() if as_bytes else message)
    assert isinstance(read, JSONRPCResponse)
    validate_server_result("tools/call", "2025-11-25", read.result)
    assert RESULT_BYTES.get() == len(body.encode())


def test_an_upstreams_whitespace_is_counted_as_its_own() -> None:
    message = '{"jsonrpc": "2.0", "id": 4, "result": {"content": []}}'
    read = READER.validate_json(message)
    validate_server_result("tools/call", "2025-11-25", read.result)  # type: ignore[union-attr]
    # Every byte but the compact envelope's is the result's: its spaces, and the envelope's.
    assert RESULT_BYTES.get() == len(message) - len('{"jsonrpc":"2.0","id":4,"result":}')


def test_a_result_read_another_way_has_no_size_from_the_wire() -> None:
    RESULT_BYTES.set(99)
    validate_server_result("tools/call", "2025-11-25", {"content": []})
    assert RESULT_BYTES.get() is None


def test_sizes_no_check_reads_are_forgotten() -> None:
    for n in range(200):
        READER.validate_json(f'{{"jsonrpc":"2.0","id":{n},"result":{{"content":[]}}}}')
    assert len(lean_reading._SENT) <= 64
