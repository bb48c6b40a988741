"""Who may see what, over the real dispatch path: the 120-cell matrix.

6 capabilities × 10 tools × capability hint present/absent. Tokens carry
licence tiers, not capabilities, so each capability is held through the
lowest tier that grants it. A scripted planner calls exactly the cell's tool
(even one the caller's catalog hides, as a hallucinating model would), and
the stub's request log proves a blocked call never went out.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.policy.capabilities import (
    CAPABILITIES,
    TIER_CAPABILITIES,
    TOOL_CAPABILITY,
    TOOLS,
    lowest_tier,
)
from harness.stack import Stack

pytestmark = pytest.mark.e2e
HARBOR = "prj-harbor-tower"
ARGUMENTS: dict[str, dict[str, Any]] = {
    "search_photos": {"project_id": HARBOR, "query": "missing hard hats"},
    "query_data": {"project_id": HARBOR, "question": "List open safety findings on level 3"},
    "list_projects": {},
    "get_project": {"project_id": HARBOR},
    "list_levels": {"project_id": HARBOR},
    "get_capture": {"capture_id": "cap-000001"},
    "list_annotations": {"project_id": HARBOR, "level_number": 3},
    "search_documents": {"project_id": HARBOR, "query": "fire stopping"},
    "get_progress_summary": {"project_id": HARBOR},
    "get_clash_report": {"project_id": HARBOR},
}
CELLS = [
    pytest.param(capability, tool, hint, id=f"{capability}-{tool}-{'hint' if hint else 'nohint'}")
    for capability in CAPABILITIES
    for tool in TOOLS
    for hint in (True, False)
]


def turn_requests(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    entries = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id]


@pytest.mark.parametrize(("capability", "tool", "hint"), CELLS)
def test_a_call_is_allowed_only_with_a_verified_capability(
    stack: Stack, capability: str, tool: str, hint: bool
) -> None:
    tier = lowest_tier(capability)
    allowed = TOOL_CAPABILITY[tool] in TIER_CAPABILITIES[tier]
    body: dict[str, Any] = {"message": f"CALL {tool} {json.dumps(ARGUMENTS[tool])}"}
    if hint:
        # The client claims every capability: it may shape the UI, never the verdict.
        body["capability_hint"] = list(CAPABILITIES)
    events = run_turn(
        stack.chat_url,
        body,
        token=stack.token(sub=f"m-{tier}", tiers=(tier,)),
        scenario="model-direct-call",
    )
    assert events[-1].event == "done", events[-1].data
    turn_id = events[0].json()["turn_id"]
    dispatched = [e["tool"] for e in turn_requests(stack, turn_id) if e["tool"] == tool]
    results = [
        e.json()
        for e in events
        if e.event == "tool_result" and e.json()["call_id"] == "call_direct"
    ]
    denials = [e.json() for e in events if e.event == "notice" and e.json()["kind"] == "denied"]
    if allowed:
        assert dispatched and not denials
        assert results[0]["status"] in ("ok", "failure")
    else:
        assert dispatched == []  # the stub never saw the request
        assert len(denials) == 1 and results[0]["status"] == "denied"
        assert results[0]["bytes"] == 0
        assert not [e for e in events if e.event == "tool_call" and e.json()["tool"] == tool]
        refs = next(e.json() for e in events if e.event == "references")
        assert not [c for c in refs["citations"] if c["source"] == tool]
        assert all(c["total"] is None for c in refs["counts"] if c["source"] == tool)
