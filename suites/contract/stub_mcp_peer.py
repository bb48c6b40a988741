"""The stub MCP server on loopback and the official MCP SDK client as its peer: what the
stub's HTTP contract tests (``test_stub_mcp_*.py``) drive it with."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, TextContent

from beacon.upstream.mcp_client import MAX_EVENT_BYTES
from beacon.wire.accounting import ACCOUNTING_META_KEY, Accounting
from harness.inproc import serving
from stub_server.mcp_app import PROTOCOL_VERSION, create_app

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


@contextmanager
def serving_stub() -> Iterator[Stub]:
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


def accounting_of(result: CallToolResult) -> dict[str, Any]:
    block = result.content[0]
    assert isinstance(block, TextContent) and block.meta is not None
    accounting = block.meta[ACCOUNTING_META_KEY]
    Accounting.model_validate(accounting)
    assert isinstance(accounting, dict)
    return accounting


def structured_of(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text
