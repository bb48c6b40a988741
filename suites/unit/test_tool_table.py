"""The one tool table agrees with the upstream it describes.

The independent side is the stub upstream itself: its catalog (what it lists,
the input schemas it declares) and what its tools really return when run.
Nothing expected here is read from ``beacon.wire.tools``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import anyio
import pytest

from beacon.wire.tools import tool_spec, tool_specs
from stub_server.catalog import StubTools
from stub_server.corpus import build_corpus
from stub_server.scenarios import load_scenario
from stub_server.tools import Flags, StubSettings, ToolContext

MAPLE = "prj-maple-clinic"
# One ordinary call per tool, written out: what a planner would send.
CALLS: dict[str, list[dict[str, Any]]] = {
    "search_photos": [{"project_id": MAPLE, "query": "rebar"}],
    "query_data": [
        {"project_id": MAPLE, "question": "List all panoramas in Maple Clinic"},
        {"project_id": MAPLE, "question": "List photos in Maple Clinic"},
        {"project_id": MAPLE, "question": "List open safety findings in Maple Clinic"},
    ],
    "list_projects": [{}],
    "get_project": [{"project_id": MAPLE}],
    "list_levels": [{"project_id": MAPLE}],
    "get_capture": [{"capture_id": "cap-000001"}],
    "list_annotations": [{"project_id": MAPLE}],
    "search_documents": [{"project_id": MAPLE, "query": "concrete"}],
    "get_progress_summary": [{"project_id": MAPLE}],
    "get_clash_report": [{"project_id": MAPLE}],
}


@cache
def _stub() -> StubTools:
    ctx = ToolContext(build_corpus(), StubSettings(), "http://127.0.0.1:9")
    return StubTools(ctx, load_scenario("default"))


@cache
def _listed() -> dict[str, dict[str, Any]]:
    """The stub's ``tools/list``, by name: each tool's input schema as JSON."""
    stub: Any = _stub()  # its handlers take the SDK's request context, unused here
    listed = anyio.run(stub.list_tools, None, None)
    return {tool.name: tool.input_schema for tool in listed.tools}


def _run(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """What the stub's tool returns for one call: its structured content."""
    stub = _stub()
    spec = stub.specs[tool]
    return spec.run(stub.ctx, spec.args.model_validate(arguments), Flags()).structured


def _ids(structured: dict[str, Any]) -> list[str]:
    rows = structured.get("items", structured.get("rows", []))
    return [row["id"] for row in rows if isinstance(row.get("id"), str)]


def test_the_table_has_a_row_for_exactly_the_ten_tools_the_stub_serves() -> None:
    served = list(_listed())
    assert len(served) == 10
    assert sorted(spec.name for spec in tool_specs()) == sorted(served)
    assert all(tool_spec(name) is not None for name in served)


def test_the_calls_below_cover_every_tool_the_stub_serves() -> None:
    """The per-tool checks below run against this list: it may miss no tool."""
    assert sorted(CALLS) == sorted(_listed())


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_every_scope_key_is_an_argument_the_tools_input_schema_declares(tool: str) -> None:
    spec = tool_spec(tool)
    assert spec is not None
    declared = set(_listed()[tool]["properties"])
    for axis in spec.filter_axes:
        assert set(axis.arguments) <= declared, f"{tool}: {axis.name} travels in {axis.arguments}"
    assert set(spec.scope_keys) <= declared


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_a_narrowed_page_is_the_largest_page_the_tool_accepts(tool: str) -> None:
    spec = tool_spec(tool)
    assert spec is not None
    if spec.narrowed_page is None:
        return
    assert _listed()[tool]["properties"]["limit"]["maximum"] == spec.narrowed_page


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_a_counted_tool_is_labelled_by_the_stub_with_its_result_kind(tool: str) -> None:
    spec = tool_spec(tool)
    assert spec is not None
    for arguments in CALLS[tool]:
        structured = _run(tool, arguments)
        if spec.result_kind is None:
            # No result contract: the answer is one record, never a set to count.
            assert len(_ids(structured)) == 1
        else:
            assert structured["result_kind"] == spec.result_kind


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_a_tool_cites_exactly_the_record_kinds_the_stub_returns_from_it(tool: str) -> None:
    """Of the id prefixes any row cites, the ones in what the stub returned from this
    tool are exactly the ones its row cites: no kind cited that never comes back,
    no citable record that would come back without a card."""
    spec = tool_spec(tool)
    assert spec is not None
    citable = {kind.id_prefix for other in tool_specs() for kind in other.cites}
    returned = [record_id for arguments in CALLS[tool] for record_id in _ids(_run(tool, arguments))]
    came_back = {prefix for prefix in citable if any(i.startswith(prefix) for i in returned)}
    assert came_back == {kind.id_prefix for kind in spec.cites}
