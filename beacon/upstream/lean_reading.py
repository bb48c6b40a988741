"""Three pieces of the MCP SDK client's work on every message that buy nothing,
taken out; what the SDK checks, returns and raises stays the same.

- **A message's text.** The client writes each message it receives into a debug
  line before the logger is asked whether debug is on (``logger.debug(f"SSE
  message: {message}")`` in ``mcp/client/streamable_http.py``; the same for each
  it sends): pydantic's text of a message walks the whole result — for the demo's
  327,668-byte list of 3000 rows, 2.2–3.4 ms of the event loop's CPU, per result,
  logged or not, linear in its size. An envelope's text is made brief here (its
  kind, id, method or error code, never its payload), so that line costs nothing
  whatever the result weighs. ``repr`` is left whole, for a debugger or a test.
- **A result checked against its protocol version.** ``validate_server_result``
  validates the result and then dumps the validated model back to JSON data,
  which it throws away (it delegates to ``serialize_server_result``): 2.2 ms for
  the same result, where the check itself is 0.01 ms. It is replaced here by the
  check alone, as the SDK's own ``validate_client_result`` does it: the same
  version check, the same surface row, the same validation, so the same errors.
- **A message read against every kind of message.** The client reads each message
  through the union of the four JSON-RPC envelopes, which validates it against each
  kind in turn: 5.7 ms for the same result, where parsing it and validating it as
  the one kind it can be is 1.5–1.9 ms. A message with a ``result`` and neither a
  ``method`` nor an ``error`` can only be a response (the other three need one of
  those), so it is parsed once and read as one; any other message, or one that is
  not a valid response, is read by the union as before, with the union's errors.

A result's size is read off the wire on the way (its message's bytes less the
envelope), so the client never writes a result out again to measure it.

Applied when the upstream client is imported (``mcp_client.py``; the upstream
auditor's client too), so every process that speaks to an MCP server through
Beacon has it. The bench's bare relay imports that module as well: the relay and
the chat server read the same results the same way, and the overhead ratio still
compares Beacon's own work (bench/README.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from types import UnionType
from typing import Any

import mcp.client.streamable_http as sdk_client
from mcp_types import (
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from mcp_types import methods as sdk_methods
from pydantic import BaseModel, ValidationError
from pydantic_core import from_json, to_json

_ENVELOPES: tuple[type[BaseModel], ...] = (
    JSONRPCRequest,
    JSONRPCNotification,
    JSONRPCResponse,
    JSONRPCError,
)


def brief(message: BaseModel) -> str:
    """``JSONRPCResponse(id=3)``, ``JSONRPCRequest(id=2, method='tools/call')``,
    ``JSONRPCError(id=4, code=-32602)``: who, never what."""
    parts = [
        f"{name}={getattr(message, name)!r}" for name in ("id", "method") if hasattr(message, name)
    ]
    if isinstance(message, JSONRPCError):
        parts.append(f"code={message.error.code}")
    return f"{type(message).__name__}({', '.join(parts)})"


def validate_server_result(
    method: str,
    version: str,
    data: Mapping[str, Any],
    *,
    surface: Mapping[tuple[str, str], type[BaseModel] | UnionType] = sdk_methods.SERVER_RESULTS,
) -> None:
    """The SDK's check of a server's result against ``version``'s surface, without
    the dump it discarded. Raises what the SDK's raises: ValueError (an unknown
    version), KeyError (no surface row), pydantic's ValidationError."""
    held = _SENT.pop(id(data), None)
    RESULT_BYTES.set(held[1] if held is not None and held[0] is data else None)
    sdk_methods._check_known_version(version)
    sdk_methods._adapter(surface[(method, version)]).validate_python(data, by_name=False)


class MessageReader:
    """The client's reader of a message off the wire (``validate_json``, as the union
    adapter it stands in for is called)."""

    def validate_json(self, data: str | bytes | bytearray, /, **options: Any) -> JSONRPCMessage:
        try:
            parsed = from_json(data)
        except ValueError:
            parsed = None  # not JSON: the union says so, in its own words
        if _only_a_response(parsed):
            try:
                response = JSONRPCResponse.model_validate(parsed, **options)
            except ValidationError:
                pass  # not a response after all: the union's error, below
            else:
                _sent(response.result, _result_bytes(data, parsed))
                return response
        return jsonrpc_message_adapter.validate_json(data, **options)


# How many bytes each result took on the wire, by the result's own object, until the
# session's check of it (``validate_server_result``, in the task that sent the request)
# hands the figure to that task: the upstream client reports a result's size without
# writing the result out again (for the 3000-row list, ~1.2 ms of the event loop a
# turn). Bounded: a response nobody checks is forgotten after a few more.
_SENT: dict[int, tuple[object, int]] = {}
_SENT_MAX = 64
RESULT_BYTES: ContextVar[int | None] = ContextVar("beacon_result_bytes", default=None)


def _sent(result: object, size: int) -> None:
    _SENT[id(result)] = (result, size)
    while len(_SENT) > _SENT_MAX:
        _SENT.pop(next(iter(_SENT)))


def _result_bytes(data: str | bytes | bytearray, parsed: dict[str, Any]) -> int:
    """The result's bytes as the upstream sent them: the message's UTF-8 length less its
    envelope, written compactly (``{"jsonrpc":"2.0","id":3,"result":`` and ``}``): exact
    for compact JSON, which both SDKs write; an upstream's whitespace is counted as its."""
    sent = len(data) if not isinstance(data, str) or data.isascii() else len(data.encode())
    envelope = {key: value for key, value in parsed.items() if key != "result"}
    around = len(to_json(envelope)) + len('"result":') + (1 if envelope else 0)
    return max(sent - around, 0)


def _only_a_response(parsed: Any) -> bool:
    return (
        isinstance(parsed, dict)
        and "result" in parsed
        and "method" not in parsed
        and "error" not in parsed
    )


READER = MessageReader()


def apply() -> None:
    """Idempotent: the same functions set again."""
    for envelope in _ENVELOPES:
        # A class attribute: a model's text is read from its class, as for any object.
        envelope.__str__ = brief  # type: ignore[method-assign]
    # The client session calls it through the module (``_methods.validate_server_result``).
    sdk_methods.validate_server_result = validate_server_result
    # The streamable HTTP client reads every message through this module-level name.
    setattr(sdk_client, "jsonrpc_message_adapter", READER)  # noqa: B010 (not re-exported)
