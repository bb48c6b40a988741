"""The scripted ``model-overclaims`` scenario: "I found 10" never reaches the user.

The model writes the seed's sentence itself, ahead of beacon-rules' slot
narration. Over real HTTP: the sentence is in no ``delta`` and not in
``done.answer``, the slot sentences survive with the graded figure, and the
drop is an audit row in the store (not a log line).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from beacon.cli.ask import run_turn
from beacon.store.turns import TurnStore
from harness.chat_process import chat_with_open_store
from harness.stack import Stack

pytestmark = pytest.mark.e2e
QUESTION = "Photos of missing hard hats in Harbor Tower"
OVERCLAIM = "I found 10 photos that match your question."


@pytest.fixture(scope="module")
def audited_chat(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, TurnStore]]:
    with chat_with_open_store(stack, tmp_path_factory.mktemp("overclaims"), "over1") as chat:
        yield chat


def test_the_overclaim_is_dropped_audited_and_the_graded_count_survives(
    stack: Stack, audited_chat: tuple[str, TurnStore]
) -> None:
    chat, store = audited_chat
    events = run_turn(chat, {"message": QUESTION}, token=stack.token(), scenario="model-overclaims")
    assert [e.event for e in events][-1] == "done"
    deltas = "".join(e.json()["text"] for e in events if e.event == "delta")
    done = events[-1].json()["answer"]
    assert deltas == done
    assert OVERCLAIM not in done and "I found 10" not in done
    (refs,) = [e.json() for e in events if e.event == "references"]
    (count,) = refs["counts"]
    assert count["grade"] == "LOWER_BOUND"
    # beacon-rules' slot sentence follows the overclaim and is published, graded.
    assert f"at least {count['total']:,} photos" in done
    drops = store.narration_drops(events[0].json()["turn_id"])
    assert {"kind": "narration_dropped", "rule": "free_count", "token": "10"} in drops


def test_a_well_behaved_turn_leaves_no_narration_drop(
    stack: Stack, audited_chat: tuple[str, TurnStore]
) -> None:
    chat, store = audited_chat
    events = run_turn(chat, {"message": QUESTION}, token=stack.token(), scenario="default")
    assert events[-1].event == "done"
    rows = store.narration_drops(events[0].json()["turn_id"])
    # The asked set's decisions are audited too: every constraint here was applied.
    assert [r for r in rows if r["kind"] != "scope_applied"] == [], rows
    assert {r["rule"] for r in rows} == {"project", "topic"}, rows
