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


_VECTOR = {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}
# Where a record stands (corpus_places.py): a camera view (metres, project coordinates)
# and the host scope, on every capture, photo and finding; a finding's BIM reference
# and review where it has them.
VIEW = _object({"position": _VECTOR, "look_at": _VECTOR, "direction": _VECTOR})
BIM = _object({"model": _STR, "element": _STR, "level": _STR})
_PLACE_FIELDS: dict[str, Any] = {
    "view": VIEW,
    "organisation": _STR,
    "team": _STR,
    "project_name": _STR,
}

_PHOTO_FIELDS: dict[str, Any] = {
    "id": _STR,
    "title": _STR,
    "description": _STR,
    "level_number": {"type": "integer"},
    "level_name": _STR,
    "taken_at": _STR,
    "capture_id": _STR,
    "score": {"type": "number"},
    "thumbnail": _STR,
    **_PLACE_FIELDS,
}


# The long vision-model analysis is optional: the ``measured`` mode sends it.
PHOTO_ITEM = _object({**_PHOTO_FIELDS, "analysis": _STR}, required=list(_PHOTO_FIELDS))
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


_LEVEL_NO = {"type": "integer", "minimum": 1}
_DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}"}
CAPTURE_ITEM = _object(
    {
        "id": _STR,
        "project_id": _STR,
        "label": _STR,
        "level_number": _LEVEL_NO,
        "level_name": _STR,
        "captured_at": _STR,
        "photos": _INT,
        "annotations": _INT,
        "thumbnail": _STR,
        **_PLACE_FIELDS,
    }
)
_ANNOTATION_FIELDS: dict[str, Any] = {
    "id": _STR,
    "title": _STR,
    "kind": {"type": "string", "enum": ["safety", "quality"]},
    "category": _STR,
    "status": {"type": "string", "enum": ["open", "closed", "in_review"]},
    "company": _STR,
    "inspector": _STR,
    "level_number": _LEVEL_NO,
    "capture_id": _STR,
    "created_at": _DATE,
    **_PLACE_FIELDS,
}
ANNOTATION_ITEM = _object(
    {**_ANNOTATION_FIELDS, "bim": BIM, "review": _STR}, required=list(_ANNOTATION_FIELDS)
)
DOCUMENT_ITEM = _object(
    {
        "id": _STR,
        "kind": {"type": "string", "enum": ["spec", "rfi"]},
        "number": _STR,
        "title": _STR,
        "summary": _STR,
        "status": _STR,
        "discipline": _STR,
        "level_number": _LEVEL_NO,
        "issued_on": _DATE,
        "score": _INT,
    }
)
_PCT = {"type": "integer", "minimum": 0, "maximum": 100}
PROGRESS_ITEM = _object(
    {
        "level_number": _LEVEL_NO,
        "level_name": _STR,
        "planned_pct": _PCT,
        "actual_pct": _PCT,
        "status": {"type": "string", "enum": ["complete", "ahead", "on_track", "behind"]},
        "as_of": _DATE,
        "trades": {
            "type": "array",
            "items": _object({"trade": _STR, "planned_pct": _PCT, "actual_pct": _PCT}),
        },
    }
)
CLASH_ITEM = _object(
    {
        "id": _STR,
        "level_number": _LEVEL_NO,
        "discipline_a": _STR,
        "discipline_b": _STR,
        "element_a": _STR,
        "element_b": _STR,
        "severity": {"type": "string", "enum": ["critical", "major", "minor"]},
        "status": {"type": "string", "enum": ["new", "active", "resolved"]},
        "detected_on": _DATE,
    }
)
