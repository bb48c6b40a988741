"""The turn timeline: a turn's phases from a process's stamps, and both sides' phases
compared per question. Stamps are written out here (milliseconds on one clock);
the expected phases are worked out by hand from them."""

from __future__ import annotations

from typing import Any

import pytest

from bench import timeline
from bench.timeline import compare, phases

MS = 0.001


def _turn(turn: str, at: float, requests: list[tuple[str, float, float]], end: float) -> list[Any]:
    """Stamps of one turn arriving at ``at`` ms, its requests, its last write at ``end``."""
    stamps: list[Any] = [["in", turn, at * MS], ["out", turn, (at + 1) * MS, 120]]
    stamps += [["op", turn, name, b * MS, e * MS] for name, b, e in requests]
    stamps.append(["out", turn, end * MS, 40])
    return stamps


STAMPS = _turn(
    "t_1",
    100,
    [
        ("mcp:initialize", 102, 105),
        ("mcp:get", 105, 140),  # the session's stream: nobody waits on it
        ("mcp:notifications/initialized", 105, 107),
        ("mcp:tools/call", 106, 110),
        ("llm:completion", 111.5, 114),
        ("mcp:delete", 131, 133),  # the session closed after the last write
    ],
    130,
) + _turn("t_2", 200, [("mcp:tools/call", 201, 203)], 204)


def _ms(found: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [(name, round(seconds / MS, 6)) for name, seconds in found]


def test_a_turns_phases_are_its_requests_and_the_gaps_around_them() -> None:
    assert _ms(phases(STAMPS, "t_1")) == [
        ("before", 2.0),
        ("mcp:initialize", 3.0),
        ("gap", 1.0),
        ("mcp:tools/call", 4.0),
        ("gap", 1.5),
        ("llm:completion", 2.5),
        ("after", 16.0),
    ]


def test_a_request_sent_beside_another_counts_from_that_ones_end() -> None:
    stamps = _turn(
        "t_3",
        0,
        [
            ("mcp:tools/list", 2, 11),  # the catalog, asked for first
            ("mcp:tools/call", 2.5, 12),  # the context call beside it
            ("mcp:tools/call", 3, 8),  # one wholly inside the catalog's wait
            ("llm:completion", 13, 16),
        ],
        17,
    )
    assert _ms(phases(stamps, "t_3")) == [
        ("before", 2.0),
        ("mcp:tools/list", 9.0),
        ("gap", 0.0),
        ("mcp:tools/call", 1.0),
        ("gap", 0.0),
        ("mcp:tools/call", 0.0),
        ("gap", 1.0),
        ("llm:completion", 3.0),
        ("after", 1.0),
    ]  # 17 ms in all, as the turn took


def test_only_the_turns_own_stamps_are_its_phases() -> None:
    assert _ms(phases(STAMPS, "t_2")) == [("before", 1.0), ("mcp:tools/call", 2.0), ("after", 1.0)]
    assert phases(STAMPS, "t_unknown") == []


def test_both_sides_are_compared_phase_by_phase_by_median() -> None:
    relay = _turn("r_1", 0, [("mcp:tools/call", 0.5, 2.5)], 3) + _turn(
        "r_2", 10, [("mcp:tools/call", 10.5, 12.5)], 13.5
    )
    ids = {"q": {"turn": ["t_2"], "relay": ["r_1", "r_2"]}}
    rows = compare(STAMPS, relay, ids)["q"]["phases"]
    assert [(r["phase"], round(r["turn_ms"], 6), round(r["relay_ms"], 6)) for r in rows] == [
        ("before", 1.0, 0.5),
        ("mcp:tools/call", 2.0, 2.0),
        ("after", 1.0, 0.75),
    ]


def test_sides_whose_requests_differ_are_not_compared() -> None:
    relay = _turn("r_1", 0, [("llm:completion", 0.5, 2.5)], 3)
    found = compare(STAMPS, relay, {"q": {"turn": ["t_2"], "relay": ["r_1"]}})["q"]
    assert found["shape_differs"] and "phases" not in found


@pytest.mark.e2e
def test_smoke_the_probe_stamps_both_sides_of_a_turn_of_each_question() -> None:
    figures = timeline.run(turns=3)  # a turn of each question each way
    assert figures["ok"], figures
    assert len(figures["per_question"]) == 3
    for row in figures["per_question"].values():
        names = [p["phase"] for p in row["phases"]]
        assert names[0] == "before" and names[-1] == "after"
        assert "mcp:tools/call" in names and names.count("llm:completion") == 2
        requests = [p for p in row["phases"] if p["phase"] not in ("before", "gap", "after")]
        assert all(p["turn_ms"] >= 0 and p["relay_ms"] >= 0 for p in row["phases"])
        assert sum(p["turn_ms"] for p in requests) > 0 and row["phases"][0]["turn_ms"] > 0
    assert any("sum of medians" in line for line in timeline.lines(figures))
