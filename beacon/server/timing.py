"""Where a turn's time goes before its stream opens: the ``Server-Timing`` header.

The edge stamps a request's arrival; the turn route marks each phase it passes —
``edge`` (bearer verified, body read and validated), ``session`` (a chat session's
owner read), ``quota`` (the day's question spent), ``start`` (the turn's task
made) — and the header carries each phase's milliseconds (W3C Server Timing).
A client subtracts their sum from its own time to the headers to see how long
the request queued; the gap from the headers to the first frame is the start
frame's durable commit (beacon/server/hub.py). ``make bench`` prints both.
"""

from __future__ import annotations

import time
from collections.abc import MutableMapping
from typing import Any

ARRIVED = "beacon.arrived"  # the scope state's key for the arrival stamp
TIMING_HEADER = "Server-Timing"


def stamp_arrival(scope: MutableMapping[str, Any]) -> None:
    scope.setdefault("state", {})[ARRIVED] = time.perf_counter()


class Phases:
    """A request's phases, in order, each from the end of the one before."""

    def __init__(self, state: MutableMapping[str, Any]) -> None:
        arrived = state.get(ARRIVED)
        self._last = arrived if isinstance(arrived, float) else time.perf_counter()
        self._phases: list[tuple[str, float]] = []

    def mark(self, name: str) -> None:
        now = time.perf_counter()
        self._phases.append((name, now - self._last))
        self._last = now

    def header(self) -> str:
        """``edge;dur=0.41, quota;dur=2.10`` — milliseconds, two decimals."""
        return ", ".join(f"{name};dur={seconds * 1000:.2f}" for name, seconds in self._phases)


def parse_server_timing(value: str) -> dict[str, float]:
    """A ``Server-Timing`` header's durations by metric name (ms); others' metrics
    without a ``dur`` are left out."""
    found: dict[str, float] = {}
    for metric in value.split(","):
        name, *params = (part.strip() for part in metric.split(";"))
        for param in params:
            key, _, number = param.partition("=")
            if key.strip() == "dur" and name:
                try:
                    found[name] = float(number)
                except ValueError:
                    continue
    return found
