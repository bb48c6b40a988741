"""The embedded turn store (SQLite): one writing process, a WAL the checkpointer
owns, a writer that gives up on another process's lock, and an old database
brought up to date."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.sqlite import SqliteStore

K1 = format_key("k1", generate_key())


def sqlite_store(path: Path, spec: str = K1) -> SqliteStore:
    return SqliteStore(path / "beacon.sqlite3", parse_keys(spec))


def old_database(tmp_path: Path) -> Path:
    """A database made before the later columns, holding one running turn ``t0``."""
    path = tmp_path / "beacon.sqlite3"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE turns (id TEXT PRIMARY KEY, session_id TEXT, owner TEXT NOT NULL, "
        "mode TEXT NOT NULL, status TEXT NOT NULL, created_at REAL NOT NULL)"
    )
    old.execute("INSERT INTO turns VALUES ('t0', NULL, 'u', 'single', 'running', 0)")
    old.commit()
    old.close()
    return path


def test_writes_leave_the_wal_to_the_checkpointer(tmp_path: Path) -> None:
    kept = sqlite_store(tmp_path)
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


def test_the_writer_gives_up_on_a_lock_held_elsewhere_instead_of_stalling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The write connection is used on the event loop: a lock another process holds
    # must turn into an error soon, not a frozen server.
    monkeypatch.setattr("beacon.store.sqlite.WRITER_BUSY_MS", 100)
    kept = sqlite_store(tmp_path)
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


def test_a_database_made_before_workers_were_recorded_gets_the_column(tmp_path: Path) -> None:
    path = old_database(tmp_path)
    kept = SqliteStore(path, parse_keys(K1))
    # The old running turn has no worker: its process is long gone.
    assert kept.interrupt_running(lambda turn, seq: b"x") == ["t0"]
    kept.open_turn("t1", owner="u", session_id=None, mode="single")
    assert kept.interrupt_running(lambda turn, seq: b"x") == []


def test_a_turn_keeps_what_its_starter_was_granted_and_an_old_row_reads_as_unknown(
    tmp_path: Path,
) -> None:
    path = old_database(tmp_path)
    kept = SqliteStore(path, parse_keys(K1))
    kept.open_turn("t1", owner="u", session_id=None, mode="single", granted=frozenset({"core"}))
    kept.open_turn(
        "t2", owner="u", session_id=None, mode="chat", granted=frozenset({"photo_ai", "core"})
    )
    kept.open_turn("t3", owner="u", session_id=None, mode="single")
    grants = {t: getattr(kept.turn(t), "granted", "missing") for t in ("t0", "t1", "t2", "t3")}
    # None: a row from before grants were kept (the reader falls back on what it
    # used); an empty set: a token that granted nothing.
    assert grants == {
        "t0": None,
        "t1": frozenset({"core"}),
        "t2": frozenset({"photo_ai", "core"}),
        "t3": frozenset(),
    }
    stored = sqlite3.connect(path).execute("SELECT granted FROM turns WHERE id = 't2'").fetchone()
    assert stored == ("core,photo_ai",)  # sorted, in the clear: capability names only
