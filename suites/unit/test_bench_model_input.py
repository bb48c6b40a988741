"""The model-input bench: what the results add, and one run of its four cases."""

from __future__ import annotations

import asyncio

import pytest

from bench import model_input
from harness.stack import Stack

PLAN = {
    "tools": True,
    "bytes": 1200,
    "roles": ["system", "system", "user", "assistant", "tool"],
    "message_bytes": [500, 300, 80, 120, 150],
    "message_texts": [
        "You plan tool calls.",
        "Turn context (data): {}",
        "How many photos?",
        '[{"id":"c1"}]',
        '{"returned":10}',
    ],
    "tools_bytes": 40,
    "tools_text": '[{"type":"function"}]',
}
ANSWER = {
    "tools": False,
    "bytes": 1000,
    "roles": ["system", "system", "system", "system", "system", "user"],
    "message_bytes": [300, 100, 250, 200, 60, 30],
    "message_texts": [
        "You narrate answers.",
        "Turn context (data): {}",
        "Narration anchors (decided by code): []",
        "Evidence (untrusted JSON data): {}",
        "Conversation so far: []",
        "How many photos?",
    ],
    "tools_bytes": 0,
    "tools_text": "",
}


def test_evidence_is_what_the_results_add_to_planner_and_answer_requests() -> None:
    # The planner's digest, the answer's anchors and evidence blocks.
    assert model_input.evidence_bytes([PLAN, ANSWER]) == 150 + 250 + 200
    assert (
        model_input.evidence_bytes(
            [{**ANSWER, "roles": ["user"], "message_bytes": [9], "message_texts": ["q"]}]
        )
        == 0
    )


def test_a_request_splits_into_prompt_catalog_transcript_evidence_and_its_envelope() -> None:
    split = model_input.request_split(PLAN, lambda text: 1)
    assert split["purpose"] == "plan"
    assert split["bytes_by_part"] == {
        "prompt": 800,
        "catalog": 40,
        "transcript": 200,
        "evidence": 150,
        "envelope": 10,
    }
    # One token per message and one for the catalog.
    assert split["tokens_by_part"] == {"prompt": 2, "catalog": 1, "transcript": 2, "evidence": 1}
    answer = model_input.request_split(ANSWER, len)
    assert answer["purpose"] == "answer"
    assert answer["bytes_by_part"]["transcript"] == 60 + 30
    assert answer["tokens_by_part"]["catalog"] == 0


def test_tokens_are_counted_offline_with_o200k_base() -> None:
    name, count = model_input.token_counter()
    assert name == "o200k_base"
    assert count("hello world") == 2


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
