"""The breakdown: a part's share of a turn from two servers' figures, and the switch
that turns a part off in the one server it is loaded into (and only there).
Expectations are worked out by hand here."""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import breakdown
from bench.breakdown import WITHOUT, server_env, share, summarize
from harness.stack import Stack

SWITCH = WITHOUT / "sitecustomize.py"


def test_a_parts_share_is_what_the_whole_server_spends_beyond_the_one_without_it() -> None:
    assert share(25.0, 20.0) == pytest.approx(0.2)
    assert share(20.0, 21.0) == pytest.approx(-0.05)  # inside the measure's spread
    assert math.isnan(share(0.0, 1.0))


def test_a_part_is_summarized_by_its_cpu_and_each_questions_median_time() -> None:
    times = {
        "q1": {"whole": [10.0, 30.0, 20.0], "without": [18.0, 16.0, 17.0]},
        "q2": {"whole": [5.0], "without": []},  # no turn on one side: not compared
    }
    row = summarize("guard", {"whole": 40.0, "without": 30.0}, times)
    assert row["cpu_share"] == pytest.approx(0.25)
    assert row["per_question"] == {
        "q1": {
            "whole_median_ms": 20.0,
            "without_median_ms": 17.0,
            "time_share": pytest.approx(0.15),
        }
    }
    assert any("+25.0 %" in line for line in breakdown.lines(
        {"turns_per_question": 3, "parts": [row], "failed_turns": 0}
    ))  # fmt: skip


def test_only_the_server_without_a_part_loads_the_switch(tmp_path: Path) -> None:
    stack = Stack("", "http://127.0.0.1:1/mcp", "http://127.0.0.1:2/v1", "default")
    whole, same = server_env(stack, tmp_path, None), server_env(stack, tmp_path, "none")
    without = server_env(stack, tmp_path, "store")
    assert without.pop("PYTHONPATH") == str(WITHOUT)
    assert without.pop("BEACON_BENCH_WITHOUT") == "store"
    for env in (whole, same, without):
        env.pop("BEACON_KEYS")  # each server's own new key
    assert without == whole == same  # otherwise alike, limits and all
    assert whole["BEACON_RATE_TURNS_BURST"] == "100000"


def _python_with_switch(parts: str, code: str, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(WITHOUT), "BEACON_BENCH_WITHOUT": parts}
    return subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True, timeout=60
    )


CHECK = """
import beacon.loop.guarded_answer as g, beacon.store.turns as t, beacon.telemetry.metrics as m
import beacon.loop.gather as gather
from opentelemetry.trace import NoOpTracer
print(g.judge("There are none.", None, "en") is None,
      t.TurnStore.append_frames(None) is None,
      m.turn_started() is None and isinstance(gather.tracer(), NoOpTracer))
# Every series update is off, the readers of the series are not.
off = ("turn_started", "first_frame", "turn_ended", "quota_refused", "turn_shed")
print(all(getattr(m, n).__name__ == "<lambda>" for n in off),
      m.render.__name__ == "render" and m.tool_label.__name__ == "tool_label")
"""


def test_the_switch_turns_its_parts_off_in_a_chat_server_only() -> None:
    switched = _python_with_switch("store,guard,telemetry", CHECK, "serve")
    assert switched.returncode == 0, switched.stderr[-2000:]
    assert switched.stdout.split() == ["True"] * 5
    # Any other process on that PYTHONPATH (a stub, the bench itself) is left whole.
    untouched = _python_with_switch(
        "guard", "import beacon.loop.guarded_answer as g; print(g.judge)"
    )
    assert untouched.returncode == 0 and "function judge" in untouched.stdout


def test_the_switch_refuses_a_part_it_does_not_know() -> None:
    refused = _python_with_switch("guard,caching", "print('served')", "serve")
    assert refused.returncode != 0 and "no part named caching" in refused.stderr


def test_a_part_whose_function_is_gone_stops_the_server_rather_than_stay_on() -> None:
    spec = importlib.util.spec_from_file_location("bench_without_switch", SWITCH)
    assert spec is not None and spec.loader is not None
    switch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(switch)  # no BEACON_BENCH_WITHOUT here: nothing is switched
    with pytest.raises(SystemExit, match="no_such_function is gone"):
        switch._replace("beacon.loop.guarded_answer", "no_such_function", None)


@pytest.mark.e2e
def test_smoke_both_servers_answer_every_question_and_each_cpu_is_measured(stack: Stack) -> None:
    figures = breakdown.measure(stack, ["guard"], turns=1, warm=0)
    assert figures["ok"], figures
    (row,) = figures["parts"]
    assert row["part"] == "guard" and len(row["per_question"]) == 3
    assert row["whole_cpu_ms_per_turn"] > 0 and row["without_cpu_ms_per_turn"] > 0
