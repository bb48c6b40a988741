"""Catalog scoping: the planner is never shown a tool the caller may not call.

Hiding is a courtesy to the model (it cannot plan around what it never saw);
the PEP still blocks at dispatch, because a model can name a tool it was not shown.
"""

from __future__ import annotations

from typing import Any

from beacon.wire.tools import tool_spec


def tool_name(tool: dict[str, Any]) -> str | None:
    """The name of an MCP tool (``{"name": …}``) or an OpenAI one (``{"function": {…}}``)."""
    function = tool.get("function")
    name = function.get("name") if isinstance(function, dict) else tool.get("name")
    return name if isinstance(name, str) else None


def scope_catalog(tools: list[dict[str, Any]], granted: frozenset[str]) -> list[dict[str, Any]]:
    """The tools whose capability is granted, in upstream order, unchanged.

    Fail closed: a tool without a row in the tool table, or with no readable
    name, is hidden.
    """
    kept = []
    for tool in tools:
        spec = tool_spec(tool_name(tool))
        if spec is not None and spec.capability in granted:
            kept.append(tool)
    return kept
