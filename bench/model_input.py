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
import warnings
from collections.abc import Callable
from typing import Any

import httpx

from beacon.wire.headers import SCENARIO_HEADER
from bench.common import (
    dev_requests,
    for_turn,
    format_ratio,
    post_turn,
    ratio,
)
from bench.relay import call_tool, mcp_session
from harness.stack import Stack, running_stack

NAME = "model_input"
GOAL = 50.0
# Issue 32: a one-round turn's whole model input, every request of it, at most 10 KiB.
TURN_BUDGET_BYTES = 10 * 1024
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


PARTS = ("prompt", "catalog", "transcript", "evidence")
# A system message is evidence when it carries what the results said (the answer call's
# anchors and evidence blocks), transcript when it carries the conversation, else prompt
# (the fixed prompts, the turn context, a correction).
_EVIDENCE_HEADS = ("Narration anchors", "Evidence")
_TRANSCRIPT_HEADS = ("Conversation so far",)
# When no tokenizer loads: the bytes-per-token ratio of this input's compact JSON and
# English (measured with o200k_base over a one-round turn's requests).
BYTES_PER_TOKEN_ESTIMATE = 4.4


def part_of(role: str, text: str) -> str:
    """Which part of the model input one message is."""
    if role == "tool":
        return "evidence"
    if role in ("user", "assistant"):
        return "transcript"
    if text.startswith(_EVIDENCE_HEADS):
        return "evidence"
    if text.startswith(_TRANSCRIPT_HEADS):
        return "transcript"
    return "prompt"


def token_counter() -> tuple[str, Callable[[str], int]]:
    """The tokenizer the figures use: OpenAI's o200k_base, its tables built into
    bpe-openai (no download); else an estimate from bytes, named as one."""
    with warnings.catch_warnings():
        # It reads its tables with importlib.resources' open_binary, deprecated in 3.11.
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import bpe_openai  # type: ignore[import-untyped,unused-ignore]
        except ImportError:
            return (
                f"estimate ({BYTES_PER_TOKEN_ESTIMATE} bytes per token)",
                lambda text: round(len(text.encode()) / BYTES_PER_TOKEN_ESTIMATE),
            )
        encoding = bpe_openai.get_encoding("o200k_base")
    return "o200k_base", lambda text: len(encoding.encode(text))


def request_split(completion: dict[str, Any], count_tokens: Callable[[str], int]) -> dict[str, Any]:
    """One completion request's bytes and tokens by part (the message bytes as sent,
    the catalog as its compact JSON)."""
    bytes_by = dict.fromkeys(PARTS, 0)
    tokens_by = dict.fromkeys(PARTS, 0)
    for role, size, text in zip(
        completion["roles"], completion["message_bytes"], completion["message_texts"], strict=True
    ):
        part = part_of(role, text)
        bytes_by[part] += size
        tokens_by[part] += count_tokens(text)
    bytes_by["catalog"] = int(completion["tools_bytes"])
    # The request's own JSON around them (model, keys, stream options).
    bytes_by["envelope"] = int(completion["bytes"]) - sum(bytes_by.values())
    tokens_by["catalog"] = count_tokens(completion["tools_text"]) if completion["tools_text"] else 0
    return {
        "purpose": "plan" if completion["tools"] else "answer",
        "bytes": int(completion["bytes"]),
        "tokens": sum(tokens_by.values()),
        "bytes_by_part": bytes_by,
        "tokens_by_part": tokens_by,
    }


def evidence_bytes(completions: list[dict[str, Any]]) -> int:
    """What the turn's results added to the model input: the evidence part of every
    request (tool digests and the calls' echo to the planner are its transcript;
    the answer's anchors and evidence blocks)."""
    return sum(
        size
        for c in completions
        for role, size, text in zip(c["roles"], c["message_bytes"], c["message_texts"], strict=True)
        if part_of(role, text) == "evidence"
    )


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
    problem = run.problem
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
            # The result as the upstream sent it (the fields it set), written compactly:
            # what the chat server reads off the wire (beacon/upstream/lean_reading.py).
            size = len(result.model_dump_json(by_alias=True, exclude_unset=True).encode())
            if call["tool"] == CONTEXT_TOOL:
                context += size
            else:
                raw += size
    results = [r for r in run.frames("tool_result") if r["tool"] != CONTEXT_TOOL]
    model_input = sum(int(c["bytes"]) for c in completions)
    tokenizer, count_tokens = token_counter()
    requests = [request_split(c, count_tokens) for c in completions]
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
        "requests": requests,
        "tokenizer": tokenizer,
        "model_input_bytes": model_input,
        "model_input_tokens": sum(r["tokens"] for r in requests),
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
        "turn_budget_bytes": TURN_BUDGET_BYTES,
        "turn_budget_met_by_case": {
            c["case"]: c["model_input_bytes"] <= TURN_BUDGET_BYTES for c in cases
        },
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
        f"  goal ≤ {figures['turn_budget_bytes']} bytes of model input per turn: met for"
        f" {', '.join(k for k, v in figures['turn_budget_met_by_case'].items() if v) or 'none'}",
        *split_lines(figures["cases"]),
        "  (* = photo hits at the weight the seed measured on the real upstream;"
        " model input = every completion request of the turn, fixed prompt and tool catalog"
        " included; evidence = what the results added to it)",
    ]
    return out


def split_lines(cases: list[dict[str, Any]]) -> list[str]:
    """Per request of each turn: its bytes and tokens by part."""
    out = [f"  per request, bytes (tokens, {cases[0]['tokenizer'] if cases else '-'}):"]
    for case in cases:
        for i, request in enumerate(case["requests"], 1):
            parts = ", ".join(
                f"{part} {request['bytes_by_part'][part]} ({request['tokens_by_part'][part]})"
                for part in PARTS
            )
            out.append(
                f"    {case['case']:<10} #{i} {request['purpose']:<6} {request['bytes']:>6}"
                f" ({request['tokens']}): {parts}"
            )
        out.append(
            f"    {case['case']:<10} turn      {case['model_input_bytes']:>6}"
            f" ({case['model_input_tokens']})"
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
