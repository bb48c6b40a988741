"""Fault modes: how much of a normal tool output reaches the wire, and in what shape.

Each shape reproduces one measured upstream behaviour (SPEC §2.1). None of them
sets ``isError``: the whole point is that they look like successes.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio
from mcp import MCPError
from mcp_types import INTERNAL_ERROR, CallToolResult, TextContent

from stub_server.scenarios import Mode
from stub_server.tools import Flags, ToolOutput

_PROSE = "Please select a project first."
_CURSOR_REJECTED = "The cursor is invalid or has expired. Please start the search again."


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)


def bad_gateway_text(tool: str) -> str:
    return (
        "Search API error: 502 Server Error: Bad Gateway for url: "
        f"http://127.0.0.1:9/internal/{tool.replace('_', '-')}"
    )


def enveloped(output: ToolOutput) -> CallToolResult:
    return CallToolResult(content=[output.block()], structured_content=output.structured)


def tool_error(message: str) -> CallToolResult:
    return CallToolResult(content=[_text(message)], is_error=True)


async def render(
    tool: str, mode: Mode, run: Callable[[Flags], ToolOutput], slow_ms: int
) -> CallToolResult:
    """Run the tool under ``mode`` (``run`` may raise ``ToolError``; the caller answers it)."""
    if mode is Mode.JSONRPC_ERROR:
        raise MCPError(INTERNAL_ERROR, f"Upstream failure while running {tool}")
    if mode is Mode.INBAND_502:
        return CallToolResult(content=[_text(bad_gateway_text(tool))])
    if mode is Mode.AUTH_EMPTY:
        return CallToolResult(content=[_text("{}")])
    if mode is Mode.PROSE_REPLY:
        return CallToolResult(content=[_text(_PROSE)])
    if mode is Mode.CURSOR_REJECTED:
        return CallToolResult(content=[_text(_CURSOR_REJECTED)])
    if mode is Mode.DEGRADED_EMPTY:
        return CallToolResult(content=[_text("")], structured_content={})
    if mode is Mode.SLOW:
        await anyio.sleep(slow_ms / 1000)
    output = run(
        Flags(
            zero_hits=mode is Mode.ZERO_HITS,
            cursor_drift=mode is Mode.CURSOR_DRIFT,
            measured=mode is Mode.MEASURED,
        )
    )
    if mode is Mode.LEGACY:
        return CallToolResult(content=[_text(output.text)])
    return enveloped(output)
