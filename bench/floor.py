"""The floor of Beacon's own stack: a minimal SSE app, timed as the chat server is.

Every latency figure of the benches is a ratio to this, measured in the same
run on the same machine (a noisy machine moves both): a FastAPI app on the same
uvicorn configuration as ``beacon serve`` (h11 with Beacon's connection and
head limits, the same worker count) whose ``POST /v1/turns`` reads the JSON
body, checks that a bearer was sent and streams one SSE frame. No store, no
token verification, no upstream, no model: what is left is what any Beacon turn
pays before it can say anything. A layout is read against it round by round
(``with_floor``, ``over_rounds``: the median round's figure).

    python -m bench.floor [--turns N] [--workers W]     # the floor's figures
    python -m bench.floor serve --port P [--workers W]  # the app alone
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from beacon.server.limits import (
    ConnectionLimits,
    LimitedH11Protocol,
    connection_cap,
    fd_limit,
)
from beacon.server.settings import Settings
from bench.common import TurnRun, format_ms, median, percentile, post_at_once, post_turn, ratio

NAME = "floor"
DEFAULT_TURNS = 100
DEFAULT_DEADLINE_S = 45.0
START_TIMEOUT_S = 30.0
QUESTIONS = ("How many open safety findings are on level 3 of Harbor Tower?",)
FRAME_PREFIX = b"id: 1\nevent: done\ndata: "


def floor_app() -> FastAPI:
    """The app: one route that answers as a turn does (SSE, one frame), and /healthz."""
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/turns", response_model=None)
    async def turn(request: Request) -> Response:
        if not request.headers.get("authorization", "").startswith("Bearer "):
            return JSONResponse({"code": "unauthenticated"}, status_code=401)
        body = await request.json()
        data = json.dumps({"seq": 1, "message_bytes": len(str(body.get("message", "")))})

        async def one_frame() -> AsyncIterator[bytes]:
            yield FRAME_PREFIX + data.encode() + b"\n\n"

        return StreamingResponse(one_frame(), media_type="text/event-stream")

    return app


def _default(name: str) -> Any:
    """A setting's default, as beacon serve starts without it set."""
    (found,) = [f.default for f in dataclasses.fields(Settings) if f.name == name]
    return found


class FloorProtocol(LimitedH11Protocol):
    """Beacon's h11 protocol with its default limits (the floor reads no settings)."""

    limits = ConnectionLimits(
        max_connections=connection_cap(None, fd_limit()),
        head_timeout_s=_default("head_timeout_s"),
        max_header_bytes=_default("max_header_bytes"),
    )


def serve(port: int, workers: int) -> None:
    # beacon serve's configuration (beacon/cli/serve_cmd.py): h11 with the same limits.
    uvicorn.run(
        "bench.floor:floor_app",
        factory=True,
        workers=workers,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        http=FloorProtocol,
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def running_floor(workers: int) -> Iterator[str]:
    """The floor app in its own process(es) on loopback; its origin once /healthz answers."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.floor",
            "serve",
            "--port",
            f"{port}",
            "--workers",
            f"{workers}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    origin = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                err = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"the floor app exited before it answered: {err[-400:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{origin}/healthz", timeout=1.0).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the floor app did not answer within {START_TIMEOUT_S:.0f} s")
            time.sleep(0.1)
        yield origin
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def first_frames(runs: Sequence[TurnRun | None]) -> list[float]:
    return [r.first_frame_s for r in runs if r is not None and r.first_frame_s is not None]


async def measure(origin: str, *, turns: int, deadline_s: float) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=turns + 10, max_keepalive_connections=turns + 10)
    async with httpx.AsyncClient(limits=limits) as http:
        warm = await post_turn(http, origin, "floor", QUESTIONS[0])
        if warm.failure or not warm.events:
            raise RuntimeError(f"warm-up request failed: {warm.failure or 'no frame'}")
        runs, wall_s = await post_at_once(
            http, origin, "floor", QUESTIONS, turns=turns, deadline_s=deadline_s
        )
    first = first_frames(runs)
    missing = sum(1 for r in runs if r is None or r.failure or not r.events)
    return {
        "turns": turns,
        "ttff_p50_s": percentile(first, 50) if first else float("nan"),
        "ttff_p95_s": percentile(first, 95) if first else float("nan"),
        "wall_s": wall_s,
        "failed": missing,
        "ok": missing == 0,
    }


def run_floor(
    workers: int, *, turns: int = DEFAULT_TURNS, deadline_s: float = DEFAULT_DEADLINE_S
) -> dict[str, Any]:
    with running_floor(workers) as origin:
        figures = asyncio.run(measure(origin, turns=turns, deadline_s=deadline_s))
    return {"workers": workers, **figures}


# Bursts per layout on each side, alternating; the figure is the median round's.
ROUNDS = 3


def over_rounds(ones: list[dict[str, Any]], floors: list[dict[str, Any]]) -> dict[str, Any]:
    """A layout's rounds as one figure: each round's turns read against that round's
    floor; the latencies and ratios the median over rounds, the phases and the wall
    time the median round's (by its p95 ratio), what was lost over every round."""
    if not ones or len(ones) != len(floors):
        raise ValueError("each round needs the turns' burst and the floor's")
    rounds = [with_floor(one, floor) for one, floor in zip(ones, floors, strict=True)]
    by_p95 = sorted(rounds, key=lambda r: r["ttff_p95_ratio"])
    middle = by_p95[(len(by_p95) - 1) // 2]
    lost = sorted({reason for one in ones for reason in one["lost_reasons"]})
    floor = {
        "workers": floors[0].get("workers"),
        "turns": floors[0].get("turns"),
        "ttff_p50_s": median([f["ttff_p50_s"] for f in floors]),
        "ttff_p95_s": median([f["ttff_p95_s"] for f in floors]),
        "failed": sum(f.get("failed", 0) for f in floors),
        "ok": all(f.get("ok", True) for f in floors),
    }
    return {
        **middle,
        "rounds": len(rounds),
        "ttff_p50_s": median([r["ttff_p50_s"] for r in rounds]),
        "ttff_p95_s": median([r["ttff_p95_s"] for r in rounds]),
        "ttff_max_s": max(r["ttff_max_s"] for r in rounds),
        "chat_cpu_ms_per_turn": median([r["chat_cpu_ms_per_turn"] for r in rounds]),
        "frames_received": sum(r["frames_received"] for r in rounds),
        "frames_lost": sum(r["frames_lost"] for r in rounds),
        "lost_reasons": lost[:5],
        "ok": all(r["ok"] for r in rounds) and floor["ok"],
        "floor": floor,
        "ttff_p50_ratio": median([r["ttff_p50_ratio"] for r in rounds]),
        "ttff_p95_ratio": median([r["ttff_p95_ratio"] for r in rounds]),
        "ttff_p95_ratio_by_round": [r["ttff_p95_ratio"] for r in rounds],
    }


def with_floor(one: dict[str, Any], floor: dict[str, Any]) -> dict[str, Any]:
    """A layout's figures with the floor beside them and each latency as its ratio."""
    return {
        **one,
        "floor": floor,
        "ttff_p50_ratio": ratio(one["ttff_p50_s"], floor["ttff_p50_s"]),
        "ttff_p95_ratio": ratio(one["ttff_p95_s"], floor["ttff_p95_s"]),
    }


def lines(figures: dict[str, Any]) -> list[str]:
    return [
        f"  floor ({figures['workers']} process{'es' if figures['workers'] > 1 else ''},"
        f" minimal SSE app): time to first frame p50 {format_ms(figures['ttff_p50_s'])}"
        f"  p95 {format_ms(figures['ttff_p95_s'])}"
        + (f"  ({figures['failed']} failed)" if figures["failed"] else "")
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.floor")
    parser.add_argument("command", nargs="?", choices=("serve",))
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--turns", type=int, default=DEFAULT_TURNS)
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.port, args.workers)
        return 0
    figures = run_floor(args.workers, turns=args.turns)
    print("\n".join(lines(figures)))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
