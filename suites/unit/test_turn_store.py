"""The turn store keeps content sealed, opens old records after a key rotation,
and never returns a tampered record as text."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.errors import SealedRecordError, StoreError
from beacon.store.turns import SaveFailed, SessionNotOwned, TurnStore

K1, K2 = format_key("k1", generate_key()), format_key("k2", generate_key())


def store(path: Path, spec: str) -> TurnStore:
    return TurnStore(path / "beacon.sqlite3", parse_keys(spec))


def test_records_sealed_under_a_retired_key_still_open(tmp_path: Path) -> None:
    old = store(tmp_path, K1)
    old.open_turn("t1", owner="u", session_id="s1", mode="chat")
    old.save_answer("t1", session_id="s1", question="q?", answer="exactly 24.", sources=[])
    rotated = store(tmp_path, f"{K2},{K1}")  # k2 active, k1 retired but readable
    rotated.open_turn("t2", owner="u", session_id="s1", mode="chat")
    rotated.save_answer(
        "t2",
        session_id="s1",
        question="again?",
        answer="at least 3,000.",
        sources=[{"id": "cap-1"}],
    )
    texts = [m.text for m in rotated.transcript("s1")]
    assert texts == ["q?", "exactly 24.", "again?", "at least 3,000."]
    assert rotated.answer("t2") == ("at least 3,000.", [{"id": "cap-1"}])


def test_content_is_not_stored_in_the_clear(tmp_path: Path) -> None:
    kept = store(tmp_path, K1)
    kept.open_turn("t1", owner="u", session_id="s1", mode="chat")
    kept.save_answer(
        "t1", session_id="s1", question="secret question", answer="secret answer", sources=[]
    )
    kept.save_feedback("t1", owner="u", rating="down", comment="secret comment")
    raw = (tmp_path / "beacon.sqlite3").read_bytes()
    assert b"secret" not in raw
    assert kept.feedback("t1") == ("down", "secret comment")


def test_a_tampered_record_is_an_error_never_garbage(tmp_path: Path) -> None:
    kept = store(tmp_path, K1)
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    kept.save_answer("t1", session_id=None, question="q", answer="exactly 24.", sources=[])
    db = sqlite3.connect(tmp_path / "beacon.sqlite3")
    (body,) = db.execute("SELECT body FROM answers").fetchone()
    flipped = bytes(body[:-1]) + bytes([body[-1] ^ 1])
    db.execute("UPDATE answers SET body = ?", (flipped,))
    db.commit()
    db.close()
    with pytest.raises(SealedRecordError):
        kept.answer("t1")


def test_a_session_cannot_be_continued_by_someone_else(tmp_path: Path) -> None:
    kept = store(tmp_path, K1)
    kept.open_turn("t1", owner="alice", session_id="s1", mode="chat")
    with pytest.raises(SessionNotOwned):
        kept.open_turn("t2", owner="mallory", session_id="s1", mode="chat")
    assert kept.turn("t2") is None


def test_a_database_that_refuses_the_answer_raises_save_failed(tmp_path: Path) -> None:
    kept = store(tmp_path, K1)
    kept.open_turn("t1", owner="u", session_id="s1", mode="chat")
    db = sqlite3.connect(tmp_path / "beacon.sqlite3")
    db.execute(
        "CREATE TRIGGER no_messages BEFORE INSERT ON messages "
        "BEGIN SELECT RAISE(ABORT, 'full'); END"
    )
    db.commit()
    db.close()
    with pytest.raises(SaveFailed):
        kept.save_answer("t1", session_id="s1", question="q", answer="a", sources=[])
    assert kept.answer("t1") is None  # one transaction: no half-saved turn


def test_a_terminal_frame_finishes_its_turn_in_the_same_commit(tmp_path: Path) -> None:
    kept = store(tmp_path, K1)
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    kept.append_frames([("t1", 1, "start", b"a"), ("t1", 2, "error", b"b")])
    record = kept.turn("t1")
    assert record is not None and record.status == "error"
    assert kept.frames_after("t1", 0) == [b"a", b"b"]


def test_writes_leave_the_wal_to_the_checkpointer(tmp_path: Path) -> None:
    kept = store(tmp_path, K1)
    for n in range(kept.CHECKPOINT_EVERY):
        assert not kept.checkpoint_due()
        kept.open_turn(f"t{n}", owner="u", session_id=None, mode="single")
    assert kept.checkpoint_due()  # the writer asks for one; nothing syncs on its own
    wal = tmp_path / "beacon.sqlite3-wal"
    assert wal.stat().st_size > 0
    kept.checkpoint()
    assert not kept.checkpoint_due()
    # Everything is in the database file itself: a reader of the file alone sees it.
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes((tmp_path / "beacon.sqlite3").read_bytes())
    rows = sqlite3.connect(copy).execute("SELECT COUNT(*) FROM turns").fetchone()
    assert rows == (kept.CHECKPOINT_EVERY,)


def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    kept = store(tmp_path, K1)
    kept.close()
    kept.close()  # twice is harmless
    with pytest.raises(StoreError):
        kept.open_turn("t1", owner="u", session_id=None, mode="single")
    with pytest.raises(StoreError):
        kept.turn("t1")


def test_the_writer_gives_up_on_a_lock_held_elsewhere_instead_of_stalling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The write connection is used on the event loop: a lock another process holds
    # must turn into an error soon, not a frozen server.
    monkeypatch.setattr("beacon.store.turns.WRITER_BUSY_MS", 100)
    kept = store(tmp_path, K1)
    other = sqlite3.connect(tmp_path / "beacon.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            kept.open_turn("t1", owner="u", session_id=None, mode="single")
        assert kept.turn("t1") is None  # reads still go on beside the writer
    finally:
        other.execute("ROLLBACK")
        other.close()
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    assert kept.turn("t1") is not None
