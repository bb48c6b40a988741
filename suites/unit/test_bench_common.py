"""The benches' pure parts: percentiles, ratios, byte counts, whether a turn counts (by
verify's own frame rules), and how the load and restart benches file each turn."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from beacon.wire.sse import SseEvent
from bench import load, restart
from bench.common import (
    TurnRun,
    format_ratio,
    frame_problem,
    median,
    origin,
    percentile,
    ratio,
    strict_json,
    write_json,
)


def _frame(seq: int, kind: str, *, id_: str | None = None) -> SseEvent:
    data = json.dumps({"turn_id": "t_1", "seq": seq})
    return SseEvent(kind, str(seq) if id_ is None else id_, data)


def _turn(*kinds: str) -> list[SseEvent]:
    return [_frame(i, k) for i, k in enumerate(kinds, start=1)]


def test_percentiles_interpolate_between_closest_ranks() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 4.0
    assert median(values) == 2.5
    assert percentile(values, 95) == pytest.approx(3.85)
    assert percentile([7.0], 95) == 7.0
    assert median([1.0, 2.0, 100.0]) == 2.0


@pytest.mark.parametrize("q", [-1.0, 100.5])
def test_percentile_rejects_out_of_range(q: float) -> None:
    with pytest.raises(ValueError):
        percentile([1.0], q)


def test_percentile_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError):
        percentile([], 50)


def test_ratios_and_their_formatting() -> None:
    assert ratio(115.0, 100.0) == pytest.approx(1.15)
    with pytest.raises(ValueError):
        ratio(1.0, 0.0)
    assert format_ratio(1.0731) == "1.07×"
    assert format_ratio(15.12) == "15.1×"
    assert format_ratio(187.6) == "188×"


def test_origin_drops_the_path() -> None:
    assert origin("http://127.0.0.1:5000/v1") == "http://127.0.0.1:5000"
    assert origin("http://127.0.0.1:5000/mcp") == "http://127.0.0.1:5000"


def test_an_intact_turn_has_no_problem() -> None:
    assert frame_problem(_turn("start", "plan", "references", "delta", "done")) is None


@pytest.mark.parametrize(
    ("events", "why"),
    [
        ([], "no frame"),
        ([_frame(1, "start"), _frame(3, "done")], "seq goes from 1 to 3"),
        ([_frame(2, "start"), _frame(3, "done")], "seq goes from 0 to 2"),
        ([_frame(1, "start"), _frame(2, "done", id_="7")], "data.seq is 2"),
        (_turn("plan", "start", "done"), "not start"),
        (_turn("start", "done", "done"), "2 terminal frames"),
        (_turn("start", "plan"), "0 terminal frames"),
        (_turn("start", "done", "delta"), "not the last"),
        (_turn("start", "delta", "plan", "done"), "gathered after the narration"),
        (_turn("start", "error"), "ended in 'error'"),
        ([SseEvent("start", "1", "[1]")], "data.seq is None"),
    ],
)
def test_a_damaged_turn_is_named(events: list[SseEvent], why: str) -> None:
    problem = frame_problem(events)
    assert problem is not None and why in problem


def test_a_runs_problem_is_the_clients_failure_first_then_its_frames() -> None:
    intact = _turn("start", "references", "delta", "done")
    assert TurnRun(intact).problem is None
    assert TurnRun(intact, failure="HTTP 503").problem == "HTTP 503"
    damaged = TurnRun(_turn("start", "plan"))
    assert damaged.problem is not None and "0 terminal frames" in damaged.problem


def test_the_load_bench_files_a_turn_as_done_its_error_code_or_lost_with_the_reason() -> None:
    assert load.outcome(TurnRun(_turn("start", "references", "delta", "done"))) == "done"
    refused = json.dumps({"turn_id": "t_1", "seq": 2, "code": "rate_limited"})
    coded = [_frame(1, "start"), SseEvent("error", "2", refused)]
    assert load.outcome(TurnRun(coded)) == "error:rate_limited"
    assert load.outcome(TurnRun([_frame(1, "start"), _frame(3, "done")])).startswith(
        "lost:seq goes from 1 to 3"
    )
    assert load.outcome(None) == "lost:no terminal within the deadline"
    # Admission control's 503 before any frame is a figure of its own, never a lost turn;
    # a 503 after frames began would be a broken stream.
    assert load.outcome(TurnRun(status=503, failure="HTTP 503")) == "refused"
    assert load.outcome(TurnRun(status=500, failure="HTTP 500")) == "lost:HTTP 500"


def test_the_restart_bench_counts_two_terminals_apart_from_a_lost_turn() -> None:
    assert restart.classify(TurnRun(_turn("start", "done", "error"))) == "terminals"
    assert restart.classify(TurnRun(_turn("start", "plan"))) == "lost"
    assert restart.classify(TurnRun([_frame(2, "start"), _frame(3, "done")])) == "lost"
    assert restart.classify(TurnRun(_turn("start", "done"))) == "done"
    assert restart.classify(TurnRun(status=503)) == "refused"


def test_written_figures_are_strict_json(tmp_path: Path) -> None:
    figures = {"ratio": math.inf, "rows": [math.nan, 1.5], "n": 3}
    assert strict_json(figures) == {"ratio": None, "rows": [None, 1.5], "n": 3}
    path = write_json(tmp_path / "bench", "x", figures)
    assert path.name == "x.json"
    assert json.loads(path.read_text()) == {"ratio": None, "rows": [None, 1.5], "n": 3}
