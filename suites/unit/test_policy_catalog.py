"""Catalog scoping: the planner sees only the tools the caller may call."""

from __future__ import annotations

from typing import Any

import pytest

from beacon.policy import TIER_CAPABILITIES, TOOLS, scope_catalog, tool_name


def mcp_tool(name: str) -> dict[str, Any]:
    return {"name": name, "description": f"{name} tool", "inputSchema": {"type": "object"}}


def openai_tool(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}


@pytest.mark.parametrize(
    ("tier", "visible"),
    [
        pytest.param(
            "essentials",
            ["list_projects", "get_project", "list_levels", "get_capture", "list_annotations"],
            id="essentials-core-only",
        ),
        pytest.param(
            "professional",
            [
                "list_projects",
                "get_project",
                "list_levels",
                "get_capture",
                "list_annotations",
                "search_documents",
                "get_progress_summary",
            ],
            id="professional-adds-documents-progress",
        ),
        pytest.param("enterprise_ai", list(TOOLS), id="enterprise-ai-sees-all"),
    ],
)
@pytest.mark.parametrize("shape", [mcp_tool, openai_tool], ids=["mcp", "openai"])
def test_each_tier_sees_its_tools_in_upstream_order(
    tier: str, visible: list[str], shape: Any
) -> None:
    catalog = [shape(name) for name in TOOLS]
    scoped = scope_catalog(catalog, TIER_CAPABILITIES[tier])
    assert [tool_name(t) for t in scoped] == [n for n in TOOLS if n in visible]


def test_kept_tools_are_passed_through_unchanged() -> None:
    catalog = [mcp_tool("list_projects")]
    assert scope_catalog(catalog, frozenset({"core"}))[0] is catalog[0]


@pytest.mark.parametrize(
    "tool",
    [
        pytest.param(mcp_tool("brand_new_tool"), id="tool-outside-the-map"),
        pytest.param({"description": "no name"}, id="no-name"),
        pytest.param({"name": 7}, id="name-not-a-string"),
        pytest.param({"function": {"name": None}}, id="openai-without-a-name"),
    ],
)
def test_what_cannot_be_mapped_is_hidden(tool: dict[str, Any]) -> None:
    assert scope_catalog([tool], TIER_CAPABILITIES["enterprise_ai"]) == []


def test_no_capabilities_means_an_empty_catalog() -> None:
    assert scope_catalog([mcp_tool(n) for n in TOOLS], frozenset()) == []
