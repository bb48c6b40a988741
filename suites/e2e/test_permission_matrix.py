"""Who may see what, over the real dispatch path: the 6 × 10 × 2 = 120-cell matrix.

6 capabilities × 10 tools × capability hint present/absent. Each cell's caller
holds exactly one capability; a scripted planner calls exactly the cell's tool
(even one the caller's catalog hides, as a hallucinating model would), and the
stub's request log proves a blocked call never went out.

SPEC §5's tiers nest (every tier carries ``core``; the lowest tier with any other
capability carries others too), so no real licence holds one capability alone.
The caller is therefore a development tier, ``only:<capability>``
(``beacon.policy.capabilities.SINGLE_CAPABILITY_TIERS``), which the chat server's
verifier accepts only with the development switch on (``BEACON_SCENARIOS=allow``,
as every test stack runs): an operator's server refuses the same token
(``test_a_server_without_the_switch_refuses_a_single_capability_token``). The
expected verdicts are restated here from SPEC §2.1/§5, never read from the product.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest

from beacon.cli.ask import run_turn
from beacon.policy.capabilities import (
    CAPABILITIES,
    TIERS,
    TOOLS,
    development_tiers,
    granted_capabilities,
)
from harness.chat_process import chat_env, running_chat
from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("permission-matrix")]
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
# SPEC §2.1, restated (not imported): the capability each of the ten tools needs.
SPEC_TOOL_CAPABILITY: dict[str, str] = {
    "search_photos": "photo_ai",
    "query_data": "analytics",
    "list_projects": "core",
    "get_project": "core",
    "list_levels": "core",
    "get_capture": "core",
    "list_annotations": "core",
    "search_documents": "documents",
    "get_progress_summary": "progress",
    "get_clash_report": "bim",
}
SPEC_CAPABILITIES = ("core", "photo_ai", "analytics", "documents", "progress", "bim")


def only(capability: str) -> str:
    return f"only:{capability}"


@dataclass(frozen=True, slots=True)
class Cell:
    capability: str
    tool: str
    hint: bool

    @property
    def id(self) -> str:
        return f"{self.capability}-{self.tool}-{'hint' if self.hint else 'nohint'}"

    @property
    def allowed(self) -> bool:
        return SPEC_TOOL_CAPABILITY[self.tool] == self.capability


CELLS = [
    Cell(capability, tool, hint)
    for capability in SPEC_CAPABILITIES
    for tool in SPEC_TOOL_CAPABILITY
    for hint in (True, False)
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one cell's turn did, read from the frames and the stub's request log."""

    terminal: str
    dispatched: int  # calls of the cell's tool the stub received for this turn
    denied_results: int  # tool_result frames of the cell's tool with status "denied"
    denial_notices: int  # every "denied" notice of the turn (round 0 may add its own)
    status: str | None  # the tool_result status of the direct call
    result_bytes: int | None
    tool_call_frames: int
    citations: int
    counted_totals: int


def _turn_requests(stack: Stack, turn_id: str) -> list[dict[str, Any]]:
    entries = httpx.get(f"{stack.mcp_origin}/dev/requests", timeout=10).json()["requests"]
    return [e for e in entries if e["turn"] == turn_id]


def _run_cell(stack: Stack, cell: Cell) -> Outcome:
    body: dict[str, Any] = {
        "message": f"CALL {cell.tool} {json.dumps(ARGUMENTS[cell.tool])}",
        # The caller is looking at the project the call names: a single question that
        # names none in words would otherwise be asked which project first.
        "view_context": {"project_id": HARBOR},
    }
    if cell.hint:
        # The client claims every capability: it may shape the UI, never the verdict.
        body["capability_hint"] = list(SPEC_CAPABILITIES)
    token = stack.token(sub=f"matrix-{cell.capability}", tiers=(only(cell.capability),))
    events = run_turn(stack.chat_url, body, token=token, scenario="model-direct-call")
    turn_id = events[0].json()["turn_id"]
    results = [
        e.json()
        for e in events
        if e.event == "tool_result" and e.json()["call_id"] == "call_direct"
    ]
    refs = next((e.json() for e in events if e.event == "references"), None) or {}
    return Outcome(
        terminal=events[-1].event,
        dispatched=sum(e["tool"] == cell.tool for e in _turn_requests(stack, turn_id)),
        denied_results=sum(
            e.event == "tool_result"
            and e.json()["tool"] == cell.tool
            and e.json()["status"] == "denied"
            for e in events
        ),
        denial_notices=sum(e.event == "notice" and e.json()["kind"] == "denied" for e in events),
        status=results[0]["status"] if results else None,
        result_bytes=results[0]["bytes"] if results else None,
        tool_call_frames=sum(
            e.event == "tool_call" and e.json()["tool"] == cell.tool for e in events
        ),
        citations=sum(c["source"] == cell.tool for c in refs.get("citations", [])),
        counted_totals=sum(
            c["source"] == cell.tool and c["total"] is not None for c in refs.get("counts", [])
        ),
    )


@pytest.fixture(scope="module")
def outcome_of(stack: Stack) -> Iterator[Any]:
    """Each cell's turn, run once per module and shared by its test and the figures."""

    @cache
    def outcome(cell: Cell) -> Outcome:
        return _run_cell(stack, cell)

    yield outcome
    outcome.cache_clear()


def test_the_matrix_restates_the_products_tools_and_capabilities() -> None:
    assert sorted(SPEC_TOOL_CAPABILITY) == sorted(TOOLS)
    assert sorted(SPEC_CAPABILITIES) == sorted(CAPABILITIES)


@pytest.mark.parametrize("capability", SPEC_CAPABILITIES)
def test_a_single_capability_tier_grants_that_capability_and_nothing_else(
    capability: str,
) -> None:
    assert granted_capabilities([only(capability)]) == {capability}


def test_single_capability_tiers_exist_only_behind_the_development_switch() -> None:
    assert development_tiers(False) == frozenset()
    assert development_tiers(True) == {only(c) for c in SPEC_CAPABILITIES}
    assert not development_tiers(True) & set(TIERS)  # no licence tier is redefined


@pytest.mark.parametrize("cell", [pytest.param(c, id=c.id) for c in CELLS])
def test_a_call_is_allowed_only_with_a_verified_capability(outcome_of: Any, cell: Cell) -> None:
    outcome: Outcome = outcome_of(cell)
    assert outcome.terminal == "done"
    if cell.allowed:
        assert outcome.dispatched >= 1 and outcome.denied_results == 0
        assert outcome.status in ("ok", "failure")
    else:
        assert outcome.dispatched == 0  # the stub never saw the request
        assert outcome.status == "denied" and outcome.denied_results >= 1
        assert outcome.denial_notices >= 1
        assert outcome.result_bytes == 0 and outcome.tool_call_frames == 0
        assert outcome.citations == 0 and outcome.counted_totals == 0


def test_the_matrix_figures(outcome_of: Any) -> None:
    """Cells run / blocked / leaked, from the turns themselves (written to reports/matrix)."""
    outcomes = {cell: outcome_of(cell) for cell in CELLS}
    blocked = [c for c, o in outcomes.items() if o.status == "denied" and o.dispatched == 0]
    leaked = [c.id for c, o in outcomes.items() if not c.allowed and o.dispatched > 0]
    allowed = [c for c, o in outcomes.items() if o.dispatched > 0 and o.denied_results == 0]
    figures = {
        "cells_run": len(outcomes),
        "distinct_callers": len({c.capability for c in outcomes}),
        "blocked_through_dispatch": len(blocked),
        "allowed": len(allowed),
        "leaked": len(leaked),
    }
    out = Path(__file__).resolve().parents[2] / "reports" / "matrix" / "figures.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    assert leaked == []
    assert figures == {
        "cells_run": 120,
        "distinct_callers": 6,
        "blocked_through_dispatch": 100,
        "allowed": 20,
        "leaked": 0,
    }


def test_a_server_without_the_switch_refuses_a_single_capability_token(
    stack: Stack, tmp_path: Path
) -> None:
    env = chat_env(stack, tmp_path)
    del env["BEACON_SCENARIOS"]  # ``beacon serve`` as an operator runs it
    token = stack.token(sub="matrix-operator", tiers=(only("photo_ai"),))
    with running_chat(env) as url:
        refused = httpx.post(
            f"{url}/v1/turns",
            json={"message": "hi"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        licensed = httpx.post(
            f"{url}/v1/turns",
            json={"message": "hi"},
            headers={"Authorization": f"Bearer {stack.token(tiers=('enterprise',))}"},
            timeout=30,
        )
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "auth_bad_tiers"
    assert licensed.status_code != 401
