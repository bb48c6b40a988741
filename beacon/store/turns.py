"""The durable record of turns: sessions, frames, answers, audit rows.

Content is sealed (AES-256-GCM, ``beacon.store.crypto``) with the record's
place as associated data, so a row copied elsewhere does not open.

``TurnStore`` holds every record rule once; a backend supplies connections,
transactions and what only it can know — which turns' processes are alive.
Two backends: SQLite (``sqlite.py``: embedded, one writing process) and
PostgreSQL (``postgres.py``: several server processes on one database, with
live followers told of new frames by NOTIFY). The SQL below is the subset both
speak; a backend's ``_tx`` rewrites the placeholders where needed.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from functools import partial
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

import anyio

from beacon.store.crypto import Keyring, record_context, seal, unseal, unseal_text
from beacon.store.errors import StoreError
from beacon.store.records import Message, SaveFailed, SessionNotOwned, TurnRecord
from beacon.store.schema import AUDIT_COLUMNS, AUDIT_INSERT
from beacon.wire.frames import TERMINAL_FRAMES

__all__ = [
    "Message",
    "OpenTurn",
    "SaveFailed",
    "SessionNotOwned",
    "SlotHold",
    "StoredFrame",
    "TurnRecord",
    "TurnStore",
    "call_write",
]

# (turn_id, seq, type, encoded frame)
FrameRow = tuple[str, int, str, bytes]
# (seq, encoded frame)
StoredFrame = tuple[int, bytes]
T = TypeVar("T")


class Rows(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Tx(Protocol):
    """One transaction's statements (``?`` placeholders, positional parameters)."""

    def execute(self, sql: str, params: Sequence[object] = ..., /) -> Rows: ...
    def executemany(self, sql: str, rows: Sequence[Sequence[object]], /) -> Any: ...


class SlotHold(Protocol):
    """A held load-more lock on one (turn, slot); ``release`` lets the next caller in."""

    def release(self) -> None: ...


class _NoHold:
    def release(self) -> None:
        return None


class OpenTurn(NamedTuple):
    """A turn's row, written in the same commit as its first frames."""

    turn_id: str
    owner: str
    session_id: str | None
    mode: str


def new_worker_id() -> int:
    """A process's id in the turns it drives: positive and fits an int4 (PostgreSQL
    advisory lock keys)."""
    return secrets.randbelow(2**31 - 2) + 1


class TurnStore:
    """Every record rule, over a backend's transactions."""

    # Whether writes may run on the event loop (an embedded database's commit takes
    # tens of microseconds) or must go to a worker thread (a network round trip).
    writes_on_loop: ClassVar[bool] = True
    # Whether several server processes may share this store (live follow across them).
    shared: ClassVar[bool] = False
    # The column that keeps insertion order where a table has no other.
    _order: ClassVar[str] = "rowid"
    # The database's errors: an answer it refuses is SaveFailed, never half-saved.
    _db_errors: ClassVar[tuple[type[Exception], ...]] = ()

    def __init__(self, keyring: Keyring) -> None:
        self._ring = keyring
        self.worker = new_worker_id()

    # --- what a backend provides ------------------------------------------------

    def _transaction(self) -> AbstractContextManager[Tx]:
        """A write transaction: committed when the block ends, rolled back on error."""
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Tx]:
        raise NotImplementedError

    def _dead_running(self, tx: Tx, turn_id: str | None) -> list[str]:
        """Running turns (all, or just ``turn_id``) whose process is gone, locked
        for this transaction where the backend can lock rows."""
        raise NotImplementedError

    def _announce(self, tx: Tx, turn_ids: Sequence[str]) -> None:
        """Tell other processes these turns have new frames (in this transaction)."""

    def close(self) -> None:
        raise NotImplementedError

    def checkpoint_due(self) -> bool:
        return False

    def checkpoint(self) -> None:
        return None

    def notifications(self) -> AsyncIterator[list[str]]:
        """Turn ids with newly committed frames, from every process (shared stores)."""
        raise StoreError("this store is not shared between processes")

    def lock_slot(self, turn_id: str, slot: str) -> SlotHold:
        """Hold one load-more of (turn, slot) against other processes. One process's
        callers take turns in ``beacon.server.slots``; this is for a shared store."""
        return _NoHold()

    # --- turns and frames -------------------------------------------------------

    def _insert_turns(self, tx: Tx, opens: Sequence[OpenTurn], now: float) -> None:
        for turn_id, owner, session_id, mode in opens:
            if session_id is not None:
                tx.execute(
                    "INSERT INTO sessions (id, owner, created_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (id) DO NOTHING",
                    (session_id, owner, now),
                )
                row = tx.execute("SELECT owner FROM sessions WHERE id = ?", (session_id,))
                if row.fetchone()[0] != owner:
                    raise SessionNotOwned(session_id)
            tx.execute(
                "INSERT INTO turns (id, session_id, owner, mode, status, created_at, worker) "
                "VALUES (?, ?, ?, ?, 'running', ?, ?)",
                (turn_id, session_id, owner, mode, now, self.worker),
            )

    def open_turn(self, turn_id: str, *, owner: str, session_id: str | None, mode: str) -> None:
        with self._transaction() as tx:
            self._insert_turns(tx, [OpenTurn(turn_id, owner, session_id, mode)], time.time())

    def interrupt_running(
        self, make: Callable[[str, int], bytes], turn_id: str | None = None
    ) -> list[str]:
        """Finish running turns whose process is gone: each gets one ``error`` frame
        (``make(turn_id, seq)`` encodes it) after its last stored frame, and its
        status, in one commit. With ``turn_id``, only that turn. A turn another live
        process drives is left alone."""
        with self._transaction() as tx:
            ids = self._dead_running(tx, turn_id)
            for stuck in ids:
                (last,) = tx.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM frames WHERE turn_id = ?", (stuck,)
                ).fetchone()
                seq = int(last) + 1
                sealed = seal(
                    self._ring, make(stuck, seq), context=record_context(stuck, "frame", str(seq))
                )
                tx.execute(
                    "INSERT INTO frames (turn_id, seq, type, body) VALUES (?, ?, 'error', ?)",
                    (stuck, seq, sealed),
                )
                tx.execute("UPDATE turns SET status = 'error' WHERE id = ?", (stuck,))
            self._announce(tx, ids)
        return ids

    def append_frames(self, frames: Sequence[FrameRow], opens: Sequence[OpenTurn] = ()) -> None:
        """Many frames (of any turns) in one transaction: one writer, few commits.
        ``opens`` are turns whose row is written in the same commit as their first
        frame, so a turn costs no commit of its own before its ``start`` is out."""
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
        with self._transaction() as tx:
            self._insert_turns(tx, opens, time.time())
            tx.executemany(
                "INSERT INTO frames (turn_id, seq, type, body) VALUES (?, ?, ?, ?)", rows
            )
            # A terminal frame finishes its turn in the same commit.
            tx.executemany("UPDATE turns SET status = ? WHERE id = ?", terminals)
            self._announce(tx, sorted({turn_id for turn_id, *_ in frames}))

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
            with self._transaction() as tx:
                tx.execute(
                    "INSERT INTO answers (turn_id, body, sources, saved_at) VALUES (?, ?, ?, ?)",
                    (
                        turn_id,
                        seal(self._ring, answer, context=record_context(turn_id, "answer")),
                        sealed_sources,
                        now,
                    ),
                )
                if session_id is not None:
                    for role, text in (("user", question), ("assistant", answer)):
                        context = record_context(session_id, "message", turn_id, role)
                        tx.execute(
                            "INSERT INTO messages (session_id, turn_id, role, body, created_at) "
                            "VALUES (?, ?, ?, ?, ?)",
                            (
                                session_id,
                                turn_id,
                                role,
                                seal(self._ring, text, context=context),
                                now,
                            ),
                        )
                for slot, record in (pages or {}).items():
                    self._write_pages(tx, turn_id, slot, record)
                if audit:
                    tx.executemany(AUDIT_INSERT, [_audit_values(row) for row in audit])
                tx.executemany(
                    "INSERT INTO narration_audit (turn_id, kind, rule, token, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(turn_id, n["kind"], n["rule"], n["token"], now) for n in narration],
                )
                if narrowing is not None:
                    self._write_narrowing(tx, *narrowing)
        except self._db_errors as exc:
            raise SaveFailed(f"the answer could not be saved: {exc}") from exc

    def turn(self, turn_id: str) -> TurnRecord | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT id, session_id, owner, mode, status FROM turns WHERE id = ?", (turn_id,)
            ).fetchone()
        return TurnRecord(*row) if row else None

    def frames_after(self, turn_id: str, after: int) -> list[bytes]:
        with self._reading() as db:
            rows = self._frame_rows(db, turn_id, after)
        return [body for _, body in self._open_frames(turn_id, rows)]

    def frames_since(self, turn_id: str, after: int) -> tuple[str | None, list[StoredFrame]]:
        """The turn's status and its frames with seq > ``after``. The status is read
        first: a status other than ``running`` means the terminal is among the frames."""
        with self._reading() as db:
            status = db.execute("SELECT status FROM turns WHERE id = ?", (turn_id,)).fetchone()
            rows = self._frame_rows(db, turn_id, after)
        return (None if status is None else str(status[0])), self._open_frames(turn_id, rows)

    @staticmethod
    def _frame_rows(db: Tx, turn_id: str, after: int) -> list[Any]:
        return db.execute(
            "SELECT seq, body FROM frames WHERE turn_id = ? AND seq > ? ORDER BY seq",
            (turn_id, after),
        ).fetchall()

    def _open_frames(self, turn_id: str, rows: list[Any]) -> list[StoredFrame]:
        # Unsealed outside the read: the connection is not held for the decryption.
        return [
            (int(seq), unseal(self._ring, body, context=record_context(turn_id, "frame", str(seq))))
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
                f"ORDER BY created_at, {self._order}",
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

    # --- per-session and per-slot records ---------------------------------------

    def _get_json(self, sql: str, key: tuple[str, ...], context: bytes) -> Any:
        with self._reading() as db:
            row = db.execute(sql, key).fetchone()
        return None if row is None else json.loads(unseal_text(self._ring, row[0], context=context))

    def _write_narrowing(self, tx: Tx, session_id: str, record: dict[str, Any] | None) -> None:
        """The session's narrowing (None clears it): owned by dispatch, not the model."""
        if record is None:
            tx.execute("DELETE FROM narrowing WHERE session_id = ?", (session_id,))
            return
        body = seal(self._ring, json.dumps(record), context=record_context(session_id, "narrowing"))
        tx.execute(
            "INSERT INTO narrowing (session_id, body, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (session_id) DO UPDATE SET body = excluded.body, "
            "updated_at = excluded.updated_at",
            (session_id, body, time.time()),
        )

    def load_narrowing(self, session_id: str) -> dict[str, Any] | None:
        found = self._get_json(
            "SELECT body FROM narrowing WHERE session_id = ?",
            (session_id,),
            record_context(session_id, "narrowing"),
        )
        return found if isinstance(found, dict) else None

    def _write_pages(self, tx: Tx, turn_id: str, slot: str, record: dict[str, Any]) -> None:
        body = seal(self._ring, json.dumps(record), context=record_context(turn_id, "pages", slot))
        tx.execute(
            "INSERT INTO pages (turn_id, slot, body) VALUES (?, ?, ?) "
            "ON CONFLICT (turn_id, slot) DO UPDATE SET body = excluded.body",
            (turn_id, slot, body),
        )

    def save_pages(self, turn_id: str, slot: str, record: dict[str, Any]) -> None:
        """What load-more needs to fetch and stitch the next page of one source."""
        with self._transaction() as tx:
            self._write_pages(tx, turn_id, slot, record)

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
        with self._transaction() as tx:
            tx.execute(
                "INSERT INTO feedback (turn_id, owner, rating, body, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (turn_id) DO UPDATE SET owner = excluded.owner, "
                "rating = excluded.rating, body = excluded.body, at = excluded.at",
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

    # --- audit ------------------------------------------------------------------

    def record_audit(self, rows: Sequence[dict[str, Any]]) -> None:
        with self._transaction() as tx:
            tx.executemany(AUDIT_INSERT, [_audit_values(row) for row in rows])

    def narration_drops(self, turn_id: str) -> list[dict[str, str]]:
        """The turn's narration audit rows, in the order they were made."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT kind, rule, token FROM narration_audit WHERE turn_id = ? "
                f"ORDER BY {self._order}",
                (turn_id,),
            ).fetchall()
        return [{"kind": k, "rule": r, "token": t} for k, r, t in rows]

    def audit_rows(self, turn_id: str) -> list[dict[str, Any]]:
        columns = ", ".join(AUDIT_COLUMNS)
        with self._reading() as db:
            rows = db.execute(
                f"SELECT {columns} FROM audit WHERE turn_id = ? ORDER BY {self._order}",
                (turn_id,),
            ).fetchall()
        return [dict(zip(AUDIT_COLUMNS, row, strict=True)) for row in rows]


def _audit_values(row: Mapping[str, Any]) -> tuple[object, ...]:
    # Flags are stored as 0/1 on every backend (PostgreSQL will not take a bool
    # into an integer column).
    return tuple(int(row[c]) if c in ("allowed", "hint_present") else row[c] for c in AUDIT_COLUMNS)


async def call_write(store: TurnStore, write: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run one of ``store``'s writes where that backend's writes belong: on the event
    loop for an embedded database, in a worker thread for one across a socket."""
    if store.writes_on_loop:
        return write(*args, **kwargs)
    return await anyio.to_thread.run_sync(partial(write, *args, **kwargs))
