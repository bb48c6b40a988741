"""Load: 200 concurrent turns mixed over the canonical questions, and what became of them.

Every turn is posted at once to one stack on loopback. The figures are what an
operator needs after a busy minute: turns done, turns ended in ``error`` by
their code (each code names the layer that failed), turns lost (no terminal,
or not exactly one, or frames not seq 1..n), and the chat server's resident
memory before and after. Goals: 0 lost, 0 stuck, 0 errors caused by Beacon.

    python -m bench.load [--turns N] [--deadline S]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from bench.common import TurnRun, post_at_once, post_turn, run_on_stack, turns_main
from harness.stack import Stack

NAME = "load"
DEFAULT_TURNS = 200
DEFAULT_DEADLINE_S = 120.0
QUESTIONS = (
    "How many open safety findings are on level 3 of Harbor Tower?",
    "Photos of missing hard hats in Harbor Tower",
    "List all panoramas in Harbor Tower",
    "List all findings by Keystone Concrete in Harbor Tower",
    "Which companies have open findings in Harbor Tower?",
    "How many panoramas are in Harbor Tower?",
)
TERMINALS = ("done", "error")


def outcome(run: TurnRun | None) -> str:
    """``done``, ``error:<code>`` or ``lost:<why>`` for one turn."""
    if run is None:
        return "lost:no terminal within the deadline"
    if run.failure is not None:
        return f"lost:{run.failure[:60]}"
    seqs = [int(e.id or 0) for e in run.events]
    if seqs != list(range(1, len(seqs) + 1)):
        return "lost:frames not seq 1..n"
    terminals = [e for e in run.events if e.event in TERMINALS]
    if len(terminals) != 1 or run.events[-1] is not terminals[0]:
        return f"lost:{len(terminals)} terminals"
    if terminals[0].event == "done":
        return "done"
    return f"error:{terminals[0].json().get('code', '?')}"


def rss_kib(pid: int | None) -> int | None:
    """Resident memory of a process (Linux /proc), or None when it cannot be read."""
    if pid is None:
        return None
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def chat_pid(stack: Stack) -> int | None:
    """The pid listening on the chat port (the stack starts it as a child process)."""
    port = int(stack.chat_url.rsplit(":", 1)[1])
    wanted = f":{port:04X}"
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            parts = row.split()
            if parts[1].endswith(wanted) and parts[3] == "0A":  # LISTEN
                inodes.add(parts[9])
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            links = {str(p.readlink()) for p in (proc / "fd").iterdir()}
        except OSError:
            continue
        if any(f"socket:[{inode}]" in links for inode in inodes):
            return int(proc.name)
    return None


async def measure(
    stack: Stack, token: str, *, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S
) -> dict[str, Any]:
    pid = chat_pid(stack)
    limits = httpx.Limits(max_connections=turns + 10, max_keepalive_connections=turns + 10)
    async with httpx.AsyncClient(limits=limits) as http:
        warm = await post_turn(http, stack.chat_url, token, QUESTIONS[0])
        if outcome(warm) != "done":
            raise RuntimeError(f"warm-up turn failed: {outcome(warm)}")
        rss_before = rss_kib(pid)
        runs, wall_s = await post_at_once(
            http,
            stack.chat_url,
            token,
            QUESTIONS,
            turns=turns,
            deadline_s=deadline_s,
            timeout_s=deadline_s,
        )
        rss_after = rss_kib(pid)
    outcomes = Counter(outcome(r) for r in runs)
    errors = {k.split(":", 1)[1]: n for k, n in outcomes.items() if k.startswith("error:")}
    lost = {k.split(":", 1)[1]: n for k, n in outcomes.items() if k.startswith("lost:")}
    return {
        "bench": NAME,
        "turns": turns,
        "deadline_s": deadline_s,
        "wall_s": wall_s,
        "done": outcomes.get("done", 0),
        "errors_by_code": errors,
        "lost": sum(lost.values()),
        "lost_reasons": lost,
        "rss_before_kib": rss_before,
        "rss_after_kib": rss_after,
        # A lost turn is a broken run; an error is a figure (its code says whose).
        "ok": not lost,
    }


def lines(figures: dict[str, Any]) -> list[str]:
    errors = figures["errors_by_code"]
    rss = (
        f"{figures['rss_before_kib'] / 1024:.0f} → {figures['rss_after_kib'] / 1024:.0f} MiB"
        if figures["rss_before_kib"] and figures["rss_after_kib"]
        else "not readable"
    )
    return [
        f"load: {figures['turns']} concurrent turns, {len(QUESTIONS)} questions mixed, one stack",
        f"  done {figures['done']}; error {sum(errors.values())}"
        + (f" ({', '.join(f'{k} {v}' for k, v in sorted(errors.items()))})" if errors else "")
        + f"; lost {figures['lost']} (must be 0)"
        + (f": {figures['lost_reasons']}" if figures["lost_reasons"] else ""),
        f"  wall time {figures['wall_s']:.1f} s; chat server RSS {rss}",
    ]


def run(*, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S) -> dict[str, Any]:
    return run_on_stack(measure, turns=turns, deadline_s=deadline_s)


def main(argv: list[str] | None = None) -> int:
    return turns_main(
        "python -m bench.load", run, lines, argv, turns=DEFAULT_TURNS, deadline_s=DEFAULT_DEADLINE_S
    )


if __name__ == "__main__":
    sys.exit(main())
