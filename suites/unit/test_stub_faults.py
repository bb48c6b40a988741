"""The stub's fault modes in-process (``stub_server.faults``): each shape looks like a
success (never ``isError``), and only a JSON-RPC error raises."""

from __future__ import annotations

import anyio
import pytest
from mcp import MCPError
from mcp_types import CallToolResult

from stub_server.corpus import build_corpus
from stub_server.faults import render
from stub_server.scenarios import Mode
from stub_server.tools import Flags, StubSettings, ToolContext, ToolOutput
from stub_server.tools_core import ListProjectsArgs, list_projects

CTX = ToolContext(build_corpus(), StubSettings(), "http://127.0.0.1:1")


def _projects(flags: Flags) -> ToolOutput:
    return list_projects(CTX, ListProjectsArgs(), flags)


def _rendered(mode: Mode) -> CallToolResult:
    return anyio.run(render, "list_projects", mode, _projects, 0)


@pytest.mark.parametrize("mode", [m for m in Mode if m is not Mode.JSONRPC_ERROR])
def test_every_fault_shape_looks_like_a_success(mode: Mode) -> None:
    assert not _rendered(mode).is_error


def test_only_the_normal_modes_carry_structured_content_with_the_envelope() -> None:
    assert _rendered(Mode.OK).structured_content["has_more"] is False
    assert _rendered(Mode.ZERO_HITS).structured_content["items"] == []
    assert _rendered(Mode.LEGACY).structured_content is None
    assert _rendered(Mode.INBAND_502).content[0].text.startswith("Search API error: 502")
    assert _rendered(Mode.DEGRADED_EMPTY).structured_content == {}


def test_a_json_rpc_error_mode_raises_instead_of_answering() -> None:
    with pytest.raises(MCPError, match="list_projects"):
        _rendered(Mode.JSONRPC_ERROR)
