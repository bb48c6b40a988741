"""Server overhead: an adjudicated turn vs a bare relay of the same stub streams (SPEC §7).

The adjudicated turn is ``POST /v1/turns`` through the chat server. The bare
relay (``bench/relay.py``) is a server process beside it, on the same web stack
(FastAPI on uvicorn, SSE), that makes the same upstream traffic and nothing
else: one MCP session (official SDK, streamable HTTP) with the same
``tools/call``s — tool and arguments read from the stub MCP's ``GET
/dev/requests`` for that turn — plus ``tools/list``, and the same number of
streaming chat completions to the stub LLM, each with the roles, tools flag and
byte size the stub LLM's ``GET /dev/requests`` recorded for the turn's request
(the real bodies are built inside the server, so the relay's are shaped to
match), streaming the completions' text back as SSE. Both are timed the same
way, by the same client: from sending the POST to the end of the SSE stream.
Both ways run interleaved on one stack after a warm-up; the figure is the ratio
of median wall times, overall and per question (goal ≤ 1.10× on each).

    python -m bench.turn_overhead [--turns N]
"""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from collections.abc import Callable
from typing import Any

import httpx
from mcp import types

from beacon.loop.catalog import openai_tools as catalog_for_model
from beacon.wire.headers import TURN_HEADER
from bench.common import (
    TurnRun,
    dev_requests,
    for_turn,
    format_ms,
    format_ratio,
    median,
    percentile,
    post_sse,
    post_turn,
    ratio,
    turns_main,
)
from bench.concurrency import cpu_seconds
from bench.load import chat_pid, listening_pid
from bench.relay import Step, call_tool, mcp_session, running_relay
from harness.stack import Stack, running_stack
from stub_server.llm_requests import ChatRequest

NAME = "turn_overhead"
GOAL = 1.10  # issue 32: with the guard, the scope check and durable publication
DEFAULT_TURNS = 60  # each way; fewer left the median at the mercy of the machine's noise
USERS = 8  # whose turns interleave (a process's own limit, 600 a minute, binds past ~800)
MODEL = "beacon-rules"
# The demo's three questions: an exact aggregate, a vector search, a capped list.
QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "Photos of missing hard hats in Harbor Tower",
    "List all panoramas in Harbor Tower",
)


def request_bytes(body: dict[str, Any]) -> int:
    """A completion body's size as the stub LLM logs it (``bytes`` in /dev/requests)."""
    return len(ChatRequest.model_validate(body).model_dump_json().encode())


def shaped_body(
    entry: dict[str, Any],
    *,
    question: str,
    directory: list[dict[str, str]],
    tools: list[dict[str, Any]],
) -> dict[str, Any]:
    """A completion body with the logged request's roles, tools flag and byte size.

    The second system message carries the project directory so the stub plans
    the same tool calls; the first is padded until the sizes match.
    """
    roles: list[str] = list(entry["roles"])
    messages: list[dict[str, Any]] = []
    systems = 0
    for index, role in enumerate(roles):
        if role == "system":
            systems += 1
            text = ""
            if systems == 2:
                block = json.dumps({"projects": directory, "view_context": {}})
                text = "Turn context (data):\n```json\n" + block + "\n```"
            messages.append({"role": "system", "content": text})
        elif role == "user":
            messages.append({"role": "user", "content": question})
        elif role == "assistant":
            following = 0
            for later in roles[index + 1 :]:
                if later != "tool":
                    break
                following += 1
            calls = [
                {
                    "id": f"call_{k}",
                    "type": "function",
                    "function": {"name": "relay", "arguments": "{}"},
                }
                for k in range(1, following + 1)
            ]
            message: dict[str, Any] = {"role": "assistant", "content": None}
            if calls:
                message["tool_calls"] = calls
            messages.append(message)
        else:
            done = sum(1 for m in messages if m["role"] == role)
            messages.append({"role": role, "tool_call_id": f"call_{done + 1}", "content": ""})
    body: dict[str, Any] = {"model": MODEL, "messages": messages, "stream": True}
    if entry["tools"]:
        body["tools"] = tools
    missing = int(entry["bytes"]) - request_bytes(body)
    if missing > 0 and messages:
        first = messages[0]
        first["content"] = (first.get("content") or "") + "x" * missing
    return body


def build_schedule(
    plans: list[dict[str, Any]],
    calls: list[dict[str, Any]],
    completions: list[dict[str, Any]],
    body_for: Callable[[dict[str, Any]], dict[str, Any]],
) -> list[Step]:
    """The turn's upstream traffic in its order.

    ``plans`` are the turn's ``plan`` frames (round → how many calls), ``calls``
    the stub MCP's log for the turn, ``completions`` the stub LLM's. ``tools/list``
    comes first, sent beside round 0's calls (the first completion waits for it, as
    the turn's planner request waits for the catalog), then each completion followed
    by the calls its round planned.
    """
    per_round = {int(p["round"]): len(p["calls"]) for p in plans}
    pending = list(calls)
    steps: list[Step] = []

    def take(count: int) -> None:
        for entry in pending[:count]:
            steps.append(
                Step(kind="call", tool=str(entry["tool"]), arguments=dict(entry["arguments"]))
            )
        del pending[:count]

    steps.append(Step(kind="list_tools", beside=True))
    take(per_round.get(0, 0))
    for number, entry in enumerate(completions, start=1):
        steps.append(Step(kind="llm", body=body_for(entry)))
        if entry["tools"]:
            take(per_round.get(number, 0))
    take(len(pending))
    return steps


def openai_tools(listed: types.ListToolsResult) -> list[dict[str, Any]]:
    """The catalog exactly as the chat server sends it (same transformation)."""
    return catalog_for_model(
        [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed.tools]
    )


async def relay_turn(
    http: httpx.AsyncClient, relay_url: str, token: str, schedule: str, turn: str
) -> TurnRun:
    """One relayed turn, timed by the same client code as the chat server's turns."""
    return await post_sse(http, f"{relay_url}/relay/{schedule}", token, headers={TURN_HEADER: turn})


def relay_problem(run: TurnRun) -> str | None:
    if run.failure is not None:
        return run.failure
    if not run.events or run.events[-1].event != "done":
        return "the relay's stream did not end in done"
    return None


def measure(
    stack: Stack,
    token: str,
    *,
    turns: int = DEFAULT_TURNS,
    before_close: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """``before_close`` is given the relay's origin once the turns are done, while it
    still runs (the timeline collects its stamps then)."""
    # A few users take turns asking: one user's turns would run into the per-user
    # turn rate limit (a burst of 300, then 60 a minute) past ~300 turns.
    tokens = [token, *(stack.token(sub=f"bench-overhead-{i}") for i in range(1, USERS))]
    with running_relay(stack.mcp_url, stack.llm_url) as relay_url:
        figures = asyncio.run(_measure(stack, tokens, relay_url, turns=turns))
        if before_close is not None:
            before_close(relay_url)
        return figures


async def _measure(
    stack: Stack, tokens: list[str], relay_url: str, *, turns: int
) -> dict[str, Any]:
    token = tokens[0]
    limits = httpx.Limits(max_connections=20, max_keepalive_connections=20)
    async with httpx.AsyncClient(limits=limits) as http:
        # What the relay needs and a relay would hold anyway: catalog and directory.
        async with mcp_session(stack.mcp_url, token, f"relay-setup-{uuid.uuid4().hex[:8]}") as s:
            tools = openai_tools(await s.list_tools())
            listed = (await call_tool(s, "list_projects", {})).structured_content or {}
        directory = [{"id": str(i["id"]), "name": str(i["name"])} for i in listed.get("items", [])]

        schedules: dict[str, str] = {}
        shape: dict[str, dict[str, int]] = {}
        mismatched = 0
        for question in QUESTIONS:  # warm-up: one turn each way per question
            run = await post_turn(http, stack.chat_url, token, question)
            problem = run.problem
            if problem is not None:
                raise RuntimeError(f"warm-up turn failed ({question!r}): {problem}")
            completions = for_turn(await dev_requests(http, stack.llm_url), run.turn_id)
            calls = for_turn(await dev_requests(http, stack.mcp_origin), run.turn_id)

            def body_for(entry: dict[str, Any], q: str = question) -> dict[str, Any]:
                return shaped_body(entry, question=q, directory=directory, tools=tools)

            steps = build_schedule(run.frames("plan"), calls, completions, body_for)
            mismatched += sum(
                1
                for step, entry in zip(
                    [s for s in steps if s.kind == "llm"], completions, strict=True
                )
                if step.body is not None and request_bytes(step.body) != entry["bytes"]
            )
            schedules[question] = f"q{len(schedules) + 1}"
            response = await http.put(
                f"{relay_url}/schedules/{schedules[question]}",
                json=[step.model_dump() for step in steps],
                timeout=10.0,
            )
            response.raise_for_status()
            shape[question] = {"llm_requests": len(completions), "mcp_calls": len(calls)}
            warm = await relay_turn(
                http, relay_url, token, schedules[question], f"relay-warm-{uuid.uuid4().hex[:8]}"
            )
            if (problem := relay_problem(warm)) is not None:
                raise RuntimeError(f"warm-up relay failed ({question!r}): {problem}")

        # CPU per turn, each side's process over the whole interleaved run (Linux /proc):
        # far less noisy than wall time, and what a turn costs the machine.
        pids = {"turn": chat_pid(stack), "relay": listening_pid(relay_url)}
        cpu_before = {way: cpu_seconds(pid) if pid else 0.0 for way, pid in pids.items()}
        turn_times: dict[str, list[float]] = {q: [] for q in QUESTIONS}
        ids: dict[str, dict[str, list[str]]] = {q: {"turn": [], "relay": []} for q in QUESTIONS}
        relay_times: dict[str, list[float]] = {q: [] for q in QUESTIONS}
        failed: list[str] = []
        relay_ids: list[tuple[str, str]] = []
        for index in range(turns):
            question = QUESTIONS[index % len(QUESTIONS)]
            token = tokens[index % len(tokens)]
            relay_id = f"relay-{index}-{uuid.uuid4().hex[:8]}"
            relay_ids.append((question, relay_id))
            for way in ("turn", "relay") if index % 2 == 0 else ("relay", "turn"):
                if way == "relay":
                    relayed = await relay_turn(
                        http, relay_url, token, schedules[question], relay_id
                    )
                    if (problem := relay_problem(relayed)) is not None:
                        failed.append(f"relay: {problem}")
                    else:
                        relay_times[question].append(relayed.total_s)
                        ids[question]["relay"].append(relay_id)
                    continue
                run = await post_turn(http, stack.chat_url, token, question)
                problem = run.problem
                if problem is not None:
                    failed.append(problem)
                else:
                    turn_times[question].append(run.total_s)
                    ids[question]["turn"].append(run.turn_id or "")

        cpu_ms = {
            way: (cpu_seconds(pid) - cpu_before[way]) * 1000 / turns if pid and turns else None
            for way, pid in pids.items()
        }
        # The relay really made the same traffic: count it at the stubs.
        llm_log = await dev_requests(http, stack.llm_url)
        mcp_log = await dev_requests(http, stack.mcp_origin)
        traffic_differs = sum(
            1
            for question, relay_id in relay_ids
            if len(for_turn(llm_log, relay_id)) != shape[question]["llm_requests"]
            or len(for_turn(mcp_log, relay_id)) != shape[question]["mcp_calls"]
        )

    all_turns = [t for ts in turn_times.values() for t in ts]
    all_relays = [t for ts in relay_times.values() for t in ts]
    per_question = {
        q: {**shape[q], **compared(median(turn_times[q]), median(relay_times[q]))}
        for q in QUESTIONS
        if turn_times[q] and relay_times[q]
    }
    turn_median = median(all_turns) if all_turns else float("nan")
    relay_median = median(all_relays)
    overall = ratio(turn_median, relay_median) if all_turns else float("nan")
    return {
        "bench": NAME,
        "turns_each_way": turns,
        "turn_median_s": turn_median,
        "relay_median_s": relay_median,
        "turn_p95_s": percentile(all_turns, 95) if all_turns else float("nan"),
        "relay_p95_s": percentile(all_relays, 95),
        "ratio": overall,
        "ratio_of_totals": ratio(sum(all_turns), sum(all_relays)) if all_turns else float("nan"),
        "goal_ratio_max": GOAL,
        "goal_met": bool(all_turns) and overall <= GOAL,
        # Per question, not only on the median of all: no question may pay more.
        "goal_met_per_question": bool(per_question)
        and all(row["ratio"] <= GOAL for row in per_question.values()),
        "per_question": per_question,
        # Each measured turn's id, by question and way (the timeline finds its stamps).
        "ids": ids,
        "turn_cpu_ms_per_turn": cpu_ms["turn"],
        "relay_cpu_ms_per_turn": cpu_ms["relay"],
        "cpu_ratio": ratio(cpu_ms["turn"], cpu_ms["relay"])
        if cpu_ms["turn"] is not None and cpu_ms["relay"]
        else None,
        "failed_turns": len(failed),
        "failures": failed[:5],
        "relay_body_size_mismatches": mismatched,
        "relay_traffic_mismatches": traffic_differs,
        "ok": not failed and traffic_differs == 0 and mismatched == 0,
    }


def compared(turn_median_s: float, relay_median_s: float) -> dict[str, float]:
    """A question's medians, their ratio and what its turn waits longer, in ms."""
    return {
        "turn_median_s": turn_median_s,
        "relay_median_s": relay_median_s,
        "ratio": ratio(turn_median_s, relay_median_s),
        "overhead_ms": (turn_median_s - relay_median_s) * 1000,
    }


def question_line(row: dict[str, Any]) -> str:
    """A question's ratio, its overhead in ms and both medians (``compared``)."""
    return (
        f"    {format_ratio(row['ratio']):>7}  {row['overhead_ms']:+.1f} ms"
        f"  turn {format_ms(row['turn_median_s'])} vs relay {format_ms(row['relay_median_s'])}"
    )


def lines(figures: dict[str, Any]) -> list[str]:
    out = [
        f"turn overhead: {figures['turns_each_way']} turns each way, interleaved, after a warm-up",
        f"  adjudicated turn  median {format_ms(figures['turn_median_s'])}"
        f"  p95 {format_ms(figures['turn_p95_s'])}",
        f"  bare relay        median {format_ms(figures['relay_median_s'])}"
        f"  p95 {format_ms(figures['relay_p95_s'])}",
        f"  ratio (medians)   {format_ratio(figures['ratio'])}"
        f"  (goal ≤ {format_ratio(figures['goal_ratio_max'])}:"
        f" {'met' if figures['goal_met'] else 'NOT met'}; per question:"
        f" {'met' if figures.get('goal_met_per_question') else 'NOT met'});"
        f" ratio of totals {format_ratio(figures['ratio_of_totals'])}",
    ]
    for question, row in figures["per_question"].items():
        out.append(
            f"{question_line(row)}"
            f"  ({row['llm_requests']} completions, {row['mcp_calls']} MCP calls)  {question}"
        )
    if figures.get("cpu_ratio") is not None:
        out.append(
            f"  CPU per turn      {figures['turn_cpu_ms_per_turn']:.1f} ms vs relay"
            f" {figures['relay_cpu_ms_per_turn']:.1f} ms: {format_ratio(figures['cpu_ratio'])}"
            " (each side's process, over the whole run)"
        )
    out.append(
        f"  failed turns {figures['failed_turns']}; relay traffic mismatches"
        f" {figures['relay_traffic_mismatches']}; body size mismatches"
        f" {figures['relay_body_size_mismatches']}"
    )
    return out


def run(*, turns: int = DEFAULT_TURNS) -> dict[str, Any]:
    with running_stack() as stack:
        return measure(stack, stack.token(), turns=turns)


def main(argv: list[str] | None = None) -> int:
    return turns_main("python -m bench.turn_overhead", run, lines, argv, turns=DEFAULT_TURNS)


if __name__ == "__main__":
    sys.exit(main())
