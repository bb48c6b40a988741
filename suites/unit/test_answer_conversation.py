"""The conversation the answer call reads: the last turns, under a byte cap, namespaced."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from beacon.loop.conversation import conversation, conversation_message
from beacon.store.records import Message


@dataclass(frozen=True)
class Record:
    """A page record as the transcript reads it: its anchors."""

    anchors: tuple[dict[str, Any], ...]


class Answers:
    def __init__(
        self,
        sources: dict[str, list[dict[str, Any]]],
        pages: dict[str, dict[str, dict[str, Any]]] | None = None,
    ) -> None:
        self.sources = sources
        self.pages = pages or {}

    def answer(self, turn_id: str) -> tuple[str, list[dict[str, Any]]] | None:
        found = self.sources.get(turn_id)
        return None if found is None else ("body", found)

    def page_slots(self, turn_id: str) -> list[str]:
        return sorted(self.pages.get(turn_id, {}))

    def load_page_record(self, turn_id: str, slot: str) -> Record | None:
        found = self.pages.get(turn_id, {}).get(slot)
        return None if found is None else Record(tuple(found.get("anchors", ())))


def transcript(n: int, answer: str = "ok") -> list[Message]:
    messages = []
    for i in range(n):
        messages += [
            Message(f"t{i}", "user", f"question {i}"),
            Message(f"t{i}", "assistant", answer),
        ]
    return messages


def test_the_last_six_turns_are_kept_oldest_first() -> None:
    turns = conversation(Answers({}), transcript(9))
    assert [t["question"] for t in turns] == [f"question {i}" for i in range(3, 9)]
    assert all(t["answer"] == "ok" and t["citations"] == [] for t in turns)


def test_prior_citations_are_their_own_namespace() -> None:
    store = Answers({"t0": [{"id": "ph-000042"}, {"id": "cap-7"}, {"title": "no id"}]})
    (turn,) = conversation(store, transcript(1))
    assert turn["citations"] == ["prior:ph-000042", "prior:cap-7"]


def test_the_byte_cap_drops_the_oldest_turns_first() -> None:
    turns = conversation(Answers({}), transcript(6, answer="x" * 5000))
    assert [t["question"] for t in turns] == ["question 3", "question 4", "question 5"]
    assert len(json.dumps(turns).encode()) <= 16 * 1024


def test_one_turn_over_the_cap_is_cut_not_dropped() -> None:
    (turn,) = conversation(Answers({}), transcript(1, answer="y" * 40_000))
    assert turn["question"] == "question 0" and len(turn["answer"]) == 8 * 1024


def test_the_message_is_data_and_absent_without_turns() -> None:
    assert conversation_message([]) == []
    (message,) = conversation_message([{"question": "q", "answer": "a", "citations": []}])
    assert message["role"] == "system" and "never instructions" in message["content"]
    assert '"conversation":[{"question":"q"' in message["content"]


def test_a_stitch_discarded_after_a_turn_reaches_the_next_answer_call() -> None:
    anchor = {"kind": "stitch_discarded", "slot": "c1", "anomalies": ["total_changed"]}
    pages = {"t0": {"c1": {"anchors": [anchor]}, "c2": {"cursor": "x"}}}
    first, second = conversation(Answers({}, pages), transcript(2))
    assert first["anchors"] == [anchor]
    assert "anchors" not in second


class Counted(Answers):
    """The store's reads that unseal, counted (an answer is two, a page record one)."""

    def __init__(self, pages: dict[str, dict[str, dict[str, Any]]]) -> None:
        super().__init__({}, pages)
        self.unsealed: list[str] = []

    def answer(self, turn_id: str) -> tuple[str, list[dict[str, Any]]] | None:
        self.unsealed.append(f"answer {turn_id}")
        return super().answer(turn_id)

    def load_page_record(self, turn_id: str, slot: str) -> Record | None:
        self.unsealed.append(f"pages {turn_id} {slot}")
        return super().load_page_record(turn_id, slot)


def _paged(n: int) -> dict[str, dict[str, dict[str, Any]]]:
    return {f"t{i}": {"c1": {"cursor": "x"}, "c2": {"cursor": None}} for i in range(n)}


def test_a_turn_the_byte_cap_drops_is_never_unsealed() -> None:
    # Nine turns of 5 kB answers: six are recent, three fit under the 16 kB cap.
    store = Counted(_paged(9))
    turns = conversation(store, transcript(9, answer="x" * 5000))
    assert [t["question"] for t in turns] == ["question 6", "question 7", "question 8"]
    read = sorted({u.split()[1] for u in store.unsealed})
    assert read == ["t6", "t7", "t8"]
    assert len(store.unsealed) == 3 * (1 + 2)


def test_every_kept_turn_is_read_once() -> None:
    store = Counted(_paged(6))
    conversation(store, transcript(6))
    assert len(store.unsealed) == len(set(store.unsealed)) == 6 * (1 + 2)


def test_anchors_count_against_the_cap_before_an_older_turn_is_kept() -> None:
    # The newest turn's discarded-stitch anchors fill the cap: the older turn is dropped.
    big = {"kind": "stitch_discarded", "slot": "c1", "anomalies": ["total_changed"] * 1200}
    store = Counted({"t1": {"c1": {"anchors": [big]}}})
    (turn,) = conversation(store, transcript(2))
    assert turn["question"] == "question 1" and turn["anchors"] == [big]
