"""The model-input bench: what the results add, and one run of its four cases."""

from __future__ import annotations

import asyncio

import pytest

from bench import model_input
from harness.stack import Stack


def test_evidence_is_what_the_results_add_to_planner_and_answer_requests() -> None:
    completions = [
        {"tools": True, "roles": ["system", "system", "user"], "message_bytes": [500, 300, 80]},
        {
            "tools": True,
            "roles": ["system", "system", "user", "assistant", "tool"],
            "message_bytes": [500, 300, 80, 200, 450],
        },
        {
            "tools": False,
            "roles": ["system", "system", "system", "system", "user"],
            "message_bytes": [500, 300, 600, 250, 80],
        },
    ]
    # The second planner request's call and digest, the answer's anchors and evidence.
    assert model_input.evidence_bytes(completions) == 200 + 450 + 600 + 250
    assert model_input.evidence_bytes([completions[0]]) == 0


@pytest.mark.e2e
def test_smoke_the_four_cases(stack: Stack, token: str) -> None:
    figures = asyncio.run(model_input.measure(stack, token))
    returned = [c["returned"] for c in figures["cases"]]
    assert returned[:2] == [10, 10] and 150 <= returned[2] <= 260 and returned[3] == 3000
    light, measured = figures["cases"][0], figures["cases"][1]
    # The same hits at their measured weight: far more raw bytes, the same model input.
    assert measured["raw_bytes"] > 50 * light["raw_bytes"]
    assert abs(measured["model_input_bytes"] - light["model_input_bytes"]) < 200
    assert figures["raw_matches_server"]
    for case in figures["cases"]:
        assert case["model_input_bytes"] > 0 and case["raw_bytes"] > 0
    assert any("model input grows" in line for line in model_input.lines(figures))
