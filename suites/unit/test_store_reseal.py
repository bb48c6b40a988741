"""Re-sealing under the active key (``beacon.store.reseal``), on both stores: every
sealed column, counted by hand; a stopped pass finished by a re-run; turns written
meanwhile never lost; and, after it, a ring without the retired key reads all."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_samples import NARROWING, PAGE

from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.errors import KeyringError
from beacon.store.frames import OpenTurn
from beacon.store.opening import open_store
from beacon.store.records import PageRecord
from beacon.store.reseal import key_census, refuse_missing_keys, reseal
from beacon.store.turns import TurnStore

K1 = format_key("k1", generate_key())
K2 = format_key("k2", generate_key())


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "beacon.sqlite3")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def opened() -> Iterator[list[TurnStore]]:
    stores: list[TurnStore] = []
    yield stores
    for store in stores:
        store.close()


def _store(location: str, keys: str, opened: list[TurnStore]) -> TurnStore:
    store = open_store(location, parse_keys(keys))
    opened.append(store)
    return store


def _turn(
    store: TurnStore, turn_id: str, session_id: str | None, *, feedback: bool = False
) -> None:
    """A turn as the server writes one: 3 frames, answer and sources, a page record,
    a narration row; in a session 2 transcript lines (and the narrowing)."""
    store.append_frames(
        [(turn_id, 1, "start", f"s-{turn_id}".encode())],
        opens=[OpenTurn(turn_id, "u", session_id, "chat")],
    )
    store.save_answer(
        turn_id,
        session_id=session_id,
        question=f"question of {turn_id}",
        answer=f"answer of {turn_id}",
        sources=[{"id": turn_id}],
        pages={"c1": PAGE},
        narration=[{"kind": "narration_dropped", "rule": "free_count", "token": f"12 {turn_id}"}],
        narrowing=(session_id, NARROWING) if session_id else None,
    )
    store.append_frames([(turn_id, 2, "delta", b"d"), (turn_id, 3, "done", b"x")])
    if feedback:
        store.save_feedback(turn_id, owner="u", rating="up", comment=f"thanks for {turn_id}")


def _reads_whole(store: TurnStore, turn_id: str, session_id: str | None) -> None:
    """Everything of the turn opens and holds what ``_turn`` wrote."""
    status, frames = store.frames_since(turn_id, 0)
    assert status == "done"
    assert [body for _, body in frames] == [f"s-{turn_id}".encode(), b"d", b"x"]
    assert store.answer(turn_id) == (f"answer of {turn_id}", [{"id": turn_id}])
    assert store.load_page_record(turn_id, "c1") is not None
    assert store.narration_drops(turn_id)[0]["token"] == f"12 {turn_id}"
    if session_id is not None:
        said = [m.text for m in store.transcript(session_id) if m.turn_id == turn_id]
        assert said == [f"question of {turn_id}", f"answer of {turn_id}"]
        assert store.load_narrowing(session_id) == NARROWING


def _written_under_k1_then_one_turn_under_k2(location: str, opened: list[TurnStore]) -> None:
    old = _store(location, K1, opened)
    _turn(old, "t1", "s1", feedback=True)
    _turn(old, "t2", "s1")
    _turn(old, "t3", None)
    old.close()
    _turn(_store(location, f"{K2},{K1}", opened), "t4", None)


# By hand: t1-t3 under k1 (t1 and t2 in session s1, feedback on t1), t4 under k2.
RESEALED = {
    "frames.body": 9,
    "answers.body": 3,
    "answers.sources": 3,
    "messages.body": 4,
    "narrowing.body": 1,
    "pages.body": 3,
    "feedback.body": 1,
    "narration_audit.token": 3,
}
ALREADY = {"frames.body": 3, "answers.body": 1, "answers.sources": 1, "pages.body": 1}
ALREADY |= {"narration_audit.token": 1}


def test_every_sealed_column_is_resealed_and_what_the_active_key_sealed_is_skipped(
    location: str, opened: list[TurnStore]
) -> None:
    _written_under_k1_then_one_turn_under_k2(location, opened)
    rotated = _store(location, f"{K2},{K1}", opened)
    done = reseal(rotated, batch=2)
    assert done.finished
    assert {f.label: f.resealed for f in done.columns} == RESEALED
    assert {f.label: f.skipped for f in done.columns if f.skipped} == ALREADY
    assert done.resealed == 27 and done.unreadable == 0
    assert {label: dict(c) for label, c in key_census(rotated).items() if c} == {
        label: {"k2": RESEALED[label] + ALREADY.get(label, 0)} for label in RESEALED
    }
    again = reseal(rotated)
    assert again.resealed == 0 and sum(f.skipped for f in again.columns) == 34


def test_after_a_reseal_a_ring_without_the_retired_key_reads_every_record(
    location: str, opened: list[TurnStore]
) -> None:
    _written_under_k1_then_one_turn_under_k2(location, opened)
    reseal(_store(location, f"{K2},{K1}", opened))
    only_k2 = _store(location, K2, opened)
    refuse_missing_keys(only_k2)  # nothing still needs k1
    for turn_id, session_id in (("t1", "s1"), ("t2", "s1"), ("t3", None), ("t4", None)):
        _reads_whole(only_k2, turn_id, session_id)
    assert only_k2.feedback("t1") == ("up", "thanks for t1")


def test_a_ring_missing_a_key_that_still_seals_records_is_refused_naming_the_reseal(
    location: str, opened: list[TurnStore]
) -> None:
    _written_under_k1_then_one_turn_under_k2(location, opened)
    with pytest.raises(KeyringError) as refused:
        refuse_missing_keys(_store(location, K2, opened))
    # 27 records of t1-t3 under k1, by hand (RESEALED).
    assert "'k1' (27 records)" in str(refused.value)
    assert "beacon store reseal" in str(refused.value)


def test_a_pass_stopped_after_one_batch_is_finished_by_a_rerun_and_the_counts_add_up(
    location: str, opened: list[TurnStore]
) -> None:
    _written_under_k1_then_one_turn_under_k2(location, opened)
    rotated = _store(location, f"{K2},{K1}", opened)
    first = reseal(rotated, batch=4, stop=lambda: True)
    assert not first.finished
    assert [(f.label, f.resealed) for f in first.columns] == [("frames.body", 4)]
    rest = reseal(rotated, batch=4)
    assert rest.finished and rest.resealed == 27 - 4
    assert {f.label: f.skipped for f in rest.columns if f.skipped} == ALREADY | {
        "frames.body": 3 + 4
    }
    refuse_missing_keys(_store(location, K2, opened))


def test_turns_written_and_records_replaced_during_a_reseal_all_read_back_without_the_old_key(
    location: str, opened: list[TurnStore]
) -> None:
    old = _store(location, K1, opened)
    for n in range(12):
        _turn(old, f"old{n}", "s1" if n % 2 else None, feedback=n % 3 == 0)
    old.close()
    serving = _store(location, f"{K2},{K1}", opened)
    finished = threading.Event()
    served: list[str] = []
    replaced: dict[str, PageRecord] = {}

    failed: list[BaseException] = []

    def serve() -> None:
        try:
            serve_until_finished()
        except BaseException as exc:  # shown by the test, not lost in the thread
            failed.append(exc)

    def serve_until_finished() -> None:
        # A server meanwhile: new turns, and the load-more records of old ones replaced.
        n = 0
        while n < 3 or (not finished.is_set() and n < 40):
            _turn(serving, f"new{n}", "s2" if n % 2 else None)
            served.append(f"new{n}")
            record = PAGE.model_copy(update={"cursor": f"after-{n}"})
            serving.save_pages(f"old{n % 12}", "c1", record)
            replaced[f"old{n % 12}"] = record
            n += 1

    writer = threading.Thread(target=serve)
    writer.start()
    try:
        done = reseal(_store(location, f"{K2},{K1}", opened), batch=1)
    finally:
        finished.set()
        writer.join(timeout=60)
    assert not writer.is_alive() and failed == []
    assert done.finished and done.unreadable == 0
    only_k2 = _store(location, K2, opened)
    refuse_missing_keys(only_k2)
    for n in range(12):
        _reads_whole(only_k2, f"old{n}", "s1" if n % 2 else None)
    for turn_id in served:
        _reads_whole(only_k2, turn_id, "s2" if int(turn_id[3:]) % 2 else None)
    # The last record written wins: never a stale one put back by the reseal.
    for turn_id, record in replaced.items():
        assert only_k2.load_page_record(turn_id, "c1") == record


def test_a_pass_ends_though_turns_keep_being_added_behind_it(
    location: str, opened: list[TurnStore]
) -> None:
    old = _store(location, K1, opened)
    _turn(old, "t1", None)
    old.close()
    serving = _store(location, f"{K2},{K1}", opened)
    added: list[str] = []

    def a_turn_lands_after_each_batch() -> bool:
        # 3 frames land for each 1 re-sealed: a pass that chased the tail never ends.
        added.append(f"u{len(added):04d}")
        _turn(serving, added[-1], None)
        return len(added) > 200  # the test's own bound: stopped here is a failure

    done = reseal(serving, batch=1, stop=a_turn_lands_after_each_batch)
    assert done.finished
    assert done.resealed == 3 + 1 + 1 + 1 + 1  # t1's frames, answer, sources, page, token
