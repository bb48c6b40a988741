"""Who may see what, over the real dispatch path: the 120-cell matrix.

6 capabilities × 10 tools × capability hint present/absent. A scripted planner
calls exactly the cell's tool (even one the caller's catalog hides, as a
hallucinating model would), and the stub's request log proves a blocked call
never went out.

Tokens carry licence tiers, never capabilities: the verifier honours a verified
``tiers`` claim only, and a capability claim would be a second authority the
licence model does not have (so the dev issuer does not mint one, and no test
tier is added to the product). SPEC §5's tiers are nested, so no set of tiers
grants ``photo_ai``, ``analytics``, ``documents``, ``progress`` or ``bim`` alone:
every tier carries ``core``, and the lowest tier with one of them carries others.
Each cell is therefore driven with the smallest tier set holding its capability,
its verdict expected from what that set really grants (written here from SPEC
§5, not read from the product's map), and the cells whose one-capability
verdict ("blocked") cannot be reached through dispatch are counted, not hidden:
``test_the_matrix_figures`` pins cells run / blocked / collapsed. The unit matrix
(suites/unit) decides all 100 one-capability blocked cells in the PEP itself.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.policy.capabilities import CAPABILITIES, TOOL_CAPABILITY, TOOLS
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
# SPEC §5, restated (not imported): the four tiers, lowest first, each in full.
SPEC_TIERS: dict[str, frozenset[str]] = {
    "essentials": frozenset({"core"}),
    "professional": frozenset({"core", "documents", "progress"}),
    "enterprise": frozenset({"core", "documents", "progress", "analytics", "bim"}),
    "enterprise_ai": frozenset({"core", "photo_ai", "analytics", "documents", "progress", "bim"}),
}


def tier_sets() -> list[tuple[str, ...]]:
    """Every non-empty set of tiers a token may carry, smallest first."""
    names = list(SPEC_TIERS)
    return [c for n in range(1, len(names) + 1) for c in combinations(names, n)]


def granted(tiers: tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*(SPEC_TIERS[t] for t in tiers))


def holding(capability: str) -> tuple[str, ...]:
    """The tier set that holds ``capability`` with the fewest other capabilities."""
    sets = [t for t in tier_sets() if capability in granted(t)]
    return min(sets, key=lambda t: (len(granted(t)), len(t)))


def expected(capability: str, tool: str) -> tuple[bool, bool]:
    """(allowed for a caller holding only ``capability``, allowed for the tier set used)."""
    needed = TOOL_CAPABILITY[tool]
    return needed == capability, needed in granted(holding(capability))


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
    tiers = holding(capability)
    _, allowed = expected(capability, tool)
    body: dict[str, Any] = {"message": f"CALL {tool} {json.dumps(ARGUMENTS[tool])}"}
    if hint:
        # The client claims every capability: it may shape the UI, never the verdict.
        body["capability_hint"] = list(CAPABILITIES)
    events = run_turn(
        stack.chat_url,
        body,
        token=stack.token(sub=f"m-{'-'.join(tiers)}", tiers=tiers),
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
    if allowed:  # (for a collapsed cell, the tier set also grants the tool's capability)
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


def test_the_matrix_figures() -> None:
    """Cells run / blocked through dispatch / collapsed, and why they collapse."""
    exact = {c for c in CAPABILITIES if any(granted(t) == {c} for t in tier_sets())}
    assert exact == {"core"}  # no tier set grants any other capability alone
    cells = [(c, t, h) for c in CAPABILITIES for t in TOOLS for h in (True, False)]
    verdicts = [expected(c, t) for c, t, _ in cells]
    one_capability_blocked = sum(not alone for alone, _ in verdicts)
    blocked_through_dispatch = sum(not held for _, held in verdicts)
    collapsed = sum(held and not alone for alone, held in verdicts)
    assert len(cells) == 120 and len(set(cells)) == 120
    assert one_capability_blocked == 100  # the unit matrix's blocked cells
    assert blocked_through_dispatch == 26  # each a cell test above: request log empty
    assert collapsed == 74  # blocked alone, granted by the smallest tier set holding it
    assert one_capability_blocked == blocked_through_dispatch + collapsed
    # Every blocked-through-dispatch cell is also blocked for a one-capability caller:
    # the tier sets never take a capability away, so the e2e rows add no false denial.
    assert all(not alone for alone, held in verdicts if not held)
    distinct = {(granted(holding(c)), t, h) for c, t, h in cells}
    assert len(distinct) == 80  # what the 120 dispatch cells actually exercise
