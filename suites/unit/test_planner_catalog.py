"""The planner's catalog is compacted without changing what a call may say."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from beacon.loop.catalog import compact_schema, openai_tools, without_paging

SCHEMA: dict[str, Any] = {
    "title": "Args",
    "type": "object",
    "additionalProperties": False,
    "required": ["query"],
    "properties": {
        "query": {"title": "Query", "type": "string", "minLength": 1},
        "level_number": {
            "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
            "default": None,
            "title": "Level Number",
        },
        "limit": {"default": 10, "type": "integer", "maximum": 50},
        "mode": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    },
}


def test_titles_go_and_optional_nulls_become_plain_types() -> None:
    compact = compact_schema(SCHEMA)
    assert "title" not in str(compact)
    assert compact["properties"]["level_number"] == {"type": "integer", "minimum": 1}
    assert compact["properties"]["limit"] == SCHEMA["properties"]["limit"]
    assert compact["properties"]["mode"] == SCHEMA["properties"]["mode"]  # not an optional


@pytest.mark.parametrize(
    "call",
    [
        pytest.param({"query": "x"}, id="only-required"),
        pytest.param({"query": "x", "level_number": 3, "limit": 5}, id="all-set"),
    ],
)
def test_what_the_compact_schema_accepts_the_original_accepts(call: dict[str, Any]) -> None:
    jsonschema.validate(call, compact_schema(SCHEMA))
    jsonschema.validate(call, SCHEMA)


def test_the_catalog_is_in_the_openai_function_shape() -> None:
    (tool,) = openai_tools([{"name": "search", "description": "d", "inputSchema": SCHEMA}])
    assert tool["type"] == "function" and tool["function"]["name"] == "search"
    assert tool["function"]["parameters"]["required"] == ["query"]


PAGED: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "project_id": {"type": "string"},
        "question": {"type": "string"},
        "cursor": {"type": "string"},
    },
    "anyOf": [{"required": ["question"]}, {"required": ["cursor"]}],
}


def test_the_planner_is_never_offered_a_page_handle() -> None:
    planned = without_paging(PAGED)
    assert "cursor" not in planned["properties"]
    # The only way left to call it is with a question, and the schema says so.
    assert "anyOf" not in planned and planned["required"] == ["question"]
    jsonschema.validate({"project_id": "p", "question": "q"}, planned)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"project_id": "p", "cursor": "c"}, planned)
    assert PAGED["properties"]["cursor"] == {"type": "string"}  # the input is untouched


def test_a_schema_without_paging_is_left_as_it_is() -> None:
    assert without_paging(SCHEMA) is SCHEMA
    optional: dict[str, Any] = {"type": "object", "properties": {"cursor": {"type": "string"}}}
    assert without_paging(optional) == {"type": "object", "properties": {}}


def test_other_alternatives_survive_and_a_lone_cursor_alternative_goes() -> None:
    several = {**PAGED, "anyOf": [{"required": ["question"]}, {"required": ["project_id"]}]}
    several["anyOf"] = [*several["anyOf"], {"required": ["cursor"]}]
    assert without_paging(several)["anyOf"] == [
        {"required": ["question"]},
        {"required": ["project_id"]},
    ]
    only_paged = {**PAGED, "anyOf": [{"required": ["cursor"]}]}
    assert "anyOf" not in without_paging(only_paged)
