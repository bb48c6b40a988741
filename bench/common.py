"""What every bench shares: statistics, byte counting, one turn over SSE, the stubs' logs.

The pure parts (percentiles, ratios, byte counts, whether a turn counts) are tested in
``suites/unit/test_bench_common.py``; the rest talks HTTP to a running stack.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from beacon.server.timing import parse_server_timing
from beacon.wire.sse import SseEvent, parse_sse
from harness.verify.turns import frame_problem as verify_frame_problem

TURN_TIMEOUT_S = 60.0


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), linear between closest ranks (numpy's default)."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"percentile must be within 0..100, got {q}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float:
    return percentile(values, 50.0)


def ratio(numerator: float, denominator: float) -> float:
    if denominator <= 0:
        raise ValueError("a ratio needs a positive denominator")
    return numerator / denominator


def format_ratio(value: float) -> str:
    """``1.0731`` → ``1.07×``; large ratios keep fewer decimals (``187×``)."""
    if value >= 100:
        return f"{value:.0f}×"
    if value >= 10:
        return f"{value:.1f}×"
    return f"{value:.2f}×"


def format_ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def origin(url: str) -> str:
    """``http://127.0.0.1:5/v1`` → ``http://127.0.0.1:5`` (the stubs' /dev routes live there)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def frame_problem(events: Sequence[SseEvent]) -> str | None:
    """Why a bench turn does not count, or None: its frames break the frame protocol (verify's
    own rules, ``harness.verify.turns.frame_problem``), or it ended in ``error``, not ``done``."""
    problem = verify_frame_problem(events)
    if problem is None and events[-1].event != "done":
        problem = f"ended in {events[-1].event!r}: {events[-1].data[:200]}"
    return problem


@dataclass(frozen=False, slots=True)  # filled in as the stream is read
class TurnRun:
    """One turn as a client saw it: frames, and when they arrived (seconds from send)."""

    events: list[SseEvent] = field(default_factory=list)
    first_frame_s: float | None = None
    headers_s: float | None = None  # when the response's headers arrived
    # The server's own phases before its stream opened (Server-Timing), in ms.
    server_ms: dict[str, float] = field(default_factory=dict)
    total_s: float = 0.0
    status: int = 0
    failure: str | None = None

    @property
    def turn_id(self) -> str | None:
        for event in self.events:
            if event.event == "start":
                value = event.json().get("turn_id")
                return value if isinstance(value, str) else None
        return None

    def frames(self, kind: str) -> list[dict[str, Any]]:
        return [e.json() for e in self.events if e.event == kind]

    @property
    def problem(self) -> str | None:
        """Why this run is not a finished turn: the client's failure, else the first
        frame rule its frames break (verify's rules); None for a good turn."""
        return self.failure or frame_problem(self.events)


async def post_turn(
    http: httpx.AsyncClient,
    chat_url: str,
    token: str,
    message: str,
    *,
    headers: dict[str, str] | None = None,
    timeout_s: float = TURN_TIMEOUT_S,
) -> TurnRun:
    """POST /v1/turns and read the SSE stream to its end, timing the first frame."""
    body = {"mode": "single", "message": message, "locale": "en"}
    url = f"{chat_url}/v1/turns"
    return await post_sse(http, url, token, json_body=body, headers=headers, timeout_s=timeout_s)


async def post_at_once(
    http: httpx.AsyncClient,
    chat_url: str,
    token: str | Sequence[str],
    questions: Sequence[str],
    *,
    turns: int,
    deadline_s: float,
    timeout_s: float = TURN_TIMEOUT_S,
) -> tuple[list[TurnRun | None], float]:
    """``turns`` turns posted at once, the questions (and the tokens, when several are
    given: one user each) rotating: each one's run (None for a turn not finished within
    ``deadline_s``, which is cancelled) and the wall time."""
    tokens = [token] if isinstance(token, str) else list(token)
    tasks = [
        asyncio.create_task(
            post_turn(
                http,
                chat_url,
                tokens[i % len(tokens)],
                questions[i % len(questions)],
                timeout_s=timeout_s,
            )
        )
        for i in range(turns)
    ]
    started = time.perf_counter()
    done, pending = await asyncio.wait(tasks, timeout=deadline_s)
    wall_s = time.perf_counter() - started
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return [t.result() if t in done else None for t in tasks], wall_s


async def post_sse(
    http: httpx.AsyncClient,
    url: str,
    token: str,
    *,
    json_body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    timeout_s: float = TURN_TIMEOUT_S,
) -> TurnRun:
    """POST and read an SSE stream to its end, timing its first event and its end."""
    run = TurnRun()
    sent = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream", **(headers or {})}
    started = time.perf_counter()
    try:
        async with http.stream(
            "POST",
            url,
            json=json_body,
            headers=sent,
            timeout=httpx.Timeout(timeout_s, connect=10.0),
        ) as response:
            run.headers_s = time.perf_counter() - started
            run.server_ms = parse_server_timing(response.headers.get("server-timing", ""))
            run.status = response.status_code
            if response.status_code != 200:
                run.failure = f"HTTP {response.status_code}"
                await response.aread()
                return run
            pending: list[str] = []
            async for line in response.aiter_lines():
                if line.rstrip("\r"):
                    pending.append(line)
                    continue
                # A blank line dispatches: the product's own parser reads the block.
                for event in parse_sse(pending):
                    if run.first_frame_s is None:
                        run.first_frame_s = time.perf_counter() - started
                    run.events.append(event)
                pending = []
            for event in parse_sse(pending):
                run.events.append(event)
    except httpx.HTTPError as exc:
        run.failure = f"{type(exc).__name__}: {exc}"
    finally:
        run.total_s = time.perf_counter() - started
    return run


async def dev_requests(http: httpx.AsyncClient, base: str) -> list[dict[str, Any]]:
    """A stub's request log (``GET /dev/requests`` on its origin)."""
    response = await http.get(f"{origin(base)}/dev/requests", timeout=10.0)
    response.raise_for_status()
    entries = response.json()["requests"]
    assert isinstance(entries, list)
    return entries


def for_turn(entries: list[dict[str, Any]], turn_id: str | None) -> list[dict[str, Any]]:
    return [e for e in entries if turn_id is not None and e.get("turn") == turn_id]


def strict_json(value: Any) -> Any:
    """``value`` with non-finite floats as None: NaN and Infinity are not JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): strict_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [strict_json(v) for v in value]
    return value


def write_json(directory: Path, name: str, figures: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    text = json.dumps(strict_json(figures), indent=2, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n")
    return path


def run_on_stack(
    measure: Callable[..., Coroutine[Any, Any, dict[str, Any]]],
    *,
    turns: int,
    deadline_s: float,
    workers: int = 1,
    db: str | None = None,
) -> dict[str, Any]:
    """A concurrency-style bench on its own fresh default stack (SQLite and one
    chat process, or ``workers`` processes on the PostgreSQL database ``db``)."""
    from harness.stack import running_stack

    with running_stack(workers=workers, db=db) as stack:
        return asyncio.run(measure(stack, stack.token(), turns=turns, deadline_s=deadline_s))


def turns_main(
    prog: str,
    run: Callable[..., dict[str, Any]],
    lines: Callable[[dict[str, Any]], list[str]],
    argv: list[str] | None,
    *,
    turns: int,
    deadline_s: float | None = None,
) -> int:
    """``python -m bench.<name> [--turns N] [--deadline S]`` (a deadline where the bench
    has one): figures printed, exit 1 when the run was not valid."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--turns", type=int, default=turns)
    if deadline_s is not None:
        parser.add_argument("--deadline", type=float, default=deadline_s)
    args = parser.parse_args(argv)
    deadline = {"deadline_s": args.deadline} if deadline_s is not None else {}
    figures = run(turns=args.turns, **deadline)
    print("\n".join(lines(figures)))
    return 0 if figures["ok"] else 1
