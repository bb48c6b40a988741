"""Model input per turn vs the raw upstream payload (SPEC §7).

For each case one turn runs through the chat server. *Raw* is the compact-JSON
size of the MCP ``CallToolResult``s the case's result tool returned (the same
calls — tool and arguments from the stub MCP's ``GET /dev/requests`` for the
turn — made again with the official SDK client and measured here; the
``list_projects`` context call is listed apart). *Model input* is the bytes of
every completion request the chat server sent the LLM for that turn (the stub
LLM's ``GET /dev/requests`` ``bytes``, selected by the turn id from the
``start`` frame): fixed prompt and tool catalog included. *Evidence* is what
the results added to it: how much the planner's request grew once they were in
plus the answer call's evidence block — the part of the input that could grow
with the result.

The stub's photo hits are light by default (~1.3 kB: its suites stay fast);
the ``measured-photos`` scenario sends them at the weight the seed measured on
the real upstream (a 10-photo result of 1,175,854 bytes), which is the case the
goal was set against. Goal: ≥ 50× smaller, flat as results grow.

    python -m bench.model_input
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from typing import Any

import httpx

from beacon.wire.headers import SCENARIO_HEADER
from bench.common import (
    dev_requests,
    for_turn,
    format_ratio,
    frame_problem,
    post_turn,
    ratio,
)
from bench.relay import call_tool, mcp_session
from harness.stack import Stack, running_stack

NAME = "model_input"
GOAL = 50.0
CONTEXT_TOOL = "list_projects"
PHOTOS = "Photos of missing hard hats in Harbor Tower"
# (label, question, stub scenario): 10 photos light and at their measured weight,
# ~200 rows (211), and the 3000-row cap.
CASES: tuple[tuple[str, str, str | None], ...] = (
    ("10 photos", PHOTOS, None),
    ("10 photos*", PHOTOS, "measured-photos"),
    ("200 rows", "List all findings by Keystone Concrete in Harbor Tower", None),
    ("3000 rows", "List all panoramas in Harbor Tower", None),
)
MEASURED = "10 photos*"


# The answer call's stable prefix: the responder prompt and the turn block. What
# follows them, before the question, is the anchors and the evidence: per result.
ANSWER_PREFIX_MESSAGES = 2


def evidence_bytes(completions: list[dict[str, Any]]) -> int:
    """What the turn's results added to the model input: the calls and digests in
    the last planner request, and the anchors and evidence of the answer call."""
    planner = [c for c in completions if c["tools"]]
    answers = [c for c in completions if not c["tools"]]
    added = 0
    if planner:
        last = planner[-1]
        added += sum(
            size
            for role, size in zip(last["roles"], last["message_bytes"], strict=True)
            if role in ("assistant", "tool")
        )
    if answers:
        last = answers[-1]
        parts = list(zip(last["roles"], last["message_bytes"], strict=True))
        added += sum(size for role, size in parts[ANSWER_PREFIX_MESSAGES:] if role == "system")
    return added


async def measure_case(
    http: httpx.AsyncClient,
    stack: Stack,
    token: str,
    label: str,
    question: str,
    scenario: str | None,
) -> dict[str, Any]:
    headers = {SCENARIO_HEADER: scenario} if scenario else None
    run = await post_turn(http, stack.chat_url, token, question, headers=headers)
    problem = run.failure or frame_problem(run.events)
    if problem is not None:
        raise RuntimeError(f"{label}: the turn failed: {problem}")
    completions = for_turn(await dev_requests(http, stack.llm_url), run.turn_id)
    calls = for_turn(await dev_requests(http, stack.mcp_origin), run.turn_id)
    raw = 0
    context = 0
    raw_turn = f"bench-raw-{uuid.uuid4().hex[:8]}"
    async with mcp_session(stack.mcp_url, token, raw_turn, scenario) as session:
        for call in calls:
            result = await call_tool(session, str(call["tool"]), dict(call["arguments"]))
            size = len(result.model_dump_json(by_alias=True, exclude_none=True).encode())
            if call["tool"] == CONTEXT_TOOL:
                context += size
            else:
                raw += size
    results = [r for r in run.frames("tool_result") if r["tool"] != CONTEXT_TOOL]
    model_input = sum(int(c["bytes"]) for c in completions)
    evidence = evidence_bytes(completions)
    return {
        "case": label,
        "question": question,
        "scenario": scenario,
        "turn_id": run.turn_id,
        "returned": sum(int(r["returned"] or 0) for r in results),
        "tools": [str(c["tool"]) for c in calls if c["tool"] != CONTEXT_TOOL],
        "raw_bytes": raw,
        "raw_bytes_server_saw": sum(int(r["bytes"]) for r in results),
        "context_raw_bytes": context,
        "llm_requests": len(completions),
        "model_input_bytes": model_input,
        "evidence_bytes": evidence,
        "fixed_bytes": model_input - evidence,
        "ratio": ratio(raw, model_input),
        "evidence_ratio": ratio(raw, evidence) if evidence > 0 else float("inf"),
    }


async def measure(stack: Stack, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        cases = [await measure_case(http, stack, token, *case) for case in CASES]
    lightest = min(cases, key=lambda c: c["raw_bytes"])
    heaviest = max(cases, key=lambda c: c["raw_bytes"])
    measured = next(c for c in cases if c["case"] == MEASURED)
    return {
        "bench": NAME,
        "cases": cases,
        "raw_growth": ratio(heaviest["raw_bytes"], lightest["raw_bytes"]),
        "model_input_growth": ratio(heaviest["model_input_bytes"], lightest["model_input_bytes"]),
        "goal_ratio_min": GOAL,
        # The goal, as set against the measured 10-photo payload, on the whole input.
        "goal_met_measured_photos": measured["ratio"] >= GOAL,
        "goal_met_by_case": {c["case"]: c["ratio"] >= GOAL for c in cases},
        "evidence_goal_met_by_case": {c["case"]: c["evidence_ratio"] >= GOAL for c in cases},
        # Our re-measured payloads equal what the chat server counted in tool_result.
        "raw_matches_server": all(c["raw_bytes"] == c["raw_bytes_server_saw"] for c in cases),
        "ok": True,
    }


def _met(flag: bool) -> str:
    return "met" if flag else "NOT met"


def lines(figures: dict[str, Any]) -> list[str]:
    out = ["model input vs raw upstream payload (bytes per turn)"]
    out.append(
        f"  {'case':<10} {'returned':>8} {'raw':>9} {'model input':>12} {'ratio':>7}"
        f" {'evidence':>9} {'raw/evidence':>12} {'requests':>8}"
    )
    for case in figures["cases"]:
        out.append(
            f"  {case['case']:<10} {case['returned']:>8} {case['raw_bytes']:>9}"
            f" {case['model_input_bytes']:>12} {format_ratio(case['ratio']):>7}"
            f" {case['evidence_bytes']:>9} {format_ratio(case['evidence_ratio']):>12}"
            f" {case['llm_requests']:>8}"
        )
    goal = format_ratio(figures["goal_ratio_min"])
    met = [k for k, v in figures["goal_met_by_case"].items() if v]
    evidence_met = [k for k, v in figures["evidence_goal_met_by_case"].items() if v]
    out += [
        f"  as results grow {format_ratio(figures['raw_growth'])} (raw), model input grows"
        f" {format_ratio(figures['model_input_growth'])}",
        f"  goal ≥ {goal} smaller, whole model input: met for {', '.join(met) or 'none'};"
        f" measured 10-photo payload: {_met(figures['goal_met_measured_photos'])}",
        f"  goal ≥ {goal} smaller, evidence only: met for {', '.join(evidence_met) or 'none'}",
        "  (* = photo hits at the weight the seed measured on the real upstream;"
        " model input = every completion request of the turn, fixed prompt and tool catalog"
        " included; evidence = what the results added to it)",
    ]
    return out


def run() -> dict[str, Any]:
    with running_stack() as stack:
        return asyncio.run(measure(stack, stack.token()))


def main(argv: list[str] | None = None) -> int:
    del argv
    figures = run()
    print("\n".join(lines(figures)))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
