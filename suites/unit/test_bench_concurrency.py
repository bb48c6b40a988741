"""The concurrency bench: what counts as a lost turn, and a small run."""

from __future__ import annotations

import asyncio
import json

import pytest

from beacon.wire.sse import SseEvent
from bench import concurrency
from bench.common import TurnRun
from harness.stack import Stack


def _run(*kinds: str, failure: str | None = None) -> TurnRun:
    events = [
        SseEvent(kind, str(i), json.dumps({"turn_id": "t_1", "seq": i}))
        for i, kind in enumerate(kinds, start=1)
    ]
    return TurnRun(events=events, failure=failure)


def test_lost_turns_counts_damaged_unfinished_and_failed_turns() -> None:
    runs: list[TurnRun | None] = [
        _run("start", "plan", "done"),
        _run("start", "error"),
        None,
        _run("start", failure="HTTP 503"),
        _run("start", "done", "done"),
    ]
    lost = concurrency.lost_turns(runs)
    assert len(lost) == 4
    assert "did not finish within the deadline" in lost
    assert "HTTP 503" in lost


@pytest.mark.e2e
def test_smoke_a_few_concurrent_turns(stack: Stack, token: str) -> None:
    figures = asyncio.run(concurrency.measure(stack, token, turns=6, deadline_s=30))
    assert figures["frames_lost"] == 0, figures["lost_reasons"]
    assert figures["ttff_p50_s"] <= figures["ttff_p95_s"]
    side_by_side = concurrency.lines({"turns": 6, "sqlite_1": figures, "postgres_2": figures})
    assert sum("frames lost" in line for line in side_by_side) == 2
    assert any("2 processes, PostgreSQL" in line for line in side_by_side)
