"""Fronting an upstream Beacon did not write, in process: ``upstream_link`` installs the
contract's rows as the tool table (minus what a drift disabled) and the embedded
model plans over tools it never met (stub_server/rules_any.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from beacon.server.fronting import upstream_link
from beacon.server.settings import settings_from_env
from beacon.store.crypto import new_key_slot
from beacon.wire.contract import stub_contract
from beacon.wire.tools import TOOL_SPECS, front_tool_table, tool_spec, tool_with_role
from stub_server.rules_any import plan_any

GIT_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "git_status",
            "description": "Shows the working tree status",
            "parameters": {"type": "object", "properties": {}, "required": []},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "git_log",
            "description": "Shows the commit logs",
            "parameters": {
                "type": "object",
                "properties": {"max_count": {"type": "integer"}},
                "required": [],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_notes",
            "description": "Search notes by words",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string"}, "folder": {"type": "string"}},
                "required": ["query"],
            },
        },
    },
]


def user(text: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": "x"}, {"role": "user", "content": text}]


def called(reply: Any) -> tuple[str, dict[str, Any]]:
    (call,) = reply.tool_calls
    return call["function"]["name"], json.loads(call["function"]["arguments"])


def test_the_tool_sharing_most_words_with_the_question_is_called_once() -> None:
    assert called(plan_any(user("How many commits are in the log?"), GIT_TOOLS)) == (
        "git_log",
        {},
    )
    # A search phrase is the only argument the question can fill.
    name, arguments = called(plan_any(user("Search my notes about rebar"), GIT_TOOLS))
    assert name == "search_notes" and "rebar" in arguments["query"]
    after = [*user("How many commits?"), {"role": "tool", "content": "…"}]
    assert (
        plan_any(after, GIT_TOOLS).content == "READY" and not plan_any(after, GIT_TOOLS).tool_calls
    )


def test_a_question_no_tool_speaks_to_is_answered_in_words() -> None:
    reply = plan_any(user("What is the weather like?"), GIT_TOOLS)
    assert not reply.tool_calls and "git_log" in reply.content


def test_a_contract_fronts_its_rows_and_leaves_out_what_a_drift_disabled(tmp_path: Path) -> None:
    document = stub_contract()
    contract = tmp_path / "c.yaml"
    contract.write_text(yaml.safe_dump(document))
    env = {
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/jwks",
        "BEACON_DB": str(tmp_path / "db"),
        "BEACON_KEYS": new_key_slot("k1"),
        "BEACON_UPSTREAM_CONTRACT": str(contract),
        "BEACON_UPSTREAM_DISABLED": "list_projects",
        "BEACON_UPSTREAM_TOKEN": "service-bearer",
    }
    before = front_tool_table(TOOL_SPECS.values())
    try:
        link = upstream_link(settings_from_env(env))
        assert link.contract is not None and link.token == "service-bearer"
        assert link.disabled == {"list_projects"}
        # The disabled tool is gone from the table: hidden, blocked, no directory round.
        assert tool_spec("list_projects") is None and tool_with_role("context") is None
        assert tool_spec("query_data") == TOOL_SPECS["query_data"]
    finally:
        front_tool_table(before.values())
    assert tool_spec("list_projects") is not None


def test_without_a_contract_the_stub_is_fronted_with_the_callers_bearer() -> None:
    env = {
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/jwks",
        "BEACON_DB": "/tmp/unused.sqlite3",
        "BEACON_KEYS": new_key_slot("k1"),
    }
    link = upstream_link(settings_from_env(env))
    assert (link.contract, link.token, link.url) == (None, None, "http://127.0.0.1:9/mcp")
