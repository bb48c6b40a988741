"""The paced bench: turn_overhead's turns and relay on a stack whose stubs wait as a
network and a model would, reported in milliseconds beside the ratio."""

from __future__ import annotations

import pytest

from bench import paced

QUESTION = "Photos of missing hard hats in Harbor Tower"


def test_the_pace_reaches_the_stubs_through_the_environment() -> None:
    assert paced.pace_env(20, 250, 0) == {
        "BEACON_STUB_MCP_DELAY_MS": "20",
        "BEACON_STUB_LLM_FIRST_MS": "250",
        "BEACON_STUB_LLM_CHUNK_MS": "0",
    }


def test_each_question_is_printed_with_what_it_waits_longer_in_milliseconds() -> None:
    figures = {
        "turns_each_way": 6,
        "pace_ms": {"mcp_request": 20, "first_token": 250, "chunk": 0},
        "turn_median_s": 0.7143,
        "relay_median_s": 0.7016,
        "ratio": 1.018,
        "per_question": {
            QUESTION: {
                "turn_median_s": 0.6808,
                "relay_median_s": 0.6713,
                "ratio": 1.014,
                "overhead_ms": 9.5,
            },
            "List all panoramas in Harbor Tower": {
                "turn_median_s": 0.7271,
                "relay_median_s": 0.7304,
                "ratio": 0.995,
                "overhead_ms": -3.3,
            },
        },
        "failed_turns": 0,
        "relay_traffic_mismatches": 0,
    }
    text = "\n".join(paced.lines(figures))
    assert "every MCP request +20 ms, a completion's first chunk +250 ms" in text
    assert "+9.5 ms" in text and "-3.3 ms" in text and "+-" not in text
    assert "the goal is judged at the stubs' own pace" in text


@pytest.mark.e2e
def test_smoke_both_ways_wait_the_pace_on_every_question() -> None:
    mcp_ms, first_ms = 30, 100
    figures = paced.run(turns=3, mcp_ms=mcp_ms, first_ms=first_ms)
    assert figures["ok"], figures
    assert len(figures["per_question"]) == 3
    # Two completions and at least initialize, its notification and one call in turn:
    # at the stubs' own pace a whole turn takes ~35 ms, so each side waited the pace.
    least_s = (2 * first_ms + 3 * mcp_ms) / 1000
    for row in figures["per_question"].values():
        assert row["turn_median_s"] >= least_s and row["relay_median_s"] >= least_s, row
        assert row["overhead_ms"] == pytest.approx(
            (row["turn_median_s"] - row["relay_median_s"]) * 1000
        )
    assert figures["pace_ms"] == {"mcp_request": mcp_ms, "first_token": first_ms, "chunk": 0}
