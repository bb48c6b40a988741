"""The Server-Timing header: each phase from the end of the one before, in ms."""

from __future__ import annotations

import time

import pytest

from beacon.server.timing import ARRIVED, Phases, parse_server_timing, stamp_arrival


def test_each_phase_is_timed_from_the_end_of_the_one_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = iter([10.0, 10.0015, 10.0015, 10.0115])
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    scope: dict[str, object] = {}
    stamp_arrival(scope)  # 10.0
    phases = Phases(scope["state"])  # type: ignore[arg-type]
    phases.mark("edge")  # 1.5 ms after arrival
    phases.mark("session")  # nothing between
    phases.mark("quota")  # 10 ms
    assert phases.header() == "edge;dur=1.50, session;dur=0.00, quota;dur=10.00"


def test_without_an_arrival_stamp_the_first_phase_starts_when_counting_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = iter([5.0, 5.002])
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    phases = Phases({ARRIVED: "not a time"})
    phases.mark("edge")
    assert phases.header() == "edge;dur=2.00"


def test_a_header_reads_back_as_durations_by_name_and_skips_what_has_none() -> None:
    header = 'edge;dur=0.41, cdn;desc="hit", db;dur=bad, quota;dur=2.1;desc="spent"'
    assert parse_server_timing(header) == {"edge": 0.41, "quota": 2.1}
