"""The embedded turn store: one SQLite file, one writing process.

Two connections, each used under its own lock. Writes are small (one turn's
frames, one answer: tens of microseconds), so the chat server makes them on its
event loop: a worker-thread hop cost more than the write and made the two
threads trade the GIL on every frame. Nothing slow may happen there, so the
write connection never checkpoints the WAL by itself (that syncs the database
file); ``checkpoint`` does it from a worker thread on its own connection. Reads
(replays, transcripts: they unseal whole turns) run in worker threads on the
read connection, which WAL lets proceed beside the writer.

One process writes a database, so a turn stored as running that this process
does not drive is a dead process's: the process's ``worker`` id tells them apart.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

from beacon.store.backends import SlotHold, Tx
from beacon.store.crypto import Keyring
from beacon.store.errors import StoreError
from beacon.store.schema import SQLITE_LATER_COLUMNS, SQLITE_SCHEMA
from beacon.store.turns import TurnStore

WRITER_BUSY_MS = 5_000
READER_BUSY_MS = 30_000


class _NoHold:
    def release(self) -> None:
        return None


class SqliteStore(TurnStore):
    # Write transactions between checkpoints: ~a few hundred turns' frames.
    CHECKPOINT_EVERY = 256
    writes_on_loop: ClassVar[bool] = True
    shared: ClassVar[bool] = False
    order_column: ClassVar[str] = "rowid"
    db_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.Error,)
    # A write transaction (BEGIN IMMEDIATE) holds the whole database: no row locks.
    lock_rows: ClassVar[str] = ""
    skip_locked: ClassVar[str] = ""

    def __init__(self, path: str | Path, keyring: Keyring) -> None:
        super().__init__(keyring)
        self.path = str(path)
        self._write_lock = threading.Lock()
        self._read_lock = threading.Lock()
        self._writes = 0
        # check_same_thread is off because the read connection serves any worker
        # thread (and tests call from theirs); the locks make each use exclusive.
        # The writer runs on the event loop: it waits on another process's lock for
        # at most a few seconds (then the write fails as an error), never 30 s.
        self._writer: sqlite3.Connection | None = self._open(busy_ms=WRITER_BUSY_MS)
        self._writer.execute("PRAGMA journal_mode=WAL")  # a property of the file
        self._writer.execute("PRAGMA wal_autocheckpoint=0")  # see checkpoint()
        self._writer.executescript(SQLITE_SCHEMA)
        for (table, name), alter in SQLITE_LATER_COLUMNS.items():
            columns = {row[1] for row in self._writer.execute(f"PRAGMA table_info({table})")}
            if name not in columns:
                self._writer.execute(alter)
        self._reader: sqlite3.Connection | None = self._open()

    def _open(self, busy_ms: int = READER_BUSY_MS) -> sqlite3.Connection:
        # ``timeout`` is SQLite's busy timeout: how long a locked database is waited on.
        try:
            db = sqlite3.connect(
                self.path, timeout=busy_ms / 1000, isolation_level=None, check_same_thread=False
            )
            db.execute("PRAGMA synchronous=NORMAL")  # durable across a crash of the process
        except sqlite3.OperationalError as exc:
            # A folder that is not there or not writable: the operator's one-line fix.
            raise StoreError(
                f"cannot open the SQLite store {self.path!r} ({exc}): create its folder or"
                " point BEACON_DB (or --db) at a writable path"
            ) from exc
        return db

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with self._write_lock:
            db = self._writer
            if db is None:
                raise StoreError("the store is closed")
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            finally:
                # A failed statement must not leave its transaction open for the
                # next caller of this shared connection.
                if db.in_transaction:
                    db.execute("ROLLBACK")
                self._writes += 1

    @contextmanager
    def reading(self) -> Iterator[Tx]:
        with self._read_lock:
            if self._reader is None:
                raise StoreError("the store is closed")
            yield self._reader

    def dead_running(self, tx: Tx, turn_id: str | None) -> list[str]:
        query = "SELECT id FROM turns WHERE status = 'running' AND (worker IS NULL OR worker != ?)"
        rows = (
            tx.execute(query + " AND id = ?", (self.worker, turn_id))
            if turn_id is not None
            else tx.execute(query, (self.worker,))
        )
        return [str(r[0]) for r in rows.fetchall()]

    def announce(self, tx: Tx, turn_ids: Sequence[str]) -> None:
        return None  # one process: no other is following its turns

    def notifications(
        self, listening: Callable[[], object] | None = None
    ) -> AsyncIterator[list[str]]:
        raise StoreError("this store is not shared between processes")

    def lock_slot(self, turn_id: str, slot: str) -> SlotHold:
        return _NoHold()  # one process: its callers take turns in beacon.server.slots

    @contextmanager
    def prune_hold(self) -> Iterator[bool]:
        yield True  # one writing process: no other pruner

    def ready(self) -> bool:
        return True

    def keep_alive(self) -> bool:
        return True

    def checkpoint_due(self) -> bool:
        """Whether enough has been written to move the WAL into the database."""
        return self._writes >= self.CHECKPOINT_EVERY

    def checkpoint(self) -> None:
        """Copy the WAL into the database (PASSIVE: never waits on readers or the
        writer). Slow — it syncs the file — so call it from a worker thread."""
        self._writes = 0
        db = self._open()
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def close(self) -> None:
        with self._write_lock, self._read_lock:
            for db in (self._reader, self._writer):
                if db is not None:
                    db.close()
            self._reader = self._writer = None
