"""The stub's HTTP edge: bearer gate and scenario selection in front of the MCP endpoint.

``/mcp`` is the SDK's low-level ``Server`` over streamable HTTP, so the tool
handlers build every ``CallToolResult`` themselves (exact ``_meta``,
``isError`` and ``structuredContent``). Nothing reaches the MCP layer without a
bearer this process signed: a missing or bad one is an HTTP 401, fail closed.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from beacon.wire.headers import SCENARIO_HEADER as WIRE_SCENARIO_HEADER
from beacon.wire.headers import TURN_HEADER
from stub_server.catalog import (
    CURRENT_SCENARIO,
    CURRENT_SUBJECT,
    CURRENT_TRACEPARENT,
    CURRENT_TURN,
    StubTools,
)
from stub_server.corpus import build_corpus
from stub_server.dev_routes import dev_routes
from stub_server.pace import Delayed, Pace, pace_from_env
from stub_server.scenarios import InvalidScenario, Scenario, UnknownScenario, load_scenario
from stub_server.tokens import InvalidToken, TokenIssuer
from stub_server.tools import StubSettings, ToolContext

# The revision the chat server's `ClientSession` negotiates; contract tests pin it.
PROTOCOL_VERSION = "2025-11-25"
# Lower-cased, as ASGI delivers header names.
SCENARIO_HEADER = WIRE_SCENARIO_HEADER.lower()
SERVER_NAME = "beacon-stub"
# Plain JSON answers, no sessions: for peers that replay single requests (the pact
# verifier), where an SSE body cannot be matched field by field. Off by default.
JSON_MODE_ENV = "BEACON_STUB_MCP_JSON"


def _invalid_request(body: bytes) -> bool:
    """A JSON object that is neither request, notification nor response (JSON-RPC -32600).

    The SDK reports such a message as -32602 (invalid params); JSON-RPC 2.0 calls
    it an Invalid Request, and peers match on the code.
    """
    try:
        message = json.loads(body)
    except ValueError:
        return False  # a parse error: the SDK answers -32700 itself
    if not isinstance(message, dict):
        return not isinstance(message, list)
    if message.get("jsonrpc") != "2.0":
        return True
    return not isinstance(message.get("method"), str) and not (
        "id" in message and ("result" in message or "error" in message)
    )


async def _buffered(receive: Receive) -> tuple[bytes, Receive]:
    chunks: list[bytes] = []
    more = True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    body = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, replay


class McpGate:
    """Bearer check, then scenario selection, then the MCP transport."""

    def __init__(self, app: ASGIApp, issuer: TokenIssuer, default: Scenario) -> None:
        self._app = app
        self._issuer = issuer
        self._default = default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        scheme, _, token = headers.get("authorization", "").partition(" ")
        try:
            if scheme.lower() != "bearer" or not token.strip():
                raise InvalidToken("missing_bearer", "an Authorization: Bearer header is required")
            claims = self._issuer.verify(token.strip())
        except InvalidToken as exc:
            challenge = 'Bearer realm="beacon-stub"'
            if exc.reason != "missing_bearer":
                challenge += f', error="invalid_token", error_description="{exc.reason}"'
            body = {"error": "invalid_token", "reason": exc.reason}
            response = JSONResponse(body, 401, headers={"WWW-Authenticate": challenge})
            await response(scope, receive, send)
            return
        name = headers.get(SCENARIO_HEADER)
        scenario_token = None
        if name is not None:
            try:
                scenario_token = CURRENT_SCENARIO.set(load_scenario(name))
            except UnknownScenario:
                body = {
                    "error": "unknown_scenario",
                    "scenario": name,
                    "message": f"The stub has no scenario named {name!r}.",
                }
                await JSONResponse(body, 400)(scope, receive, send)
                return
            except InvalidScenario as exc:
                body = {"error": "invalid_scenario", "scenario": name, "message": str(exc)}
                await JSONResponse(body, 500)(scope, receive, send)
                return
        active = CURRENT_SCENARIO.get() or self._default
        if active.extra.get("refuse_bearer") is True:
            # A deployment that revoked every session: a transport 401, no JSON-RPC.
            body = {"error": "invalid_token", "reason": "revoked"}
            refusal = {"WWW-Authenticate": 'Bearer realm="beacon-stub", error="invalid_token"'}
            await JSONResponse(body, 401, headers=refusal)(scope, receive, send)
            if scenario_token is not None:
                CURRENT_SCENARIO.reset(scenario_token)
            return
        if scope["method"] == "POST":
            raw, receive = await _buffered(receive)
            if _invalid_request(raw):
                error = {"code": -32600, "message": "Invalid Request: not a JSON-RPC 2.0 message"}
                reply = {"jsonrpc": "2.0", "id": None, "error": error}
                await JSONResponse(reply, 400)(scope, receive, send)
                return
        subject_token = CURRENT_SUBJECT.set(claims.sub)
        turn_token = CURRENT_TURN.set(headers.get(TURN_HEADER))
        trace_token = CURRENT_TRACEPARENT.set(headers.get("traceparent"))
        try:
            await self._app(scope, receive, send)
        finally:
            CURRENT_TRACEPARENT.reset(trace_token)
            CURRENT_TURN.reset(turn_token)
            CURRENT_SUBJECT.reset(subject_token)
            if scenario_token is not None:
                CURRENT_SCENARIO.reset(scenario_token)


def create_app(
    *,
    scenario: str = "default",
    public_origin: str,
    json_mode: bool | None = None,
    pace: Pace | None = None,
) -> Starlette:
    """The whole stub as one ASGI app; ``public_origin`` prefixes thumbnail URLs;
    ``pace``: default from the environment (``stub_server.pace``)."""
    if pace is None:
        pace = pace_from_env()
    if json_mode is None:
        json_mode = os.environ.get(JSON_MODE_ENV, "") == "1"
    settings = StubSettings.from_env()
    ctx = ToolContext(build_corpus(), settings, public_origin.rstrip("/"))
    default_scenario = load_scenario(scenario)
    tools = StubTools(ctx, default_scenario)
    issuer = TokenIssuer()
    server: Server[object] = Server(
        SERVER_NAME,
        version="0.1.0",
        on_list_tools=tools.list_tools,
        on_call_tool=tools.call_tool,
    )
    manager = StreamableHTTPSessionManager(
        app=server,
        json_response=json_mode,
        stateless=json_mode,
        security_settings=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        ),
    )

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    routes = [
        # A paced stub (bench/paced.py) answers the MCP endpoint a round trip late;
        # its dev routes, which the harness reads, answer at once.
        Route(
            "/mcp",
            Delayed(McpGate(StreamableHTTPASGIApp(manager), issuer, default_scenario), pace.mcp_s),
        ),
        *dev_routes(tools, issuer),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tools = tools
    app.state.issuer = issuer
    return app


def _require_loopback(host: str) -> None:
    if host == "localhost":
        return
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"the stub binds loopback addresses only, not {host!r}")


def serve(*, host: str = "127.0.0.1", port: int, scenario: str = "default") -> None:
    """Run the stub in the foreground until interrupted."""
    _require_loopback(host)
    netloc = f"[{host}]" if ":" in host else host
    app = create_app(scenario=scenario, public_origin=f"http://{netloc}:{port}")
    uvicorn.run(app, host=host, port=port, log_level="warning")
