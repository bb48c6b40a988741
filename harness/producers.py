"""Real producers of wire shapes, run in-process for the sweep's shape checks.

Each function returns what one side of a wire really sends, made by the code
that sends it (the stub's tool handlers and routes, the chat server's app),
so a pinned schema is checked against output, not against a copy of a schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import anyio
import httpx
from mcp import MCPError

ORIGIN = "http://127.0.0.1:9"


@cache
def stub_tools() -> Any:
    from stub_server.catalog import StubTools
    from stub_server.corpus import build_corpus
    from stub_server.scenarios import load_scenario
    from stub_server.tools import StubSettings, ToolContext

    ctx = ToolContext(build_corpus(), StubSettings(), ORIGIN)
    return StubTools(ctx, load_scenario("default"))


def tool_result(tool: str, arguments: dict[str, Any], mode: str = "ok") -> dict[str, Any]:
    """One tool's ``CallToolResult`` as JSON, under a fault mode; a JSON-RPC error as
    ``{"jsonrpc_error": {"code", "message"}}``."""
    from stub_server.faults import render, tool_error
    from stub_server.scenarios import Mode
    from stub_server.tools import ToolError

    tools = stub_tools()
    spec = tools.specs[tool]
    args = spec.args.model_validate(arguments)
    run = partial(spec.run, tools.ctx, args)
    try:
        result = anyio.run(render, tool, Mode(mode), run, 0)
    except MCPError as exc:
        return {"jsonrpc_error": {"code": exc.error.code, "message": exc.error.message}}
    except ToolError as exc:  # answered as the stub's catalog answers it
        result = tool_error(str(exc))
    dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    assert isinstance(dumped, dict)
    return dumped


def tools_list() -> dict[str, Any]:
    listed = anyio.run(stub_tools().list_tools, None, None)
    dumped = listed.model_dump(by_alias=True, mode="json", exclude_none=True)
    assert isinstance(dumped, dict)
    return dumped


async def _ask(app: Any, method: str, path: str, **kwargs: Any) -> httpx.Response:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50000))
    async with httpx.AsyncClient(transport=transport, base_url=ORIGIN) as client:
        return await client.request(method, path, **kwargs)


def _json(app: Any, method: str, path: str, **kwargs: Any) -> Any:
    response = anyio.run(partial(_ask, app, method, path, **kwargs))
    return {"status": response.status_code, "body": response.json()}


@cache
def _dev_app() -> Any:
    from starlette.applications import Starlette

    from stub_server.dev_routes import dev_routes
    from stub_server.tokens import TokenIssuer

    return Starlette(routes=dev_routes(stub_tools(), TokenIssuer()))


@cache
def _stub_mcp_app() -> Any:
    from stub_server.mcp_app import create_app

    return create_app(public_origin=ORIGIN, json_mode=False)


@cache
def _llm_app() -> Any:
    from stub_server.llm_app import create_app

    return create_app(stall_s=0.0)


def jwks() -> Any:
    return _json(_dev_app(), "GET", "/.well-known/jwks.json")


def dev_token() -> Any:
    return _json(_dev_app(), "POST", "/dev/tokens", json={"sub": "sweep", "tiers": ["core"]})


def dev_token_claims() -> Any:
    """A minted dev token's header and claims, as the stub signed them (read unverified:
    the seam stub-tokens>auth-verify proves the signature verifies)."""
    import jwt

    token = dev_token()["body"]["token"]
    claims = jwt.decode(token, options={"verify_signature": False})
    return {"header": jwt.get_unverified_header(token), "claims": claims}


def dev_token_refusal() -> Any:
    return _json(_dev_app(), "POST", "/dev/tokens", json={"sub": "", "tiers": []})


def dev_requests() -> Any:
    from mcp_types import CallToolRequestParams

    params = CallToolRequestParams(name="list_projects", arguments={})
    anyio.run(stub_tools().call_tool, None, params)
    return _json(_dev_app(), "GET", "/dev/requests")


def mcp_without_bearer() -> Any:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    return _json(_stub_mcp_app(), "POST", "/mcp", json=body)


def _completion_body(stream: bool) -> dict[str, Any]:
    return {
        "model": "beacon-rules",
        "stream": stream,
        "messages": [{"role": "user", "content": "How many photos are there?"}],
        "tools": [{"type": "function", "function": {"name": "query_data", "parameters": {}}}],
    }


def openai_stream_chunks() -> Any:
    headers = {"Authorization": "Bearer sweep"}
    response = anyio.run(
        partial(
            _ask,
            _llm_app(),
            "POST",
            "/v1/chat/completions",
            json=_completion_body(True),
            headers=headers,
        )
    )
    chunks = []
    for line in response.text.splitlines():
        if line.startswith("data: ") and line != "data: [DONE]":
            chunks.append(json.loads(line[len("data: ") :]))
    return {
        "status": response.status_code,
        "chunks": chunks,
        "done": "data: [DONE]" in response.text,
    }


def openai_error_body() -> Any:
    return _json(_llm_app(), "POST", "/v1/chat/completions", json=_completion_body(False))


def openai_models() -> Any:
    return _json(_llm_app(), "GET", "/v1/models")


PRODUCERS: dict[str, Callable[[], Any]] = {
    "jwks": jwks,
    "dev-token": dev_token,
    "dev-token-claims": dev_token_claims,
    "dev-token-refusal": dev_token_refusal,
    "dev-requests": dev_requests,
    "mcp-without-bearer": mcp_without_bearer,
    "openai-stream-chunks": openai_stream_chunks,
    "openai-error-body": openai_error_body,
    "openai-models": openai_models,
    "tools-list": tools_list,
}
