"""Load: 200 concurrent turns mixed over the canonical questions, and what became of them;
and the connection limits under a slowloris and a burst of near-cap heads.

Every turn is posted at once to one stack on loopback. The figures are what an
operator needs after a busy minute: turns done, turns ended in ``error`` by
their code (each code names the layer that failed), turns lost (no terminal,
or not exactly one, or frames not seq 1..n), and the chat server's resident
memory before and after. Goals: 0 lost, 0 stuck, 0 errors caused by Beacon.

Before the turns, on the same fresh chat server (its default limits): the fds it
holds for 500 slow request heads and for more heads than its connection cap, how
long ``/healthz`` takes to answer meanwhile, and its resident memory before, at
the peak of and after rounds of connections each holding a head just under the
header cap (``beacon/server/limits.py``).

    python -m bench.load [--turns N] [--deadline S]
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from beacon.server.limits import DEFAULT_MAX_CONNECTIONS
from bench.common import TurnRun, post_at_once, post_turn, run_on_stack, turns_main
from harness.stack import Stack
from harness.verify.turns import frame_problem

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
SLOWLORIS = 500
# More heads than the cap (the stack's chat server runs with the default one).
PAST_CAP = DEFAULT_MAX_CONNECTIONS + 200
NEAR_CAP_ROUNDS = 3
NEAR_CAP_HEADS = 900  # a round of connections, under the cap so that all are held
HEADER_CAP = 32 * 1024  # the stack's: BEACON_MAX_HEADER_BYTES is not set
SETTLE_S = 10.0  # the most a poll waits for the server to take or drop connections
HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: beacon\r\n"
DEFAULT_MAX_TURNS = 100  # beacon serve's BEACON_MAX_TURNS when it is not set


def outcome(run: TurnRun | None) -> str:
    """``done``, ``error:<code>``, ``refused`` (a 503 before any frame: admission control
    past ``BEACON_MAX_TURNS``, a figure like an error) or ``lost:<why>`` for one turn."""
    if run is None:
        return "lost:no terminal within the deadline"
    if run.status == 503 and not run.events:
        return "refused"
    if run.failure is not None:
        return f"lost:{run.failure[:60]}"
    if (problem := frame_problem(run.events)) is not None:
        return f"lost:{problem[:60]}"
    if run.events[-1].event == "done":
        return "done"
    return f"error:{run.events[-1].json().get('code', '?')}"


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
    return listening_pid(stack.chat_url)


def listening_pid(origin: str) -> int | None:
    """The pid listening on ``origin``'s port on this machine (Linux /proc)."""
    port = int(origin.rstrip("/").rsplit(":", 1)[1])
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
    sockets = {f"socket:[{inode}]" for inode in inodes}
    for proc in Path("/proc").iterdir():
        if sockets and proc.name.isdigit() and sockets & _links(proc / "fd"):
            return int(proc.name)
    return None


def _links(fds: Path) -> set[str]:
    """What a process's descriptors point at; one closed while it is read is skipped
    (the directory's own descriptor, when the process is this one)."""
    found: set[str] = set()
    try:
        entries = list(fds.iterdir())
    except OSError:
        return found
    for fd in entries:
        with contextlib.suppress(OSError):
            found.add(str(fd.readlink()))
    return found


def fd_count(pid: int | None) -> int | None:
    """Open file descriptors of a process (Linux /proc), or None."""
    if pid is None:
        return None
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def settle(read: Callable[[], int | None], done: Callable[[int], bool]) -> int | None:
    """Poll ``read`` until ``done`` says so, for at most ``SETTLE_S``; its last value."""
    deadline = time.monotonic() + SETTLE_S
    value = read()
    while value is not None and not done(value) and time.monotonic() < deadline:
        time.sleep(0.05)
        value = read()
    return value


def open_heads(address: tuple[str, int], count: int, head: bytes) -> list[socket.socket]:
    """``count`` connections, each having sent ``head`` and nothing more."""
    held: list[socket.socket] = []
    for _ in range(count):
        sock = socket.create_connection(address, timeout=SETTLE_S)
        sock.sendall(head)
        held.append(sock)
    return held


def close_all(socks: list[socket.socket]) -> None:
    for sock in socks:
        sock.close()


def healthz_s(origin: str) -> float:
    started = time.perf_counter()
    httpx.get(f"{origin}/healthz", timeout=SETTLE_S).raise_for_status()
    return time.perf_counter() - started


def answered_503(socks: list[socket.socket]) -> int:
    """How many of ``socks`` have been answered 503 within a second (a shed
    connection is answered at once; a held one is not answered at all)."""
    with selectors.DefaultSelector() as selector:  # epoll: select() stops at fd 1024
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ, sock)
        ready: list[socket.socket] = [key.data for key, _ in selector.select(timeout=1.0)]
    count = 0
    for sock in ready:
        sock.settimeout(0.2)
        with contextlib.suppress(OSError):
            count += sock.recv(64).startswith(b"HTTP/1.1 503 ")
    return count


def edge_figures(stack: Stack) -> dict[str, Any]:
    """The chat server's fds and /healthz under slow heads, and its RSS around
    rounds of near-cap heads (sync: sockets and /proc, nothing else running)."""
    pid = chat_pid(stack)
    host, port = stack.chat_url.removeprefix("http://").rsplit(":", 1)
    address = (host, int(port))
    base_fds = fd_count(pid)
    figures: dict[str, Any] = {"fds_base": base_fds, "healthz_idle_s": healthz_s(stack.chat_url)}

    held = open_heads(address, SLOWLORIS, HALF_HEAD)
    figures["fds_slowloris"] = settle(
        lambda: fd_count(pid), lambda n: n >= (base_fds or 0) + SLOWLORIS
    )
    figures["healthz_slowloris_s"] = healthz_s(stack.chat_url)
    more = open_heads(address, PAST_CAP - SLOWLORIS, HALF_HEAD)
    figures["fds_past_cap"] = fd_count(pid)
    past_cap = httpx.get(f"{stack.chat_url}/healthz", timeout=SETTLE_S)
    figures["healthz_past_cap_status"] = past_cap.status_code
    figures["shed_503"] = answered_503(more)
    close_all(held + more)
    figures["fds_after"] = settle(lambda: fd_count(pid), lambda n: n <= (base_fds or 0) + 2)

    near_cap = HEADER_CAP - 1024
    head = HALF_HEAD + b"X-Pad: " + b"p" * (near_cap - len(HALF_HEAD) - 9)
    figures["near_cap_head_bytes"] = len(head)
    figures["rss_before_heads_kib"] = rss_kib(pid)
    peak = 0
    for _ in range(NEAR_CAP_ROUNDS):
        held = open_heads(address, NEAR_CAP_HEADS, head)
        settle(lambda: fd_count(pid), lambda n: n >= (base_fds or 0) + NEAR_CAP_HEADS)
        peak = max(peak, rss_kib(pid) or 0)
        close_all(held)
        settle(lambda: fd_count(pid), lambda n: n <= (base_fds or 0) + 2)
    figures["rss_peak_heads_kib"] = peak
    time.sleep(0.5)  # the trim runs as the last of a round closes
    figures["rss_after_heads_kib"] = rss_kib(pid)
    return figures


async def measure(
    stack: Stack, token: str, *, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S
) -> dict[str, Any]:
    edge = await asyncio.to_thread(edge_figures, stack)
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
        "refused_503": outcomes.get("refused", 0),
        "errors_by_code": errors,
        "lost": sum(lost.values()),
        "lost_reasons": lost,
        "rss_before_kib": rss_before,
        "rss_after_kib": rss_after,
        "edge": edge,
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
        + f"; refused 503 before starting {figures.get('refused_503', 0)}"
        + f" (past the process's {DEFAULT_MAX_TURNS} turns: admission control)"
        + f"; lost {figures['lost']} (must be 0)"
        + (f": {figures['lost_reasons']}" if figures["lost_reasons"] else ""),
        f"  wall time {figures['wall_s']:.1f} s; chat server RSS {rss}",
        *edge_lines(figures["edge"]),
    ]


def edge_lines(edge: dict[str, Any]) -> list[str]:
    def mib(key: str) -> str:
        return f"{edge[key] / 1024:.0f}" if edge.get(key) else "?"

    return [
        f"  edge: fds {edge['fds_base']} idle, {edge['fds_slowloris']} with {SLOWLORIS} slow heads,"
        f" {edge['fds_past_cap']} with {PAST_CAP} (cap {DEFAULT_MAX_CONNECTIONS}),"
        f" {edge['fds_after']} after they closed; {edge['shed_503']} shed with a 503",
        f"  edge: /healthz {edge['healthz_idle_s'] * 1000:.0f} ms idle,"
        f" {edge['healthz_slowloris_s'] * 1000:.0f} ms under {SLOWLORIS} slow heads,"
        f" {edge['healthz_past_cap_status']} past the cap",
        f"  edge: RSS {mib('rss_before_heads_kib')} → {mib('rss_peak_heads_kib')} (peak) →"
        f" {mib('rss_after_heads_kib')} MiB around {NEAR_CAP_ROUNDS}×{NEAR_CAP_HEADS} heads"
        f" of {edge['near_cap_head_bytes']} bytes",
    ]


def run(*, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S) -> dict[str, Any]:
    return run_on_stack(measure, turns=turns, deadline_s=deadline_s)


def main(argv: list[str] | None = None) -> int:
    return turns_main(
        "python -m bench.load", run, lines, argv, turns=DEFAULT_TURNS, deadline_s=DEFAULT_DEADLINE_S
    )


if __name__ == "__main__":
    sys.exit(main())
