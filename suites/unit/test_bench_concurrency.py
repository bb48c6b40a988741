"""The concurrency bench: what counts as a lost turn, and a small run."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from beacon.wire.sse import SseEvent
from bench import concurrency
from bench.common import TurnRun, post_at_once
from bench.floor import over_rounds, with_floor
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


def test_a_turn_s_time_splits_into_the_wait_the_server_s_phases_and_the_commit() -> None:
    run = TurnRun(
        headers_s=0.050,
        first_frame_s=0.080,
        server_ms={"edge": 2.0, "session": 0.0, "quota": 5.0, "start": 3.0, "cdn": 9.0},
    )
    phases = concurrency.phase_ms(run)
    assert phases == pytest.approx(
        {"queue": 40.0, "edge": 2.0, "session": 0.0, "quota": 5.0, "start": 3.0, "publish": 30.0}
    )
    assert concurrency.phase_ms(TurnRun(first_frame_s=None)) == {}


def test_phase_figures_are_percentiles_over_the_turns_that_have_them() -> None:
    runs: list[TurnRun | None] = [
        TurnRun(headers_s=0.010 * i, first_frame_s=0.010 * i + 0.001, server_ms={"edge": 1.0})
        for i in range(1, 11)
    ] + [None, TurnRun()]
    figures = concurrency.phase_figures(runs)
    assert set(figures) == {"queue", "edge", "publish"}
    assert figures["edge"] == {"p50_ms": 1.0, "p95_ms": 1.0}
    assert figures["publish"]["p95_ms"] == pytest.approx(1.0)


def test_a_layout_is_read_against_its_floor() -> None:
    one = {"ttff_p50_s": 0.3, "ttff_p95_s": 0.9}
    floor = {"ttff_p50_s": 0.1, "ttff_p95_s": 0.3}
    both = with_floor(one, floor)
    assert both["ttff_p50_ratio"] == pytest.approx(3.0)
    assert both["ttff_p95_ratio"] == pytest.approx(3.0)
    assert both["floor"] is floor


def _burst(p50: float, p95: float, *, lost: tuple[str, ...] = (), wall: float = 1.0) -> dict:
    return {
        "ttff_p50_s": p50,
        "ttff_p95_s": p95,
        "ttff_max_s": p95 + 0.01,
        "phases": {"edge": {"p50_ms": wall, "p95_ms": wall}},
        "chat_cpu_ms_per_turn": 30.0 + wall,
        "wall_s": wall,
        "frames_received": 10,
        "frames_lost": len(lost),
        "lost_reasons": list(lost),
        "ok": not lost,
    }


def test_a_layout_is_its_median_round_each_round_against_its_own_floor() -> None:
    ones = [_burst(0.2, 0.6, wall=1.0), _burst(0.3, 0.4, wall=2.0), _burst(0.25, 0.5, wall=3.0)]
    floors = [
        {"ttff_p50_s": 0.1, "ttff_p95_s": 0.2},  # round 1: p95 3.0×
        {"ttff_p50_s": 0.1, "ttff_p95_s": 0.4},  # round 2: p95 1.0×
        {"ttff_p50_s": 0.1, "ttff_p95_s": 0.25},  # round 3: p95 2.0×, the median
    ]
    figure = over_rounds(ones, floors)
    assert figure["ttff_p95_ratio_by_round"] == pytest.approx([3.0, 1.0, 2.0])
    assert figure["ttff_p95_ratio"] == pytest.approx(2.0)
    assert figure["ttff_p50_ratio"] == pytest.approx(2.5)  # of 2.0, 3.0 and 2.5
    assert figure["ttff_p50_s"] == pytest.approx(0.25)
    assert figure["ttff_p95_s"] == pytest.approx(0.5)
    assert figure["ttff_max_s"] == pytest.approx(0.61)
    assert figure["floor"]["ttff_p95_s"] == pytest.approx(0.25)
    # The phases and the wall time are the median round's own (round 3).
    assert figure["wall_s"] == 3.0 and figure["phases"]["edge"]["p50_ms"] == 3.0
    assert figure["rounds"] == 3 and figure["frames_received"] == 30 and figure["ok"]


def test_a_turn_lost_in_any_round_is_counted_and_fails_the_layout() -> None:
    ones = [_burst(0.2, 0.4), _burst(0.2, 0.4, lost=("did not finish",)), _burst(0.2, 0.4)]
    floors = [{"ttff_p50_s": 0.1, "ttff_p95_s": 0.2}] * 3
    figure = over_rounds(ones, floors)
    assert figure["frames_lost"] == 1 and not figure["ok"]
    assert figure["lost_reasons"] == ["did not finish"]
    with pytest.raises(ValueError, match="each round"):
        over_rounds(ones, floors[:2])


def test_cpu_is_read_from_the_process_and_is_zero_for_one_that_is_gone() -> None:
    import os
    import time

    before = concurrency.cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.05
    while time.process_time() < deadline:  # bounded: burns 50 ms of this process's CPU
        pass
    assert concurrency.cpu_seconds(os.getpid()) > before
    assert concurrency.cpu_seconds(2**22 + 17) == 0.0  # above any pid Linux hands out


@pytest.mark.e2e
def test_smoke_a_few_concurrent_turns(stack: Stack, token: str) -> None:
    figures = asyncio.run(concurrency.measure(stack, token, turns=6, deadline_s=30))
    assert figures["frames_lost"] == 0, figures["lost_reasons"]
    assert figures["ttff_p50_s"] <= figures["ttff_p95_s"]
    assert {"queue", "edge", "quota", "start", "publish"} <= set(figures["phases"])
    assert figures["chat_cpu_ms_per_turn"] > 0  # the chat server's own process was found
    floor = {"ttff_p50_s": figures["ttff_p50_s"] / 2, "ttff_p95_s": figures["ttff_p95_s"] / 2}
    layout = with_floor(figures, floor)
    past = asyncio.run(concurrency.measure_past_limit(stack, token, turns=6, deadline_s=30))
    assert past["admitted"] == 6 and past["shed_503"] == 0 and past["ok"]
    side_by_side = concurrency.lines(
        {"turns": 6, "sqlite_1": layout, "postgres_2": layout, "past_limit": past}
    )
    assert sum("frames lost" in line for line in side_by_side) == 2
    assert any("2 processes, PostgreSQL" in line for line in side_by_side)
    assert any("ratio to the floor   p50 2.00×" in line for line in side_by_side)
    assert any("6 admitted" in line for line in side_by_side)


@pytest.mark.e2e
def test_smoke_rounds_alternate_between_the_floor_and_the_turns(stack: Stack) -> None:
    from bench.floor import running_floor

    with running_floor(1) as origin:
        ones, floors = asyncio.run(
            concurrency.alternating(stack, origin, turns=4, deadline_s=30, rounds=2)
        )
    assert len(ones) == len(floors) == 2
    assert all(one["frames_lost"] == 0 for one in ones) and all(f["ok"] for f in floors)
    layout = over_rounds(ones, floors)
    shown = concurrency.lines({"turns": 4, "sqlite_1": layout})
    assert any("the median of 2 rounds, p95 by round" in line for line in shown), shown


def test_turns_posted_at_once_take_the_given_users_tokens_in_turn() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["Authorization"])
        body = 'event: start\nid: 1\ndata: {"turn_id": "t_1", "seq": 1}\n\n'
        return httpx.Response(200, text=body, headers={"Content-Type": "text/event-stream"})

    async def post() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as http:
            runs, _ = await post_at_once(
                http, "http://chat", ["a", "b", "c"], ["q"], turns=6, deadline_s=10
            )
        assert all(run is not None for run in runs)

    asyncio.run(post())
    assert sorted(seen) == sorted(["Bearer a", "Bearer b", "Bearer c"] * 2)
