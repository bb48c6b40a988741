"""Time to first frame under concurrency, as a ratio to the floor, and frames lost
(SPEC §7; issues 16 and 32).

``--turns`` (default 100) turns are posted at once to a stack on loopback
(httpx async client, one connection and one user per turn, bounded total time), in three
layouts in one run: the chat server as one process on SQLite, then as two and
as four processes on one port sharing a throwaway PostgreSQL cluster
(``beacon up --workers N --db``). Beside each, the floor (bench/floor.py: a
minimal SSE app on the same server stack and worker count) takes the same
hundred requests, in ``ROUNDS`` rounds alternating with the turns' (floor first in
one round, the turns first in the next): every latency is also given as a ratio to
the floor of its own round, and a layout's figure is the median round's (a p95 of a
hundred is its five slowest; one burst's moved it 0.8–2.9× from run to run). For each turn
the time from send to its first SSE frame is taken; the figures are p50/p95 of
those, the total wall time, and the frames lost: a turn whose frames are not seq
1..n contiguous ending in exactly one terminal, or which did not end in ``done``
(or did not finish in time), counts as lost — it must be 0.

Where the time goes, per phase (p50/p95 ms): ``queue`` (sent → the server's
route began, less its own phases: the connection and event loop's wait),
the server's ``edge``, ``session``, ``quota`` and ``start`` (its Server-Timing
header), and ``publish`` (headers → the first frame: the start frame's durable
commit). Then admission control's two sides: 1.5× the process's turn limit at
once on one process — the admitted turns' first frame, and how fast the rest
were answered 503 busy.

    python -m bench.concurrency [--turns N] [--deadline S]
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path
from typing import Any

import httpx

from bench.common import (
    TurnRun,
    format_ms,
    format_ratio,
    percentile,
    post_at_once,
    run_on_stack,
    turns_main,
)
from bench.floor import ROUNDS, over_rounds, running_floor
from bench.floor import measure as measure_floor
from harness.stack import Stack, running_stack

NAME = "concurrency"
DEFAULT_TURNS = 100
DEFAULT_DEADLINE_S = 45.0
QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "Photos of missing hard hats in Harbor Tower",
    "List all findings by Keystone Concrete in Harbor Tower",
)


PHASES = ("queue", "edge", "session", "quota", "start", "publish")
# Admission control's other side: this many times the process's turn limit at once.
PAST_LIMIT_FACTOR = 1.5
DEFAULT_MAX_TURNS = 100  # beacon serve's BEACON_MAX_TURNS when it is not set


def lost_turns(runs: list[TurnRun | None]) -> list[str]:
    """Why each lost turn is lost (None = it did not finish within the deadline)."""
    reasons = []
    for run in runs:
        if run is None:
            reasons.append("did not finish within the deadline")
            continue
        problem = run.problem
        if problem is not None:
            reasons.append(problem)
    return reasons


def phase_ms(run: TurnRun) -> dict[str, float]:
    """One admitted turn's time by phase (ms): the server's own, the wait before them
    and the commit after them."""
    if run.headers_s is None or run.first_frame_s is None:
        return {}
    server = {k: v for k, v in run.server_ms.items() if k in PHASES}
    queue = max(0.0, run.headers_s * 1000 - sum(server.values()))
    return {"queue": queue, **server, "publish": (run.first_frame_s - run.headers_s) * 1000}


def phase_figures(runs: list[TurnRun | None]) -> dict[str, dict[str, float]]:
    by_phase: dict[str, list[float]] = {name: [] for name in PHASES}
    for run in runs:
        if run is None:
            continue
        for name, ms in phase_ms(run).items():
            by_phase[name].append(ms)
    return {
        name: {"p50_ms": percentile(values, 50), "p95_ms": percentile(values, 95)}
        for name, values in by_phase.items()
        if values
    }


async def _posted(
    stack: Stack, *, turns: int, deadline_s: float, pids: tuple[int, ...] = ()
) -> tuple[list[TurnRun | None], float, float]:
    """The runs of ``turns`` turns at once after the warm-up, their wall time, and the
    CPU seconds ``pids`` spent on them (the warm-up's not counted)."""
    limits = httpx.Limits(max_connections=turns + 10, max_keepalive_connections=turns + 10)
    async with httpx.AsyncClient(limits=limits) as http:
        # The served state, not a start: a process's first turn of each question pays
        # for pools and first uses no later turn does, and one warm turn reached one
        # process of several (the other three of four met theirs inside the hundred).
        # WARM_TURNS at once, the questions rotating, spread over every process.
        warm_users = [stack.token(sub=f"bench-warm-{i:02d}") for i in range(WARM_TURNS)]
        warm, _ = await post_at_once(
            http, stack.chat_url, warm_users, QUESTIONS, turns=WARM_TURNS, deadline_s=deadline_s
        )
        lost = lost_turns(warm)
        if lost:
            raise RuntimeError(f"warm-up turns failed: {sorted(set(lost))}")
        # A hundred people asking at once, a turn each: one user's hundred turns would
        # queue on that user's rate-limit bucket (one row, locked per take, on
        # PostgreSQL), which is the limit doing its job, not the time to a first frame.
        users = [stack.token(sub=f"bench-user-{i:03d}") for i in range(turns)]
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        runs, wall_s = await post_at_once(
            http, stack.chat_url, users, QUESTIONS, turns=turns, deadline_s=deadline_s
        )
        return runs, wall_s, sum(cpu_seconds(pid) for pid in pids) - cpu_before


async def measure(
    stack: Stack, token: str, *, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S
) -> dict[str, Any]:
    pids = tuple(chat_pids(stack))
    runs, wall_s, cpu_s = await _posted(stack, turns=turns, deadline_s=deadline_s, pids=pids)
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
        "phases": phase_figures(runs),
        # The chat server's own CPU (every process of it) per turn: what one core carries.
        "chat_cpu_ms_per_turn": cpu_s * 1000 / turns if turns else float("nan"),
        "wall_s": wall_s,
        "frames_received": frames,
        "frames_lost": len(lost),
        "lost_reasons": sorted(set(lost))[:5],
        "ok": not lost,
    }


async def measure_past_limit(
    stack: Stack, token: str, *, turns: int, deadline_s: float
) -> dict[str, Any]:
    """More turns at once than one process admits: who ran, who was shed, how fast."""
    runs, wall_s, _ = await _posted(stack, turns=turns, deadline_s=deadline_s)
    admitted = [r for r in runs if r is not None and r.status == 200]
    shed = [r for r in runs if r is not None and r.status == 503]
    other = [r for r in runs if r is None or r.status not in (200, 503)]
    lost = lost_turns(list(admitted))
    first = [r.first_frame_s for r in admitted if r.first_frame_s is not None]
    answered = [r.total_s for r in shed]
    return {
        "turns": turns,
        "admitted": len(admitted),
        "shed_503": len(shed),
        "other": len(other),
        "admitted_ttff_p95_s": percentile(first, 95) if first else float("nan"),
        "shed_answer_p95_s": percentile(answered, 95) if answered else float("nan"),
        "wall_s": wall_s,
        "frames_lost": len(lost),
        "ok": not lost and not other,
    }


def chat_pids(stack: Stack) -> list[int]:
    """Every process of the chat server: the one listening on its port and, with
    several workers, that supervisor's children."""
    from bench.load import chat_pid

    first = chat_pid(stack)
    if first is None:
        return []
    found = {first}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == first:
            found.add(int(proc.name))
    return sorted(found)


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used (Linux /proc), 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_connections(url: str, stop: threading.Event, seen: list[int]) -> None:
    """Poll PostgreSQL for the connections to one database until ``stop``; the most
    seen at once goes into ``seen``."""
    import psycopg

    most = 0
    with psycopg.connect(url, autocommit=True) as conn:
        while not stop.wait(0.2):
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()"
            ).fetchone()
            most = max(most, int(row[0]) if row else 0)
    seen.append(most)


# Warm-up turns before each hundred: P(a process of four gets none of 16) = (3/4)^16, 1 %.
WARM_TURNS = 16
# (key, label, chat processes, PostgreSQL)
LAYOUTS = (
    ("sqlite_1", "1 process, SQLite", 1, False),
    ("postgres_2", "2 processes, PostgreSQL", 2, True),
    ("postgres_4", "4 processes, PostgreSQL", 4, True),
)


async def alternating(
    stack: Stack, floor_origin: str, *, turns: int, deadline_s: float, rounds: int = ROUNDS
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``rounds`` bursts on the stack and on the floor, in turn (the floor first in
    even rounds, the turns first in odd ones), so the machine's drift weighs both."""
    ones: list[dict[str, Any]] = []
    floors: list[dict[str, Any]] = []
    for index in range(rounds):
        for side in ("floor", "turns") if index % 2 == 0 else ("turns", "floor"):
            if side == "floor":
                floors.append(await measure_floor(floor_origin, turns=turns, deadline_s=deadline_s))
            else:
                ones.append(await measure(stack, stack.token(), turns=turns, deadline_s=deadline_s))
    return ones, floors


def lines(figures: dict[str, Any]) -> list[str]:
    out = [f"concurrency: {figures['turns']} concurrent turns on loopback, side by side"]
    for key, label, _, _ in LAYOUTS:
        one = figures.get(key)
        if one is None:
            continue
        floor = one["floor"]
        out += [
            f"  {label} (load average before {one.get('load_before', '?')}):",
            f"    time to first frame  p50 {format_ms(one['ttff_p50_s'])}"
            f"  p95 {format_ms(one['ttff_p95_s'])}  max {format_ms(one['ttff_max_s'])}",
            f"    floor                p50 {format_ms(floor['ttff_p50_s'])}"
            f"  p95 {format_ms(floor['ttff_p95_s'])}",
            f"    ratio to the floor   p50 {format_ratio(one['ttff_p50_ratio'])}"
            f"  p95 {format_ratio(one['ttff_p95_ratio'])} (goal p95 ≤ 2×)"
            + (
                f"; the median of {one['rounds']} rounds, p95 by round "
                + " ".join(format_ratio(r) for r in one["ttff_p95_ratio_by_round"])
                if one.get("rounds")
                else ""
            ),
            "    phases (p50/p95 ms)  "
            + "  ".join(
                f"{name} {v['p50_ms']:.1f}/{v['p95_ms']:.1f}" for name, v in one["phases"].items()
            ),
            f"    total wall time      {one['wall_s']:.2f} s"
            f" ({one['frames_received']} frames received;"
            f" {one['turns'] / one['wall_s']:.1f} turns/s)",
            f"    chat server CPU      {one['chat_cpu_ms_per_turn']:.1f} ms per turn"
            + (
                f"; PostgreSQL connections at most {one['postgres_connections_peak']}"
                if one.get("postgres_connections_peak") is not None
                else ""
            ),
            f"    frames lost          {one['frames_lost']} turns (must be 0)"
            + (f": {'; '.join(one['lost_reasons'])}" if one["lost_reasons"] else ""),
        ]
    past = figures.get("past_limit")
    if past is not None:
        out += [
            f"  admission control, 1 process, {past['turns']} at once"
            f" (limit {DEFAULT_MAX_TURNS}): {past['admitted']} admitted,"
            f" first frame p95 {format_ms(past['admitted_ttff_p95_s'])};"
            f" {past['shed_503']} answered 503 busy, p95 {format_ms(past['shed_answer_p95_s'])};"
            f" {past['frames_lost']} lost",
        ]
    return out


def run(*, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S) -> dict[str, Any]:
    from harness.postgres import throwaway_cluster

    figures: dict[str, Any] = {"bench": NAME, "turns": turns, "rounds": ROUNDS}
    with throwaway_cluster() as cluster:
        for key, _, workers, shared in LAYOUTS:
            load = round(os.getloadavg()[0], 2)
            db = cluster.create_database(f"bench_{key}") if shared else None
            stop, seen = threading.Event(), list[int]()
            poller = (
                threading.Thread(target=peak_connections, args=(db, stop, seen), daemon=True)
                if db
                else None
            )
            if poller is not None:
                poller.start()
            try:
                with (
                    running_floor(workers) as origin,
                    running_stack(workers=workers, db=db) as stack,
                ):
                    ones, floors = asyncio.run(
                        alternating(stack, origin, turns=turns, deadline_s=deadline_s)
                    )
            finally:
                stop.set()
                if poller is not None:
                    poller.join(10)
            figures[key] = {
                **over_rounds(ones, [{"workers": workers, **f} for f in floors]),
                "load_before": load,
                "postgres_connections_peak": seen[0] if seen else None,
            }
    figures["past_limit"] = run_on_stack(
        measure_past_limit,
        turns=int(DEFAULT_MAX_TURNS * PAST_LIMIT_FACTOR),
        deadline_s=deadline_s,
    )
    figures["ok"] = all(figures[key]["ok"] for key, *_ in LAYOUTS) and figures["past_limit"]["ok"]
    return figures


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
