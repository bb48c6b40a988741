"""The durable record of turns: sessions, frames, answers, audit rows (SQLite).

Content is sealed (AES-256-GCM, ``beacon.store.crypto``) with the record's
place as associated data, so a row copied elsewhere does not open.

Two connections per store, each used under its own lock. Writes are small
(one turn's frames, one answer: tens of microseconds), so the chat server makes
them on its event loop: a worker-thread hop cost more than the write and made
the two threads trade the GIL on every frame. Nothing slow may happen there,
so the write connection never checkpoints the WAL by itself (that syncs the
database file); ``checkpoint`` does it from a worker thread on its own
connection. Reads (replays, transcripts: they unseal whole turns) run in
worker threads on the read connection, which WAL lets proceed beside the
writer. One process writes a database; others may read it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from beacon.store.crypto import Keyring, record_context, seal, unseal, unseal_text
from beacon.store.errors import StoreError
from beacon.store.records import Message as Message
from beacon.store.records import SaveFailed as SaveFailed
from beacon.store.records import SessionNotOwned as SessionNotOwned
from beacon.store.records import TurnRecord as TurnRecord
from beacon.store.schema import AUDIT_INSERT, SCHEMA
from beacon.wire.frames import TERMINAL_FRAMES

WRITER_BUSY_MS = 5_000
READER_BUSY_MS = 30_000


class TurnStore:
    # Write transactions between checkpoints: ~a few hundred turns' frames.
    CHECKPOINT_EVERY = 256

    def __init__(self, path: str | Path, keyring: Keyring) -> None:
        self.path = str(path)
        self._ring = keyring
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
        self._writer.executescript(SCHEMA)
        self._reader: sqlite3.Connection | None = self._open()

    def _open(self, busy_ms: int = READER_BUSY_MS) -> sqlite3.Connection:
        # ``timeout`` is SQLite's busy timeout: how long a locked database is waited on.
        db = sqlite3.connect(
            self.path, timeout=busy_ms / 1000, isolation_level=None, check_same_thread=False
        )
        db.execute("PRAGMA synchronous=NORMAL")  # durable across a crash of the process
        return db

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        with self._write_lock:
            if self._writer is None:
                raise StoreError("the store is closed")
            try:
                yield self._writer
            finally:
                # A failed statement must not leave its transaction open for the
                # next caller of this shared connection.
                if self._writer.in_transaction:
                    self._writer.execute("ROLLBACK")
                self._writes += 1

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._read_lock:
            if self._reader is None:
                raise StoreError("the store is closed")
            yield self._reader

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

    def open_turn(self, turn_id: str, *, owner: str, session_id: str | None, mode: str) -> None:
        now = time.time()
        with self._writing() as db:
            db.execute("BEGIN IMMEDIATE")
            if session_id is not None:
                row = db.execute(
                    "SELECT owner FROM sessions WHERE id = ?", (session_id,)
                ).fetchone()
                if row is None:
                    db.execute("INSERT INTO sessions VALUES (?, ?, ?)", (session_id, owner, now))
                elif row[0] != owner:
                    db.execute("ROLLBACK")
                    raise SessionNotOwned(session_id)
            db.execute(
                "INSERT INTO turns VALUES (?, ?, ?, ?, 'running', ?)",
                (turn_id, session_id, owner, mode, now),
            )
            db.execute("COMMIT")

    def interrupt_running(
        self, make: Callable[[str, int], bytes], turn_id: str | None = None
    ) -> list[str]:
        """Finish turns a dead process left ``running``: each gets one ``error`` frame
        (``make(turn_id, seq)`` encodes it) after its last stored frame, and its status,
        in one commit. With ``turn_id``, only that turn. One process writes a store, so
        a running turn this process does not drive is a dead one's."""
        query = "SELECT id FROM turns WHERE status = 'running'"
        with self._writing() as db:
            db.execute("BEGIN IMMEDIATE")
            ids = [
                str(r[0])
                for r in (
                    db.execute(query + " AND id = ?", (turn_id,))
                    if turn_id is not None
                    else db.execute(query)
                ).fetchall()
            ]
            for stuck in ids:
                (last,) = db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM frames WHERE turn_id = ?", (stuck,)
                ).fetchone()
                seq = int(last) + 1
                sealed = seal(
                    self._ring, make(stuck, seq), context=record_context(stuck, "frame", str(seq))
                )
                db.execute("INSERT INTO frames VALUES (?, ?, 'error', ?)", (stuck, seq, sealed))
                db.execute("UPDATE turns SET status = 'error' WHERE id = ?", (stuck,))
            db.execute("COMMIT")
        return ids

    def append_frames(self, frames: Sequence[tuple[str, int, str, bytes]]) -> None:
        """Many frames (of any turns) in one transaction: one writer, few commits."""
        rows = [
            (
                turn_id,
                seq,
                frame_type,
                seal(self._ring, encoded, context=record_context(turn_id, "frame", str(seq))),
            )
            for turn_id, seq, frame_type, encoded in frames
        ]
        terminals = [(t, turn_id) for turn_id, _, t, _ in frames if t in TERMINAL_FRAMES]
        with self._writing() as db:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("INSERT INTO frames VALUES (?, ?, ?, ?)", rows)
            # A terminal frame finishes its turn in the same commit.
            db.executemany("UPDATE turns SET status = ? WHERE id = ?", terminals)
            db.execute("COMMIT")

    def save_answer(
        self,
        turn_id: str,
        *,
        session_id: str | None,
        question: str,
        answer: str,
        sources: Sequence[dict[str, Any]],
        pages: Mapping[str, dict[str, Any]] | None = None,
        audit: Sequence[dict[str, Any]] = (),
        narrowing: tuple[str, dict[str, Any] | None] | None = None,
        narration: Sequence[Mapping[str, str]] = (),
    ) -> None:
        """Body and sources in one transaction — with the transcript (chat mode), the
        load-more pages, the turn's audit rows (the PEP's and the narration's: every
        dropped sentence and slot verdict, ``{kind, rule, token}``) and the session's
        narrowing, so a turn is saved whole or not at all, in one commit."""
        now = time.time()
        sealed_sources = seal(
            self._ring, json.dumps(list(sources)), context=record_context(turn_id, "sources")
        )
        try:
            with self._writing() as db:
                db.execute("BEGIN IMMEDIATE")
                db.execute(
                    "INSERT INTO answers VALUES (?, ?, ?, ?)",
                    (
                        turn_id,
                        seal(self._ring, answer, context=record_context(turn_id, "answer")),
                        sealed_sources,
                        now,
                    ),
                )
                if session_id is not None:
                    for role, text, at in (("user", question, now), ("assistant", answer, now)):
                        context = record_context(session_id, "message", turn_id, role)
                        db.execute(
                            "INSERT INTO messages VALUES (?, ?, ?, ?, ?)",
                            (
                                session_id,
                                turn_id,
                                role,
                                seal(self._ring, text, context=context),
                                at,
                            ),
                        )
                for slot, record in (pages or {}).items():
                    db.execute(
                        "INSERT OR REPLACE INTO pages VALUES (?, ?, ?)",
                        (
                            turn_id,
                            slot,
                            seal(
                                self._ring,
                                json.dumps(record),
                                context=record_context(turn_id, "pages", slot),
                            ),
                        ),
                    )
                if audit:
                    db.executemany(AUDIT_INSERT, list(audit))
                db.executemany(
                    "INSERT INTO narration_audit VALUES (?, ?, ?, ?, ?)",
                    [(turn_id, n["kind"], n["rule"], n["token"], now) for n in narration],
                )
                if narrowing is not None:
                    self._write_narrowing(db, *narrowing)
                db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise SaveFailed(f"the answer could not be saved: {exc}") from exc

    def turn(self, turn_id: str) -> TurnRecord | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT id, session_id, owner, mode, status FROM turns WHERE id = ?", (turn_id,)
            ).fetchone()
        return TurnRecord(*row) if row else None

    def frames_after(self, turn_id: str, after: int) -> list[bytes]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT seq, body FROM frames WHERE turn_id = ? AND seq > ? ORDER BY seq",
                (turn_id, after),
            ).fetchall()
        return [
            unseal(self._ring, body, context=record_context(turn_id, "frame", str(seq)))
            for seq, body in rows
        ]

    def answer(self, turn_id: str) -> tuple[str, list[dict[str, Any]]] | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT body, sources FROM answers WHERE turn_id = ?", (turn_id,)
            ).fetchone()
        if row is None:
            return None
        body = unseal_text(self._ring, row[0], context=record_context(turn_id, "answer"))
        sources = unseal_text(self._ring, row[1], context=record_context(turn_id, "sources"))
        return body, json.loads(sources)

    def session_owner(self, session_id: str) -> str | None:
        with self._reading() as db:
            row = db.execute("SELECT owner FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return str(row[0]) if row else None

    def transcript(self, session_id: str) -> list[Message]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT turn_id, role, body FROM messages WHERE session_id = ? "
                "ORDER BY created_at, rowid",
                (session_id,),
            ).fetchall()
        return [
            Message(
                turn_id,
                role,
                unseal_text(
                    self._ring, body, context=record_context(session_id, "message", turn_id, role)
                ),
            )
            for turn_id, role, body in rows
        ]

    def _put_json(self, sql: str, key: tuple[str, ...], context: bytes, value: object) -> None:
        body = seal(self._ring, json.dumps(value), context=context)
        with self._writing() as db:
            db.execute(sql, (*key, body))

    def _get_json(self, sql: str, key: tuple[str, ...], context: bytes) -> Any:
        with self._reading() as db:
            row = db.execute(sql, key).fetchone()
        return None if row is None else json.loads(unseal_text(self._ring, row[0], context=context))

    def _write_narrowing(
        self, db: sqlite3.Connection, session_id: str, record: dict[str, Any] | None
    ) -> None:
        """The session's narrowing (None clears it): owned by dispatch, not the model."""
        if record is None:
            db.execute("DELETE FROM narrowing WHERE session_id = ?", (session_id,))
            return
        body = seal(self._ring, json.dumps(record), context=record_context(session_id, "narrowing"))
        db.execute(
            "INSERT OR REPLACE INTO narrowing VALUES (?, ?, ?)", (session_id, body, time.time())
        )

    def load_narrowing(self, session_id: str) -> dict[str, Any] | None:
        found = self._get_json(
            "SELECT body FROM narrowing WHERE session_id = ?",
            (session_id,),
            record_context(session_id, "narrowing"),
        )
        return found if isinstance(found, dict) else None

    def save_pages(self, turn_id: str, slot: str, record: dict[str, Any]) -> None:
        """What load-more needs to fetch and stitch the next page of one source."""
        self._put_json(
            "INSERT OR REPLACE INTO pages VALUES (?, ?, ?)",
            (turn_id, slot),
            record_context(turn_id, "pages", slot),
            record,
        )

    def page_slots(self, turn_id: str) -> list[str]:
        """The slots of a turn that kept a load-more record."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT slot FROM pages WHERE turn_id = ? ORDER BY slot", (turn_id,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def load_pages(self, turn_id: str, slot: str) -> dict[str, Any] | None:
        found = self._get_json(
            "SELECT body FROM pages WHERE turn_id = ? AND slot = ?",
            (turn_id, slot),
            record_context(turn_id, "pages", slot),
        )
        return found if isinstance(found, dict) else None

    def save_feedback(self, turn_id: str, *, owner: str, rating: str, comment: str) -> None:
        """The user's verdict on an answer; the comment is content, so it is sealed."""
        body = seal(self._ring, comment, context=record_context(turn_id, "feedback"))
        with self._writing() as db:
            db.execute(
                "INSERT OR REPLACE INTO feedback VALUES (?, ?, ?, ?, ?)",
                (turn_id, owner, rating, body, time.time()),
            )

    def feedback(self, turn_id: str) -> tuple[str, str] | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT rating, body FROM feedback WHERE turn_id = ?", (turn_id,)
            ).fetchone()
        if row is None:
            return None
        return str(row[0]), unseal_text(
            self._ring, row[1], context=record_context(turn_id, "feedback")
        )

    def record_audit(self, rows: Sequence[dict[str, Any]]) -> None:
        with self._writing() as db:
            db.executemany(AUDIT_INSERT, list(rows))

    def narration_drops(self, turn_id: str) -> list[dict[str, str]]:
        """The turn's narration audit rows, in the order they were made."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT kind, rule, token FROM narration_audit WHERE turn_id = ? ORDER BY rowid",
                (turn_id,),
            ).fetchall()
        return [{"kind": k, "rule": r, "token": t} for k, r, t in rows]

    def audit_rows(self, turn_id: str) -> list[dict[str, Any]]:
        with self._reading() as db:
            # The row factory on this cursor only: the connection is shared.
            cursor = db.cursor()
            cursor.row_factory = sqlite3.Row
            rows = cursor.execute("SELECT * FROM audit WHERE turn_id = ?", (turn_id,)).fetchall()
        return [dict(r) for r in rows]
