"""Model input per turn vs the raw upstream payload (SPEC §7).

For each case one turn runs through the chat server. *Raw* is the compact-JSON
size of the MCP ``CallToolResult``s the case's result tool returned (the same
calls — tool and arguments from the stub MCP's ``GET /dev/requests`` for the
turn — made again with the official SDK client and measured here; the
``list_projects`` context call is listed apart). *Model input* is the bytes of
every completion request the chat server sent the LLM for that turn (the stub
LLM's ``GET /dev/requests`` ``bytes``, selected by the turn id from the
``start`` frame). *Evidence* is how much the planner request grew once the
results were in (the assistant's tool calls plus the digests): the part of the
input that could grow with the result; the rest is the fixed prompt and tool
catalog. Goal: ≥ 50× smaller than raw for large results, flat as results grow.

    python -m bench.model_input
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from typing import Any

import httpx

from bench.common import (
    dev_requests,
    for_turn,
    format_ratio,
    frame_problem,
    json_bytes,
    post_turn,
    ratio,
)
from bench.relay import call_tool, mcp_session
from harness.stack import Stack, running_stack

NAME = "model_input"
GOAL = 50.0
CONTEXT_TOOL = "list_projects"
# (label, question): 10 photos, ~200 rows (211), and the 3000-row cap.
CASES = (
    ("10 photos", "Photos of missing hard hats in Harbor Tower"),
    ("200 rows", "List all findings by Keystone Concrete in Harbor Tower"),
    ("3000 rows", "List all panoramas in Harbor Tower"),
)


def evidence_bytes(completions: list[dict[str, Any]]) -> int:
    """Growth of the tool-bearing requests over the turn's first one."""
    planner = [int(c["bytes"]) for c in completions if c["tools"]]
    if not planner:
        return 0
    return max(planner) - planner[0]


async def measure_case(
    http: httpx.AsyncClient, stack: Stack, token: str, label: str, question: str
) -> dict[str, Any]:
    run = await post_turn(http, stack.chat_url, token, question)
    problem = run.failure or frame_problem(run.events)
    if problem is not None:
        raise RuntimeError(f"{label}: the turn failed: {problem}")
    completions = for_turn(await dev_requests(http, stack.llm_url), run.turn_id)
    calls = for_turn(await dev_requests(http, stack.mcp_origin), run.turn_id)
    raw = 0
    context = 0
    async with mcp_session(stack.mcp_url, token, f"bench-raw-{uuid.uuid4().hex[:8]}") as session:
        for call in calls:
            result = await call_tool(session, str(call["tool"]), dict(call["arguments"]))
            size = json_bytes(result.model_dump(by_alias=True, mode="json", exclude_none=True))
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
        cases = [await measure_case(http, stack, token, lbl, q) for lbl, q in CASES]
    smallest, largest = cases[0], cases[-1]
    return {
        "bench": NAME,
        "cases": cases,
        "raw_growth": ratio(largest["raw_bytes"], smallest["raw_bytes"]),
        "model_input_growth": ratio(largest["model_input_bytes"], smallest["model_input_bytes"]),
        "goal_ratio_min": GOAL,
        "goal_met_largest": largest["ratio"] >= GOAL,
        # Our re-measured payloads equal what the chat server counted in tool_result.
        "raw_matches_server": all(c["raw_bytes"] == c["raw_bytes_server_saw"] for c in cases),
        "ok": True,
    }


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
    out.append(
        f"  as results grow {format_ratio(figures['raw_growth'])} (raw), model input grows"
        f" {format_ratio(figures['model_input_growth'])}; goal ≥"
        f" {format_ratio(figures['goal_ratio_min'])} smaller for the largest result:"
        f" {'met' if figures['goal_met_largest'] else 'NOT met'}"
    )
    out.append(
        "  (model input = every completion request of the turn, fixed prompt and tool catalog"
        " included; evidence = what the results added to it)"
    )
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
