"""The upstream's tool catalog, as the planner model receives it (OpenAI wire)."""

from __future__ import annotations

from typing import Any


def _without_titles(schema: Any) -> Any:
    """JSON Schema minus its ``title`` keys: the property names already say it, and
    the catalog is re-sent with every planning request (it is most of the input)."""
    if isinstance(schema, dict):
        return {
            k: _without_titles(v)
            for k, v in schema.items()
            if not (k == "title" and isinstance(v, str))
        }
    if isinstance(schema, list):
        return [_without_titles(v) for v in schema]
    return schema


def openai_tools(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t["name"],
                "description": t.get("description", ""),
                "parameters": _without_titles(t.get("inputSchema", {"type": "object"})),
            },
        }
        for t in listed
    ]
