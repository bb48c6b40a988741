"""Where a turn's time goes: each phase of an adjudicated turn against the same phase
of the bare relay's (issue 32, turn overhead).

``bench.turn_overhead`` is run with a probe loaded into the stack's and the relay's
processes (``bench/probe/sitecustomize.py``, through ``PYTHONPATH``): it stamps, on
the clock the processes share, each request's arrival and every write of its
response, and every upstream request the turn makes — each MCP request by its
method, each model request — from its send to its response's close. A turn's
phases are then its upstream requests in order and the gaps around them: the time
before the first (the edge, the route, ``start``), between two (what each side does
with a result before its next request), and after the last (the answer's guard,
save and publication). Per question, the median of each phase on each side, side
by side: the relay does nothing but the same requests, so a gap's difference is
what Beacon's own work costs there, and a request's difference is what Beacon's
work beside it costs (the loop is shared). The probe wraps the libraries both sides
use, not Beacon, so it weighs both the same; its own cost (tens of microseconds a
stamp) is in both.

    python -m bench.timeline [--turns N]
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from bench import turn_overhead
from bench.common import median, turns_main
from bench.load import chat_pid, listening_pid
from harness.stack import running_stack

NAME = "timeline"
DEFAULT_TURNS = 60
PROBE = Path(__file__).with_name("probe")
STAMPS_WAIT_S = 10.0

Phase = tuple[str, float]  # a phase's name and its duration, seconds
# Requests no caller waits on, both sides alike: the MCP session's server-to-client
# stream (open for the session's life) and its notifications (answered 202).
BESIDE = ("mcp:get", "mcp:notifications/")


def phases(events: Sequence[Sequence[Any]], turn: str) -> list[Phase]:
    """One turn's phases from a process's stamps: ``before`` its first upstream request,
    each request (``mcp:<method>``, ``llm:completion``) and the ``gap`` after it, the
    last gap named ``after`` (to the response's last write). Requests that begin after
    that write (the session's closing) are not the turn's time. A request sent while
    another is in flight has no gap before it and counts from that one's end."""
    arrived = [e[2] for e in events if e[0] == "in" and e[1] == turn]
    writes = [e[2] for e in events if e[0] == "out" and e[1] == turn]
    if not arrived or not writes:
        return []
    start, end = min(arrived), max(writes)
    requests = sorted(
        (
            e
            for e in events
            if e[0] == "op" and e[1] == turn and e[3] < end and not e[2].startswith(BESIDE)
        ),
        key=lambda e: e[3],
    )
    found: list[Phase] = []
    at = start
    for index, (_, _, name, began, ended) in enumerate(requests):
        found.append(("before" if index == 0 else "gap", max(began - at, 0.0)))
        # A request sent while the one before is in flight counts from that one's
        # end (its exposed time): the phases add up to the turn.
        found.append((name, max(ended - max(began, at), 0.0)))
        at = max(at, ended)
    found.append(("after", max(end - at, 0.0)))
    return found


def compare(
    turn_events: Sequence[Sequence[Any]],
    relay_events: Sequence[Sequence[Any]],
    ids: Mapping[str, Mapping[str, Sequence[str]]],
) -> dict[str, Any]:
    """Per question: each phase's median on both sides (ms), where both sides' turns
    had the same sequence of requests (the relay replays the turn's)."""
    # Each turn's stamps, found once (a run stamps thousands; each turn reads its own).
    mine_by_turn, theirs_by_turn = _by_turn(turn_events), _by_turn(relay_events)
    found: dict[str, Any] = {}
    for question, ways in ids.items():
        if not ways["turn"] and not ways["relay"]:
            continue  # a short run that never reached this question
        turns = [p for t in ways["turn"] if (p := phases(mine_by_turn.get(t, []), t))]
        relays = [p for r in ways["relay"] if (p := phases(theirs_by_turn.get(r, []), r))]
        shape = _common_shape(turns)
        if shape is None or shape != _common_shape(relays):
            found[question] = {"shape_differs": True, "turns": len(turns), "relays": len(relays)}
            continue
        rows = []
        for index, name in enumerate(shape):
            mine = median([p[index][1] for p in turns if len(p) == len(shape)]) * 1000
            theirs = median([p[index][1] for p in relays if len(p) == len(shape)]) * 1000
            rows.append({"phase": name, "turn_ms": mine, "relay_ms": theirs})
        found[question] = {"phases": rows, "turns": len(turns), "relays": len(relays)}
    return found


def _by_turn(events: Sequence[Sequence[Any]]) -> dict[str, list[Sequence[Any]]]:
    grouped: dict[str, list[Sequence[Any]]] = {}
    for event in events:
        grouped.setdefault(event[1], []).append(event)
    return grouped


def _common_shape(runs: Sequence[Sequence[Phase]]) -> tuple[str, ...] | None:
    """The phase names most runs share (a run that differs is left out), or None."""
    shapes: dict[tuple[str, ...], int] = {}
    for run in runs:
        key = tuple(name for name, _ in run)
        shapes[key] = shapes.get(key, 0) + 1
    if not shapes:
        return None
    return max(shapes.items(), key=lambda item: item[1])[0]


@contextlib.contextmanager
def _probed(directory: str) -> Iterator[None]:
    """Children started inside load the probe and stamp into ``directory``."""
    saved = {k: os.environ.get(k) for k in ("BEACON_TIMELINE_DIR", "PYTHONPATH")}
    os.environ["BEACON_TIMELINE_DIR"] = directory
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROBE), saved["PYTHONPATH"]) if p)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _stamps(directory: str, pid: int | None) -> list[list[Any]]:
    """What the probe in ``pid`` stamped (it writes them on SIGUSR2)."""
    if pid is None:
        raise RuntimeError("the process to read stamps from was not found")
    path = Path(directory) / f"{pid}.json"
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + STAMPS_WAIT_S
    while not path.exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"process {pid} wrote no stamps (is the probe loaded?)")
        time.sleep(0.05)
    stamps: list[list[Any]] = json.loads(path.read_text())
    return stamps


def run(*, turns: int = DEFAULT_TURNS) -> dict[str, Any]:
    collected: dict[str, list[list[Any]]] = {}
    with (
        tempfile.TemporaryDirectory() as directory,
        _probed(directory),
        running_stack() as stack,
    ):

        def collect(relay_url: str) -> None:
            collected["turn"] = _stamps(directory, chat_pid(stack))
            collected["relay"] = _stamps(directory, listening_pid(relay_url))

        figures = turn_overhead.measure(stack, stack.token(), turns=turns, before_close=collect)
    by_question = compare(collected["turn"], collected["relay"], figures["ids"])
    return {
        "bench": NAME,
        "turns_each_way": turns,
        "per_question": by_question,
        "ok": figures["ok"] and all("phases" in q for q in by_question.values()),
    }


def lines(figures: dict[str, Any]) -> list[str]:
    out = [
        f"timeline: {figures['turns_each_way']} turns each way; median ms per phase,"
        " adjudicated turn vs bare relay (a gap is what each side does between requests)"
    ]
    for question, row in figures["per_question"].items():
        out.append(f"  {question}")
        if "phases" not in row:
            out.append("    the two sides' requests differ: no phase-by-phase comparison")
            continue
        total_mine = sum(p["turn_ms"] for p in row["phases"])
        total_theirs = sum(p["relay_ms"] for p in row["phases"])
        for phase in row["phases"]:
            extra = phase["turn_ms"] - phase["relay_ms"]
            out.append(
                f"    {phase['phase']:<28} {phase['turn_ms']:7.2f} {phase['relay_ms']:7.2f}"
                f"  {extra:+6.2f}"
            )
        out.append(
            f"    {'sum of medians':<28} {total_mine:7.2f} {total_theirs:7.2f}"
            f"  {total_mine - total_theirs:+6.2f}"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    return turns_main("python -m bench.timeline", run, lines, argv, turns=DEFAULT_TURNS)


if __name__ == "__main__":
    sys.exit(main())
