"""Concurrent turns on PostgreSQL with a restart in the middle (issue 27).

``--turns`` (default 300) turns are posted at once to a stack of two chat
processes on one throwaway PostgreSQL cluster (``beacon up --workers 2 --db``);
``--restart-after`` seconds later (default 1.0, while most are mid-flight) the
cluster is restarted with ``pg_ctl restart -m fast``. Every turn is then
classified from what its client received, and checked against the store:

* done — its frames are intact and end in ``done``;
* ended with a coded error — intact, one ``error`` terminal with a code;
* refused — not started: a coded 503 (store unavailable) or 429 before any frame;
* lost — cut without a terminal, not finished within the deadline, or not
  replayed byte for byte afterwards (must be 0);
* with ≠ 1 terminal (must be 0); still ``running`` in the store afterwards
  (must be 0).

    python -m bench.restart [--turns N] [--deadline S] [--restart-after S]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from beacon.wire.frames import TERMINAL_FRAMES
from bench.common import TurnRun, post_at_once, write_json
from harness.stack import Stack
from harness.verify.turns import frame_problem

NAME = "restart"
DEFAULT_TURNS = 300
DEFAULT_DEADLINE_S = 120.0
DEFAULT_RESTART_AFTER_S = 1.0
QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "Photos of missing hard hats in Harbor Tower",
    "List all panoramas in Harbor Tower",
)


def classify(run: TurnRun | None) -> str:
    """done | coded_error | refused | lost | terminals (≠ 1 terminal)."""
    if run is None:
        return "lost"
    if not run.events:
        return "refused" if run.status in (429, 503) else "lost"
    if sum(e.event in TERMINAL_FRAMES for e in run.events) > 1:
        return "terminals"
    if frame_problem(run.events) is not None:
        return "lost"
    if run.events[-1].event == "done":
        return "done"
    return "coded_error" if run.events[-1].json().get("code") else "lost"


async def _replays_agree(
    http: httpx.AsyncClient, stack: Stack, tokens: list[str], runs: list[TurnRun | None]
) -> int:
    """How many finished turns do not replay byte for byte what their client got."""
    disagree = 0
    for n, run in enumerate(runs):
        if run is None or run.turn_id is None or classify(run) not in ("done", "coded_error"):
            continue
        reply = await http.get(
            f"{stack.chat_url}/v1/turns/{run.turn_id}/events",
            headers={"Authorization": f"Bearer {tokens[n % len(tokens)]}"},
            timeout=60,
        )
        replayed = [(e.event, e.data) for e in _events(reply.text)]
        if reply.status_code != 200 or replayed != [(e.event, e.data) for e in run.events]:
            disagree += 1
    return disagree


def _events(text: str) -> list[Any]:
    from beacon.wire.sse import parse_sse

    return list(parse_sse(text.split("\n")))


async def measure(
    stack: Stack, directory: Path, *, turns: int, deadline_s: float, restart_after_s: float
) -> dict[str, Any]:
    from harness.postgres import restart

    # Two users, so one user's burst limit is not what is measured.
    tokens = [stack.token(sub="restart-a"), stack.token(sub="restart-b")]
    limits = httpx.Limits(max_connections=turns + 10, max_keepalive_connections=turns + 10)
    async with httpx.AsyncClient(limits=limits) as http:
        posting = [
            asyncio.create_task(
                post_at_once(
                    http,
                    stack.chat_url,
                    token,
                    QUESTIONS,
                    turns=turns // 2 + (turns % 2 if i == 0 else 0),
                    deadline_s=deadline_s,
                )
            )
            for i, token in enumerate(tokens)
        ]
        await asyncio.sleep(restart_after_s)
        began = time.perf_counter()
        await asyncio.to_thread(restart, directory)
        restart_s = time.perf_counter() - began
        results = await asyncio.gather(*posting)
        # Each token's runs, interleaved back so run n used tokens[n % 2].
        runs: list[TurnRun | None] = [
            results[n % 2][0][n // 2] for n in range(sum(len(r[0]) for r in results))
        ]
        disagree = await _replays_agree(http, stack, tokens, runs)
    kinds = [classify(run) for run in runs]
    return {
        "turns": turns,
        "restart_s": restart_s,
        "done": kinds.count("done"),
        "coded_error": kinds.count("coded_error"),
        "refused": kinds.count("refused"),
        "lost": kinds.count("lost") + disagree,
        "not_one_terminal": kinds.count("terminals"),
        "replays_disagree": disagree,
        "codes": sorted(
            {
                str(run.events[-1].json().get("code"))
                for run, kind in zip(runs, kinds, strict=True)
                if kind == "coded_error" and run is not None
            }
        ),
    }


def _still_running(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM turns WHERE status = 'running'").fetchone()
    return int(row[0]) if row else -1


def run(
    *,
    turns: int = DEFAULT_TURNS,
    deadline_s: float = DEFAULT_DEADLINE_S,
    restart_after_s: float = DEFAULT_RESTART_AFTER_S,
) -> dict[str, Any]:
    from harness.postgres import throwaway_cluster
    from harness.stack import running_stack

    with throwaway_cluster() as cluster:
        db = cluster.create_database("restart")
        with running_stack(workers=2, db=db) as stack:
            figures = asyncio.run(
                measure(
                    stack,
                    cluster.directory,
                    turns=turns,
                    deadline_s=deadline_s,
                    restart_after_s=restart_after_s,
                )
            )
        figures["still_running"] = _still_running(db)
    figures["bench"] = NAME
    figures["ok"] = (
        figures["lost"] == 0 and figures["not_one_terminal"] == 0 and figures["still_running"] == 0
    )
    return figures


def lines(figures: dict[str, Any]) -> list[str]:
    return [
        f"restart: {figures['turns']} concurrent turns on 2 processes, PostgreSQL restarted "
        f"mid-flight ({figures['restart_s']:.1f} s to restart)",
        f"  done {figures['done']}, ended with a coded error {figures['coded_error']}"
        + (f" ({', '.join(figures['codes'])})" if figures["codes"] else "")
        + f", refused before starting {figures['refused']}",
        f"  lost {figures['lost']} (must be 0; replays that disagree "
        f"{figures['replays_disagree']}), with ≠ 1 terminal {figures['not_one_terminal']} "
        f"(must be 0), still running in the store {figures['still_running']} (must be 0)",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.restart")
    parser.add_argument("--turns", type=int, default=DEFAULT_TURNS)
    parser.add_argument("--deadline", type=float, default=DEFAULT_DEADLINE_S)
    parser.add_argument("--restart-after", type=float, default=DEFAULT_RESTART_AFTER_S)
    parser.add_argument("--json-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    figures = run(turns=args.turns, deadline_s=args.deadline, restart_after_s=args.restart_after)
    print("\n".join(lines(figures)))
    if args.json_dir is not None:
        write_json(args.json_dir, NAME, figures)
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
