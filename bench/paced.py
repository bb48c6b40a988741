"""Turn overhead at a real peer's pace: ``turn_overhead.py``'s turns and relay, on a
stack whose stubs wait as a network and a model would (``stub_server/pace.py``).

At the stubs' own pace a whole turn takes ~35 ms and a model answers in ~3 ms, so
``turn_overhead.py`` measures what Beacon's work costs against a relay's CPU (its
goal, ≤ 1.10× per question, is judged there). A user waits on the upstream and the
model: here every MCP request waits ``MCP_DELAY_MS`` (a round trip and the
upstream's own work) and a completion's first chunk ``FIRST_TOKEN_MS`` (a model's
time to first token) — a turn of ~0.7 s, still many times faster than the seeds'
measured turns (~20 s end to end). Both ways wait the same, so the difference is
what Beacon adds, in milliseconds and as a ratio; a step Beacon made in turn where
the relay overlaps them would show here as a multiple of the delay.

Later chunks are not delayed (``CHUNK_MS`` 0): the relay's completions are shaped
to the turn's requests but carry no evidence, so the stub's answers to them are
longer or shorter than the turn's, and a delay per chunk measured the texts'
lengths (0.95× and 1.06× at 30 ms a chunk), not Beacon.

    python -m bench.paced [--turns N]
"""

from __future__ import annotations

import sys
from typing import Any

from bench import turn_overhead
from bench.common import format_ms, format_ratio, turns_main
from harness.stack import running_stack
from stub_server.pace import LLM_CHUNK_ENV, LLM_FIRST_ENV, MCP_DELAY_ENV

NAME = "paced_overhead"
MCP_DELAY_MS = 20
FIRST_TOKEN_MS = 250
CHUNK_MS = 0
DEFAULT_TURNS = 18  # each way, six a question: a paced turn takes most of a second


def pace_env(mcp_ms: float, first_ms: float, chunk_ms: float) -> dict[str, str]:
    return {
        MCP_DELAY_ENV: f"{mcp_ms:g}",
        LLM_FIRST_ENV: f"{first_ms:g}",
        LLM_CHUNK_ENV: f"{chunk_ms:g}",
    }


def run(
    *,
    turns: int = DEFAULT_TURNS,
    mcp_ms: float = MCP_DELAY_MS,
    first_ms: float = FIRST_TOKEN_MS,
    chunk_ms: float = CHUNK_MS,
) -> dict[str, Any]:
    with running_stack(extra_env=pace_env(mcp_ms, first_ms, chunk_ms)) as stack:
        figures = turn_overhead.measure(stack, stack.token(), turns=turns)
    return {
        **figures,
        "bench": NAME,
        "pace_ms": {"mcp_request": mcp_ms, "first_token": first_ms, "chunk": chunk_ms},
    }


def lines(figures: dict[str, Any]) -> list[str]:
    pace = figures["pace_ms"]
    out = [
        f"turn overhead at a network's pace: {figures['turns_each_way']} turns each way,"
        f" every MCP request +{pace['mcp_request']:g} ms, a completion's first chunk"
        f" +{pace['first_token']:g} ms, each later one +{pace['chunk']:g} ms"
        " (the goal is judged at the stubs' own pace: turn_overhead)",
        f"  adjudicated turn  median {format_ms(figures['turn_median_s'])}"
        f"  vs bare relay {format_ms(figures['relay_median_s'])}:"
        f" {format_ratio(figures['ratio'])}",
    ]
    for question, row in figures["per_question"].items():
        out.append(f"{turn_overhead.question_line(row)}  {question}")
    out.append(
        f"  failed turns {figures['failed_turns']}; relay traffic mismatches"
        f" {figures['relay_traffic_mismatches']}"
    )
    return out


def main(argv: list[str] | None = None) -> int:
    return turns_main("python -m bench.paced", run, lines, argv, turns=DEFAULT_TURNS)


if __name__ == "__main__":
    sys.exit(main())
