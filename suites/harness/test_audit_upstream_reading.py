"""The audit's pure parts: reading a raw result (text is a result), classifying a tool,
and the contract format holding every row of Beacon's tool table."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest

from beacon.wire.frames import ScopeAxis
from beacon.wire.tools import TOOL_SPECS, tool_specs
from harness.audit_upstream.classify import Kind, classify
from harness.audit_upstream.contract import entry_from_tool_spec, problems, schema
from harness.audit_upstream.reading import read


def _text(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": False}


@pytest.mark.parametrize(
    ("text", "items", "source"),
    [
        pytest.param("1. alpha\n2. beta\n3. gamma", 3, "numbered", id="numbered-list"),
        pytest.param("Results:\n- a\n- b", 2, "bulleted", id="bulleted-list"),
        pytest.param(json.dumps([{"id": 1}, {"id": 2}]), 2, "array", id="json-array"),
        pytest.param(json.dumps({"rows": [1, 2, 3, 4]}), 4, "/rows", id="json-object"),
        pytest.param("[{'name': 'a'}, {'name': 'b'}]", 2, "Python", id="python-literal"),
        pytest.param(
            "Commit: a\nAuthor: x\n\nCommit: b\nAuthor: y\n\nCommit: c\nAuthor: z",
            3,
            "records",
            id="key-value-records",
        ),
        pytest.param("Allowed directories:\n/srv/a\n/srv/b", 2, "lines", id="heading-and-lines"),
    ],
)
def test_items_are_counted_from_text_and_the_reading_says_how(
    text: str, items: int, source: str
) -> None:
    reading = read(_text(text), None)
    assert (reading.items, reading.error_text) == (items, None)
    assert source in reading.source and reading.source.startswith(("text", "/"))


@pytest.mark.parametrize(
    "text",
    [
        "Fixed the error in the login form\nRemoved failed builds",
        "Error handling guide\nRetry policy",
        "Fixed the error in the login form",
        "No matches found",
        "Total: 0 results",
    ],
)
def test_a_healthy_text_result_is_never_an_error(text: str) -> None:
    assert read(_text(text), None).error_text is None


@pytest.mark.parametrize(
    "text",
    [
        "Search API error: 502 Server Error: Bad Gateway for url: http://127.0.0.1:9/x",
        "Error: Only SELECT queries are allowed for read_query",
        "The cursor is invalid or has expired. Please start the search again.",
    ],
)
def test_an_error_relayed_as_text_is_read_as_one(text: str) -> None:
    assert read(_text(text), None).error_text is not None


def test_a_stated_count_in_text_is_accounting_and_a_cursor_alone_is_not() -> None:
    assert read(_text("Total: 60 files, 10 directories\n- a"), None).accounted
    cursor_only = {**_text("x"), "structuredContent": {"items": [1, 2], "nextCursor": "c2"}}
    reading = read(cursor_only, None)
    assert reading.more is True and not reading.accounted


def test_accounting_is_found_in_block_meta_with_its_pointer() -> None:
    raw = {
        "content": [{"type": "text", "text": "x", "_meta": {"acme.dev/page": {"hasMore": True}}}],
        "structuredContent": {"items": [1]},
    }
    assert read(raw, None).has_more is not None
    assert read(raw, None).fields_seen() == {"/content/0/_meta/acme.dev~1page/hasMore": True}


def test_structured_content_that_breaks_the_declared_schema_is_reported() -> None:
    declared = {"type": "object", "properties": {"total": {"type": "integer"}}}
    raw = {**_text("x"), "structuredContent": {"total": "3"}}
    assert read(raw, declared).schema_errors


def _tool(
    name: str,
    properties: dict[str, Any],
    required: tuple[str, ...] = (),
    annotations: dict[str, Any] | None = None,
) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "required": list(required)}
    return {
        "name": name,
        "inputSchema": schema,
        **({"annotations": annotations} if annotations else {}),
    }


@pytest.mark.parametrize(
    ("tool", "kind", "size"),
    [
        pytest.param(
            _tool(
                "git_log",
                {"repo_path": {"type": "string"}, "max_count": {"type": "integer", "default": 10}},
                ("repo_path",),
            ),
            Kind.LIST,
            "max_count",
            id="git-log-max-count",
        ),
        pytest.param(
            _tool(
                "listRecords", {"pageSize": {"type": "integer"}, "pageToken": {"type": "string"}}
            ),
            Kind.LIST,
            "pageSize",
            id="camel-case-page",
        ),
        pytest.param(
            _tool(
                "find",
                {
                    "q": {"type": "string"},
                    "depth": {"type": "integer", "description": "Maximum number of results"},
                },
                ("q",),
            ),
            Kind.SEARCH,
            "depth",
            id="bound-by-description",
        ),
        pytest.param(
            _tool(
                "read_text_file",
                {"path": {"type": "string"}, "head": {"type": "integer"}},
                ("path",),
            ),
            Kind.LOOKUP,
            "head",
            id="read-one-file",
        ),
        pytest.param(
            _tool("list_items", {}, annotations={"readOnlyHint": False}),
            Kind.SKIPPED,
            None,
            id="annotated-write",
        ),
        pytest.param(
            _tool("deleteItem", {"id": {"type": "string"}}), Kind.SKIPPED, None, id="write-by-name"
        ),
        pytest.param(
            _tool("echo", {"message": {"type": "string"}}, ("message",)),
            Kind.SKIPPED,
            None,
            id="no-list-signal",
        ),
    ],
)
def test_a_tool_is_classified_from_its_name_annotations_and_schemas(
    tool: dict[str, Any], kind: Kind, size: str | None
) -> None:
    plan = classify(tool)
    assert plan.kind is kind
    if kind is not Kind.SKIPPED:
        assert (plan.size_arg.name if plan.size_arg else None) == size


def test_the_contract_names_the_scope_axes_of_the_wire() -> None:
    applied = schema()["$defs"]["applied"]["properties"]["axis"]["enum"]
    assert set(applied) == set(get_args(ScopeAxis))


@pytest.mark.parametrize("name", list(TOOL_SPECS))
def test_every_tool_table_row_is_expressible_as_a_contract_entry(name: str) -> None:
    document = {
        "version": 1,
        "target": "beacon-stub",
        "tools": {name: entry_from_tool_spec(TOOL_SPECS[name])},
    }
    assert problems(document) == []


def test_a_contract_entry_missing_its_accounting_places_is_refused() -> None:
    entry = entry_from_tool_spec(tool_specs()[0])
    del entry["total"]
    assert problems({"version": 1, "target": "t", "tools": {"x": entry}})


def test_resource_link_blocks_are_items() -> None:
    links = [{"type": "resource_link", "uri": f"test://r/{i}", "name": f"r{i}"} for i in range(3)]
    raw = {"content": [{"type": "text", "text": "Here are the links"}, *links]}
    reading = read(raw, None)
    assert reading.items == 3 and reading.keys[0] == "test://r/0"
