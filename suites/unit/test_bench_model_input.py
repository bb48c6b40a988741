"""The model-input bench: evidence growth, and one run of its three cases."""

from __future__ import annotations

import asyncio

import pytest

from bench import model_input
from harness.stack import Stack


def test_evidence_is_the_growth_of_the_planner_requests() -> None:
    completions = [
        {"tools": True, "bytes": 8000},
        {"tools": True, "bytes": 10500},
        {"tools": False, "bytes": 3000},
    ]
    assert model_input.evidence_bytes(completions) == 2500
    assert model_input.evidence_bytes([{"tools": False, "bytes": 10}]) == 0


@pytest.mark.e2e
def test_smoke_the_three_cases(stack: Stack, token: str) -> None:
    figures = asyncio.run(model_input.measure(stack, token))
    returned = [c["returned"] for c in figures["cases"]]
    assert returned[0] == 10 and 150 <= returned[1] <= 260 and returned[2] == 3000
    assert figures["raw_matches_server"]
    for case in figures["cases"]:
        assert case["model_input_bytes"] > 0 and case["raw_bytes"] > 0
    assert any("model input grows" in line for line in model_input.lines(figures))
