"""Output schemas the stub's tools declare (JSON Schema, as MCP's ``outputSchema``).

Other code reads these shapes; they are the contract a chat server's client
validates ``structuredContent`` against.
"""

from __future__ import annotations

from typing import Any

_INT = {"type": "integer", "minimum": 0}
_STR = {"type": "string"}
_ENVELOPE: dict[str, Any] = {
    "result_kind": {"type": "string", "enum": ["search", "rows"]},
    "returned": _INT,
    "has_more": {"type": "boolean"},
    "cursor": {"type": ["string", "null"]},
}


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or list(properties)}


PHOTO_ITEM = _object(
    {
        "id": _STR,
        "title": _STR,
        "description": _STR,
        "level_number": {"type": "integer"},
        "level_name": _STR,
        "taken_at": _STR,
        "capture_id": _STR,
        "score": {"type": "number"},
        "thumbnail": _STR,
    }
)
PROJECT_ITEM = _object(
    {"id": _STR, "name": _STR, "code": _STR, "city": _STR, "panoramas": _INT, "levels": _INT}
)
LEVEL_ITEM = _object(
    {"id": _STR, "number": {"type": "integer"}, "name": _STR, "panoramas": _INT, "photos": _INT}
)
AGGREGATE = {
    "anyOf": [
        {"type": "null"},
        _object(
            {
                "function": {"type": "string", "enum": ["COUNT", "SUM", "AVG", "MIN", "MAX"]},
                "column": _STR,
                "value": {"type": ["number", "null"]},
            }
        ),
    ]
}

SEARCH_OUTPUT = _object(
    {**_ENVELOPE, "total_lower_bound": _INT, "items": {"type": "array", "items": PHOTO_ITEM}}
)
QUERY_OUTPUT = _object(
    {
        **_ENVELOPE,
        "total": _INT,
        "sql": _STR,
        "columns": {"type": "array", "items": _STR},
        "rows": {"type": "array", "items": {"type": "object"}},
        "aggregate": AGGREGATE,
    }
)


def items_output(item: dict[str, Any]) -> dict[str, Any]:
    return _object({**_ENVELOPE, "total": _INT, "items": {"type": "array", "items": item}})
