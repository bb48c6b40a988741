"""The planner's catalog is compacted without changing what a call may say."""

from __future__ import annotations

from typing import Any, cast

import jsonschema
import pytest
from mcp import types

from beacon.loop.catalog import compact_schema, openai_tools, without_paging, working_set
from beacon.upstream.mcp_client import McpUpstream, _StatusLog

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
    assert compact["properties"]["level_number"] == {"type": "integer"}
    assert compact["properties"]["mode"] == SCHEMA["properties"]["mode"]  # not an optional


def test_what_only_a_validator_reads_goes_and_what_the_model_must_know_stays() -> None:
    compact = compact_schema(SCHEMA)
    assert compact == {
        "type": "object",
        "required": ["query"],
        "properties": {
            "query": {"type": "string"},
            "level_number": {"type": "integer"},
            "limit": {"default": 10, "type": "integer"},
            "mode": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        },
    }


def test_a_property_named_like_a_bound_is_a_property_not_a_bound() -> None:
    schema = {
        "type": "object",
        "properties": {"minimum": {"type": "number"}, "title": {"type": "string"}},
        "required": ["minimum", "title"],
    }
    assert compact_schema(schema) == schema


def test_a_later_round_carries_only_the_tools_the_turn_reached_for_in_catalog_order() -> None:
    catalog = openai_tools(
        [{"name": name, "inputSchema": {"type": "object"}} for name in ("a", "b", "c", "d")]
    )
    assert [t["function"]["name"] for t in working_set(catalog, {"d", "b"})] == ["b", "d"]
    assert working_set(catalog, set()) == []


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


class _ListingSession:
    """An MCP client session that only lists tools (McpUpstream's side of it)."""

    def __init__(self, description: str) -> None:
        self.description = description

    async def list_tools(self) -> types.ListToolsResult:
        schema = {"type": "object", "properties": {"project_id": {"type": "string"}}}
        tool = types.Tool(name="search_photos", description=self.description, input_schema=schema)
        return types.ListToolsResult(tools=[tool])


async def test_an_unchanged_catalog_is_listed_and_compacted_once_and_a_changed_one_again() -> None:
    session = _ListingSession("Photos of a project.")
    upstream = McpUpstream(cast(Any, session), _StatusLog(), 5.0)
    first, again = await upstream.list_tools(), await upstream.list_tools()
    assert first is again
    assert openai_tools(first)[0] is openai_tools(again)[0]
    session.description = "Photos of a project, newest first."
    changed = await upstream.list_tools()
    assert changed is not first
    (tool,) = openai_tools(changed)
    assert tool["function"]["description"] == "Photos of a project, newest first."
