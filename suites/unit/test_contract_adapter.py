"""A foreign upstream's raw results, adapted through its declared contract, are graded by
the same rules as the stub's: counted only where the upstream accounts, UNKNOWN where it
does not, a failure where the promised items are missing, and never from prose.

Each case feeds ``adapt``'s real output to the adjudication readers (the crossing)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from beacon.adjudication import Grade, grade_count, is_in_band_failure, read_accounting
from beacon.adjudication.emptiness import result_emptiness
from beacon.upstream.contracted import ContractedUpstream, adapt
from beacon.upstream.errors import UpstreamProtocolError
from beacon.upstream.mcp_client import ToolOutcome
from beacon.wire.contract import ContractTool, UpstreamContract
from beacon.wire.tools import ToolSpec, fronting

SENTINEL = 3000


def tool(**fields: Any) -> ContractTool:
    base: dict[str, Any] = {
        "kind": "list",
        "capability": "core",
        "result_kind": "rows",
        "items": "/structuredContent/records",
        "total": None,
        "total_lower_bound": None,
        "has_more": None,
        "cursor": None,
        "page_cap": None,
        "cursor_pins_query": None,
        "applies": [],
    }
    return ContractTool.model_validate({**base, **fields})


def structured(records: int, **extra: Any) -> dict[str, Any]:
    rows = [{"id": f"r{i}"} for i in range(records)]
    return {
        "content": [{"type": "text", "text": "rows"}],
        "structuredContent": {"records": rows, **extra},
        "isError": False,
    }


def graded(raw: dict[str, Any], contract_tool: ContractTool) -> tuple[Grade, Any]:
    """The adapted result through the grade table, as the loop reads it (a rows tool)."""
    adapted = adapt(raw, contract_tool)
    spec = ToolSpec("t", "core", "rows")
    with fronting([spec]):
        assert not is_in_band_failure("t", adapted)
        verdict = grade_count(adapted, sentinel=SENTINEL)
    return verdict.grade, verdict.value


def test_a_total_where_the_contract_says_is_exact() -> None:
    found = graded(structured(10, meta={"n": 57}), tool(total="/structuredContent/meta/n"))
    assert found == (Grade.EXACT, 57)


def test_a_total_at_the_contracts_page_cap_is_only_a_lower_bound() -> None:
    contract_tool = tool(total="/structuredContent/total", page_cap=250)
    assert graded(structured(250, total=250), contract_tool) == (Grade.LOWER_BOUND, 250)


def test_a_declared_lower_bound_is_a_lower_bound() -> None:
    contract_tool = tool(total_lower_bound="/structuredContent/atLeast")
    assert graded(structured(5, atLeast=40), contract_tool) == (Grade.LOWER_BOUND, 40)


def test_has_more_false_with_no_total_makes_the_page_the_whole_set() -> None:
    contract_tool = tool(has_more="/structuredContent/hasMore")
    assert graded(structured(7, hasMore=False), contract_tool) == (Grade.EXACT, 7)


def test_has_more_true_with_no_total_is_at_least_the_page() -> None:
    contract_tool = tool(has_more="/structuredContent/hasMore")
    assert graded(structured(7, hasMore=True), contract_tool) == (Grade.LOWER_BOUND, 7)


def test_a_cursor_alone_is_not_accounting() -> None:
    contract_tool = tool(cursor="/structuredContent/next")
    assert graded(structured(10, next="abc"), contract_tool)[0] is Grade.UNKNOWN


def test_no_accounting_is_a_real_result_whose_count_is_unknown() -> None:
    adapted = adapt(structured(10), tool())
    with fronting([ToolSpec("t", "core", "rows")]):
        assert not is_in_band_failure("t", adapted)
        assert result_emptiness("t", adapted) == "non_empty"
        assert read_accounting(adapted) is None
    assert len(adapted["structuredContent"]["rows"]) == 10


def test_an_empty_result_without_accounting_is_not_a_known_zero() -> None:
    adapted = adapt(structured(0), tool())
    with fronting([ToolSpec("t", "core", "rows")]):
        assert result_emptiness("t", adapted) == "unknown"


def test_items_missing_where_the_contract_promised_them_read_as_an_in_band_failure() -> None:
    raw = {"content": [{"type": "text", "text": "Search API error: 502"}], "isError": False}
    adapted = adapt(raw, tool())
    with fronting([ToolSpec("t", "core", "rows")]):
        assert is_in_band_failure("t", adapted)


def test_text_items_are_counted_from_the_prose_but_a_count_it_states_is_never_read() -> None:
    text = "Total: 60 files\n- a.txt\n- b.txt\n- c.txt"
    raw = {"content": [{"type": "text", "text": text}], "isError": False}
    adapted = adapt(raw, tool(items="text", total="text"))
    assert len(adapted["structuredContent"]["rows"]) == 3
    with fronting([ToolSpec("t", "core", "rows")]):
        assert grade_count(adapted, sentinel=SENTINEL).grade is Grade.UNKNOWN


def test_an_upstreams_own_meta_cannot_pass_for_beacons_envelope() -> None:
    smuggled = {"beacon.dev/accounting": {"result_kind": "rows", "returned": 2, "total": 2}}
    raw = {
        "content": [{"type": "text", "text": "- a\n- b", "_meta": smuggled}],
        "isError": False,
    }
    adapted = adapt(raw, tool(items="text"))
    assert "_meta" not in adapted["content"][0]
    with fronting([ToolSpec("t", "core", "rows")]):
        assert read_accounting(adapted) is None


def test_an_error_stays_an_error() -> None:
    raw = {"content": [{"type": "text", "text": "boom"}], "isError": True}
    adapted = adapt(raw, tool(total="/structuredContent/total"))
    with fronting([ToolSpec("t", "core", "rows")]):
        assert is_in_band_failure("t", adapted)


def test_a_lookups_structured_record_is_its_prose_answer() -> None:
    raw = {"content": [], "structuredContent": {"branch": "main"}, "isError": False}
    adapted = adapt(raw, tool(kind="lookup", result_kind=None, items=None))
    assert adapted["content"] == [{"type": "text", "text": '{"branch": "main"}'}]
    assert "structuredContent" not in adapted


class _Inner:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def list_tools(self) -> list[dict[str, Any]]:
        schema = {
            "type": "object",
            "properties": {"repo_path": {"type": "string"}, "max_count": {"type": "integer"}},
            "required": ["repo_path"],
        }
        return [
            {"name": name, "inputSchema": schema} for name in ("git_log", "git_show", "git_add")
        ]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        self.sent.append(arguments)
        result = {"content": [{"type": "text", "text": "- one"}], "isError": False}
        return ToolOutcome(name, arguments, result, 200, 10)


def _contract() -> UpstreamContract:
    fixed = {"fixed_arguments": {"repo_path": "/srv/repo"}}
    entries = {
        "git_log": tool(items="text", **fixed).model_dump(),
        "git_show": tool(items="text", **fixed).model_dump(),
        "git_add": tool(kind="skipped", capability=None).model_dump(),
    }
    return UpstreamContract.model_validate({"version": 1, "target": "t", "tools": entries})


def test_fixed_arguments_are_sent_as_written_and_hidden_from_the_catalog() -> None:
    inner = _Inner()
    upstream = ContractedUpstream(inner, _contract(), disabled=frozenset({"git_show"}))  # type: ignore[arg-type]

    async def run() -> tuple[list[dict[str, Any]], ToolOutcome]:
        listed = await upstream.list_tools()
        outcome = await upstream.call_tool("git_log", {"repo_path": "/etc", "max_count": 5})
        return listed, outcome

    listed, outcome = anyio.run(run)
    # Skipped and drift-disabled tools are not listed; the fixed argument is not offered.
    assert [t["name"] for t in listed] == ["git_log"]
    assert listed[0]["inputSchema"]["properties"] == {"max_count": {"type": "integer"}}
    assert listed[0]["inputSchema"]["required"] == []
    # Whatever the model asked, the deployment's repository is the one called.
    assert inner.sent == [{"repo_path": "/srv/repo", "max_count": 5}]
    assert outcome.result["structuredContent"] == {"rows": ["- one"]}


def test_a_tool_the_contract_does_not_front_is_never_sent() -> None:
    inner = _Inner()
    upstream = ContractedUpstream(inner, _contract(), disabled=frozenset({"git_show"}))  # type: ignore[arg-type]
    for name in ("git_add", "git_show", "rm_rf"):
        with pytest.raises(UpstreamProtocolError):
            anyio.run(upstream.call_tool, name, {})
    assert inner.sent == []
