"""What each part of a turn costs: a whole chat server against one without the part
(issue 32, turn overhead).

Two chat servers run side by side on one stack with the same settings: one whole,
one with a part switched off by a probe loaded into it alone
(``bench/without/sitecustomize.py``, through ``PYTHONPATH``). The same questions
go to both, turn by turn in alternating order, so the machine's drift (its speed
moved by a fifth within an hour on these machines) weighs both alike. Reported per
part: each server's CPU per turn (user + system, from ``/proc``: far steadier than
wall time), the share of the whole server's CPU the part takes, and each question's
median time on both. The parts are the ones the overhead goal names besides
Beacon's work itself: durable publication (``store``: no frame, answer or audit
row written), the narration guard (``guard``: every sentence publishable) and
``telemetry`` (no Prometheus series, no spans).

The two servers differ in their process too (where the scheduler put them), so the
same server twice (``--parts none``) gives the measure's own spread: a part whose
share is inside it costs nothing this bench can see.

    python -m bench.breakdown [--turns N] [--parts store,guard,telemetry]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from bench.common import median, post_turn
from bench.concurrency import cpu_seconds
from bench.turn_overhead import QUESTIONS, USERS
from harness.chat_process import chat_env, server_process
from harness.stack import Stack, beacon_executable, running_stack

NAME = "breakdown"
DEFAULT_TURNS = 40  # per question and server
PARTS = ("store", "guard", "telemetry")
SAME = "none"  # the same whole server twice: the measure's own spread
WITHOUT = Path(__file__).with_name("without")
# Both servers may take every turn the bench sends (its users' and the process's
# limits are the product's, not this measure's).
UNLIMITED = {
    "BEACON_RATE_TURNS_PER_MINUTE": "100000",
    "BEACON_RATE_TURNS_BURST": "100000",
    "BEACON_RATE_PROCESS_TURNS_PER_MINUTE": "1000000",
    "BEACON_RATE_PROCESS_TURNS_BURST": "1000000",
}
WARM_TURNS = 2  # per question and server, before measuring


def share(whole_ms: float, without_ms: float) -> float:
    """The part's share of the whole server's CPU per turn."""
    return (whole_ms - without_ms) / whole_ms if whole_ms > 0 else float("nan")


def summarize(
    part: str,
    cpu_ms: dict[str, float],
    times_ms: dict[str, dict[str, list[float]]],
) -> dict[str, Any]:
    """One part's figures from both servers' CPU per turn and each question's turn times."""
    return {
        "part": part,
        "whole_cpu_ms_per_turn": cpu_ms["whole"],
        "without_cpu_ms_per_turn": cpu_ms["without"],
        "cpu_share": share(cpu_ms["whole"], cpu_ms["without"]),
        "per_question": {
            question: {
                "whole_median_ms": median(sides["whole"]),
                "without_median_ms": median(sides["without"]),
                "time_share": share(median(sides["whole"]), median(sides["without"])),
            }
            for question, sides in times_ms.items()
            if sides["whole"] and sides["without"]
        },
    }


def server_env(stack: Stack, data: Path, without: str | None) -> dict[str, str]:
    """A chat server's settings: the same for both, the switch loaded into one only."""
    env = chat_env(stack, data, **UNLIMITED)
    if without is not None and without != SAME:
        env |= {"PYTHONPATH": str(WITHOUT), "BEACON_BENCH_WITHOUT": without}
    return env


@contextlib.contextmanager
def _server(stack: Stack, data: Path, without: str | None) -> Iterator[tuple[str, int]]:
    data.mkdir()
    with server_process([beacon_executable(), "serve"], server_env(stack, data, without)) as (
        url,
        proc,
    ):
        yield url, proc.pid


async def _interleaved(
    stack: Stack, urls: dict[str, str], pids: dict[str, int], turns: int, warm: int
) -> tuple[dict[str, float], dict[str, dict[str, list[float]]], list[str]]:
    tokens = [stack.token(sub=f"bench-breakdown-{i}") for i in range(USERS)]
    times: dict[str, dict[str, list[float]]] = {q: {"whole": [], "without": []} for q in QUESTIONS}
    failed: list[str] = []
    limits = httpx.Limits(max_connections=20, max_keepalive_connections=20)
    async with httpx.AsyncClient(limits=limits) as http:
        for question in QUESTIONS:
            for url in urls.values():
                for _ in range(warm):
                    await post_turn(http, url, tokens[0], question)
        before = {side: cpu_seconds(pid) for side, pid in pids.items()}
        for index in range(turns * len(QUESTIONS)):
            question = QUESTIONS[index % len(QUESTIONS)]
            # Each question's turns alternate which server goes first.
            first = (index // len(QUESTIONS)) % 2 == 0
            sides = ("whole", "without") if first else ("without", "whole")
            for side in sides:
                run = await post_turn(http, urls[side], tokens[index % USERS], question)
                problem = run.problem
                if problem is not None:
                    failed.append(f"{side}: {problem}")
                else:
                    times[question][side].append(run.total_s * 1000)
        made = turns * len(QUESTIONS)
        cpu = {side: (cpu_seconds(pid) - before[side]) * 1000 / made for side, pid in pids.items()}
    return cpu, times, failed


def measure(
    stack: Stack, parts: Sequence[str], turns: int, *, warm: int = WARM_TURNS
) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as directory:
        for part in parts:
            # Both fresh for each part: a server's store grows with its turns.
            with (
                _server(stack, Path(directory) / f"whole-{part}", None) as (whole_url, whole_pid),
                _server(stack, Path(directory) / part, part) as (url, pid),
            ):
                urls = {"whole": whole_url, "without": url}
                pids = {"whole": whole_pid, "without": pid}
                cpu, times, problems = asyncio.run(_interleaved(stack, urls, pids, turns, warm))
            rows.append(summarize(part, cpu, times))
            failed.extend(problems)
    return {
        "bench": NAME,
        "turns_per_question": turns,
        "parts": rows,
        "failed_turns": len(failed),
        "failures": failed[:5],
        "ok": not failed,
    }


def run(*, turns: int = DEFAULT_TURNS, parts: Sequence[str] = (SAME, *PARTS)) -> dict[str, Any]:
    with running_stack() as stack:
        return measure(stack, parts, turns)


def lines(figures: dict[str, Any]) -> list[str]:
    out = [
        f"breakdown: a whole chat server against one without each part,"
        f" {figures['turns_per_question']} turns per question on each, interleaved"
    ]
    for row in figures["parts"]:
        name = "(same server)" if row["part"] == SAME else f"without {row['part']}"
        out.append(
            f"  {name:<18} CPU per turn {row['whole_cpu_ms_per_turn']:.1f} ->"
            f" {row['without_cpu_ms_per_turn']:.1f} ms: {row['cpu_share'] * 100:+.1f} % of the"
            " whole server's"
        )
        for question, q in row["per_question"].items():
            out.append(
                f"      {q['whole_median_ms']:6.1f} -> {q['without_median_ms']:6.1f} ms"
                f" ({q['time_share'] * 100:+5.1f} %)  {question}"
            )
    out.append(f"  failed turns {figures['failed_turns']}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.breakdown")
    parser.add_argument("--turns", type=int, default=DEFAULT_TURNS)
    parser.add_argument(
        "--parts", default=",".join((SAME, *PARTS)), help=f"of {SAME}, {', '.join(PARTS)}"
    )
    args = parser.parse_args(argv)
    parts = [p for p in args.parts.split(",") if p]
    unknown = set(parts) - {SAME, *PARTS}
    if unknown:
        parser.error(f"no part named {', '.join(sorted(unknown))}")
    figures = run(turns=args.turns, parts=parts)
    print("\n".join(lines(figures)))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
