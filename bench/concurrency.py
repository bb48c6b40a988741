"""Time to first frame under concurrency, and frames lost (SPEC §7; issue 16).

``--turns`` (default 100) turns are posted at once to a stack on loopback
(httpx async client, one connection per turn, bounded total time), twice in
one run: the chat server as one process on SQLite, then as two processes on one
port sharing a throwaway PostgreSQL cluster (``beacon up --workers 2 --db``).
For each turn the time from send to its first SSE frame is taken; the figures
are p50/p95 of those, the total wall time, and the frames lost: a turn whose
frames are not seq 1..n contiguous ending in exactly one terminal, or which did
not end in ``done`` (or did not finish in time), counts as lost — it must be 0.

    python -m bench.concurrency [--turns N] [--deadline S]
"""

from __future__ import annotations

import sys
from typing import Any

import httpx

from bench.common import (
    TurnRun,
    format_ms,
    frame_problem,
    percentile,
    post_at_once,
    post_turn,
    run_on_stack,
    turns_main,
)
from harness.stack import Stack

NAME = "concurrency"
DEFAULT_TURNS = 100
DEFAULT_DEADLINE_S = 45.0
QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "Photos of missing hard hats in Harbor Tower",
    "List all findings by Keystone Concrete in Harbor Tower",
)


def lost_turns(runs: list[TurnRun | None]) -> list[str]:
    """Why each lost turn is lost (None = it did not finish within the deadline)."""
    reasons = []
    for run in runs:
        if run is None:
            reasons.append("did not finish within the deadline")
            continue
        problem = run.failure or frame_problem(run.events)
        if problem is not None:
            reasons.append(problem)
    return reasons


async def measure(
    stack: Stack, token: str, *, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=turns + 10, max_keepalive_connections=turns + 10)
    async with httpx.AsyncClient(limits=limits) as http:
        # One warm turn so the first of the hundred does not pay for imports and pools.
        warm = await post_turn(http, stack.chat_url, token, QUESTIONS[0])
        if warm.failure or frame_problem(warm.events):
            raise RuntimeError(f"warm-up turn failed: {warm.failure or frame_problem(warm.events)}")
        runs, wall_s = await post_at_once(
            http, stack.chat_url, token, QUESTIONS, turns=turns, deadline_s=deadline_s
        )
    first = [r.first_frame_s for r in runs if r is not None and r.first_frame_s is not None]
    lost = lost_turns(runs)
    frames = sum(len(r.events) for r in runs if r is not None)
    return {
        "bench": NAME,
        "turns": turns,
        "deadline_s": deadline_s,
        "ttff_p50_s": percentile(first, 50) if first else float("nan"),
        "ttff_p95_s": percentile(first, 95) if first else float("nan"),
        "ttff_max_s": max(first) if first else float("nan"),
        "wall_s": wall_s,
        "frames_received": frames,
        "frames_lost": len(lost),
        "lost_reasons": sorted(set(lost))[:5],
        "ok": not lost,
    }


LAYOUTS = (
    ("sqlite_1", "1 process, SQLite"),
    ("postgres_2", "2 processes, PostgreSQL"),
)


def lines(figures: dict[str, Any]) -> list[str]:
    out = [f"concurrency: {figures['turns']} concurrent turns on loopback, side by side"]
    for key, label in LAYOUTS:
        one = figures.get(key)
        if one is None:
            continue
        out += [
            f"  {label}:",
            f"    time to first frame  p50 {format_ms(one['ttff_p50_s'])}"
            f"  p95 {format_ms(one['ttff_p95_s'])}  max {format_ms(one['ttff_max_s'])}",
            f"    total wall time      {one['wall_s']:.2f} s"
            f" ({one['frames_received']} frames received)",
            f"    frames lost          {one['frames_lost']} turns (must be 0)"
            + (f": {'; '.join(one['lost_reasons'])}" if one["lost_reasons"] else ""),
        ]
    return out


def run(*, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S) -> dict[str, Any]:
    from harness.postgres import throwaway_cluster

    single = run_on_stack(measure, turns=turns, deadline_s=deadline_s)
    with throwaway_cluster() as cluster:
        shared = run_on_stack(
            measure,
            turns=turns,
            deadline_s=deadline_s,
            workers=2,
            db=cluster.create_database("bench"),
        )
    return {
        "bench": NAME,
        "turns": turns,
        "sqlite_1": single,
        "postgres_2": shared,
        "ok": bool(single["ok"] and shared["ok"]),
    }


def main(argv: list[str] | None = None) -> int:
    return turns_main(
        "python -m bench.concurrency",
        run,
        lines,
        argv,
        turns=DEFAULT_TURNS,
        deadline_s=DEFAULT_DEADLINE_S,
    )


if __name__ == "__main__":
    sys.exit(main())
