"""The turn-overhead bench: the relay's traffic is shaped and ordered like the turn's."""

from __future__ import annotations

import os
import socket
from typing import Any

import pytest

from bench import turn_overhead
from bench.load import listening_pid
from bench.relay import Step
from bench.turn_overhead import build_schedule, request_bytes, shaped_body
from harness.stack import Stack
from stub_server.llm_app import respond
from stub_server.llm_requests import ChatRequest

DIRECTORY = [{"id": "prj-harbor-tower", "name": "Harbor Tower"}]
TOOLS = [
    {
        "type": "function",
        "function": {"name": "search_photos", "description": "", "parameters": {}},
    }
]
QUESTION = "Photos of missing hard hats in Harbor Tower"


def _entry(roles: list[str], *, tools: bool, size: int) -> dict[str, Any]:
    return {"roles": roles, "tools": tools, "bytes": size, "messages": len(roles)}


def _shape(entry: dict[str, Any]) -> dict[str, Any]:
    return shaped_body(entry, question=QUESTION, directory=DIRECTORY, tools=TOOLS)


def test_a_shaped_body_has_the_logged_roles_flag_and_size() -> None:
    entry = _entry(["system", "system", "user", "assistant", "tool", "tool"], tools=True, size=9000)
    body = _shape(entry)
    assert [m["role"] for m in body["messages"]] == entry["roles"]
    assert body["tools"] == TOOLS and body["stream"] is True
    assert request_bytes(body) == 9000
    assert [c["id"] for c in body["messages"][3]["tool_calls"]] == ["call_1", "call_2"]
    assert [m["tool_call_id"] for m in body["messages"][4:]] == ["call_1", "call_2"]


def test_a_tool_free_body_sends_no_tools() -> None:
    body = _shape(_entry(["system", "system", "system", "system", "user"], tools=False, size=3000))
    assert "tools" not in body
    assert request_bytes(body) == 3000


def test_the_shaped_first_request_makes_the_stub_plan_the_same_call() -> None:
    body = _shape(_entry(["system", "system", "user"], tools=True, size=8000))
    reply = respond(ChatRequest.model_validate(body))
    assert [c["function"]["name"] for c in reply.tool_calls] == ["search_photos"]


def test_the_schedule_follows_rounds() -> None:
    plans = [{"round": 0, "calls": [{}]}, {"round": 1, "calls": [{}, {}]}]
    calls = [
        {"tool": "list_projects", "arguments": {}},
        {"tool": "query_data", "arguments": {"question": "a"}},
        {"tool": "query_data", "arguments": {"question": "b"}},
    ]
    completions = [
        _entry(["system", "system", "user"], tools=True, size=1),
        _entry(["system", "system", "user", "assistant", "tool", "tool"], tools=True, size=2),
        _entry(["system", "user"], tools=False, size=3),
    ]
    steps = build_schedule(plans, calls, completions, lambda e: {"size": e["bytes"]})
    assert [(s.kind, s.tool, s.arguments.get("question"), s.beside) for s in steps] == [
        # The catalog is asked for beside the context call, as the turn asks for it.
        ("list_tools", "", None, True),
        ("call", "list_projects", None, False),
        ("llm", "", None, False),
        ("call", "query_data", "a", False),
        ("call", "query_data", "b", False),
        ("llm", "", None, False),
        ("llm", "", None, False),
    ]
    assert [s.body for s in steps if s.kind == "llm"] == [{"size": 1}, {"size": 2}, {"size": 3}]
    assert steps[1] == Step(kind="call", tool="list_projects", arguments={})


@pytest.mark.e2e
def test_smoke_two_turns_each_way(stack: Stack, token: str) -> None:
    figures = turn_overhead.measure(stack, token, turns=2)
    assert figures["ok"], figures
    assert figures["ratio"] > 0 and figures["failed_turns"] == 0
    assert any("ratio (medians)" in line for line in turn_overhead.lines(figures))
    # Each side's CPU was read from its own process: both did work, and it is printed.
    assert figures["turn_cpu_ms_per_turn"] > 0 and figures["relay_cpu_ms_per_turn"] > 0
    assert any(line.startswith("  CPU per turn") for line in turn_overhead.lines(figures))


def test_the_process_listening_on_a_port_is_found_by_its_origin() -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert listening_pid(f"http://127.0.0.1:{port}") == os.getpid()
    assert listening_pid(f"http://127.0.0.1:{port}") is None  # closed: nobody listens
