"""The durable record of turns: sessions, frames, answers, audit rows.

Content is sealed (AES-256-GCM, ``beacon.store.crypto``) with the record's
owner and place as associated data, so a row copied elsewhere, or handed to
another owner by rewriting a column, does not open.

A backend turns a lost connection into ``StoreUnavailable``; reads are tried
once more after one (the pool hands out a checked connection the second time).
Frames are appended only to turns this process still drives: a turn another
process finished (it found this process's liveness lock gone) refuses them
with ``TurnTaken``, so a turn never gets two terminals.

``TurnStore`` holds every record rule once; a backend supplies connections,
transactions and what only it can know — which turns' processes are alive.
Two backends: SQLite (``sqlite.py``: embedded, one writing process) and
PostgreSQL (``postgres.py``: several server processes on one database, with
live followers told of new frames by NOTIFY). The SQL below is the subset both
speak; a backend's ``_tx`` rewrites the placeholders where needed.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from functools import partial
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

import anyio
from pydantic import BaseModel

from beacon.policy.audit import AuditRow
from beacon.store.crypto import Keyring, record_context, seal, unseal
from beacon.store.errors import (
    KeyringError,
    SealedReason,
    SealedRecordError,
    StoreError,
    StoreUnavailable,
    TurnTaken,
)
from beacon.store.records import (
    Message,
    NarrowingRecord,
    PageRecord,
    SaveFailed,
    SessionNotOwned,
    TurnRecord,
    parse_record,
)
from beacon.store.schema import AUDIT_COLUMNS, AUDIT_INSERT, TOOL_CALL_COLUMNS, TOOL_CALL_INSERT
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
R = TypeVar("R", bound=BaseModel)
KEY_CHECK_SAMPLE = 20
SEALED_TOKEN = "sealed:"  # a narration_audit token sealed at rest (base64 after it)
# Who owns the record a JSON read opens (its first key is the turn's or session's id).
TURN_OWNER = "SELECT owner FROM turns WHERE id = ?"
SESSION_OWNER = "SELECT owner FROM sessions WHERE id = ?"
# The frames whose commit ends a user's wait for the answer (the first of them is
# ``turns.first_answer_at``); an error frame's ``code`` is kept in the clear
# (one of Beacon's own codes, never the message).
ANSWER_FRAMES = frozenset({"delta", *TERMINAL_FRAMES})
_CODE = re.compile(r"[a-z][a-z0-9_]{0,47}")


class Rows(Protocol):
    @property
    def rowcount(self) -> int: ...
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
    # Appended to a SELECT that must hold its rows until the commit (PostgreSQL).
    _lock_rows: ClassVar[str] = ""
    # Appended to the pruner's SELECTs: rows another transaction holds are left for later.
    _skip_locked: ClassVar[str] = ""

    def __init__(self, keyring: Keyring) -> None:
        self._ring = keyring
        self.worker = new_worker_id()
        # The time records are stamped with (tests age a store by setting it).
        self.clock: Callable[[], float] = time.time

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

    def ready(self) -> bool:
        """Whether this process may take new turns: its store connection and its
        liveness lock are held (a shared store); an embedded one always is."""
        return True

    def keep_alive(self) -> bool:
        """Check the liveness connection and take it (and the lock) back if lost;
        returns ``ready()``. The server calls it every second."""
        return True

    @contextmanager
    def prune_hold(self) -> Iterator[bool]:
        """Whether this process may prune now (``beacon.store.retention``): one
        process at a time on a shared store; an embedded one has one writer."""
        yield True

    # --- sealing: the owner and the record's place are the associated data --------

    def _seal(self, data: bytes | str, owner: str, *place: str) -> bytes:
        return seal(self._ring, data, context=record_context(owner, *place))

    def _unseal(self, record: bytes, owner: str, *place: str) -> bytes:
        return unseal(
            self._ring,
            record,
            context=record_context(owner, *place),
            legacy_context=record_context(*place),
        )

    def _unseal_text(self, record: bytes, owner: str, *place: str) -> str:
        try:
            return self._unseal(record, owner, *place).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SealedRecordError(SealedReason.NOT_TEXT, "the record holds bytes") from exc

    def _read(self, read: Callable[[Tx], T]) -> T:
        """One read; tried once more when the connection was lost under it."""
        try:
            with self._reading() as db:
                return read(db)
        except StoreUnavailable:
            with self._reading() as db:
                return read(db)

    def check_keys(self, sample: int = KEY_CHECK_SAMPLE) -> None:
        """Refuse a key ring that opens fewer than half of the most recent turns'
        first frames: every reattach would fail, and frames it sealed into a dead
        process's turn would be unreadable to the processes holding the right keys."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT t.id, t.owner, f.body FROM turns t JOIN frames f "
                "ON f.turn_id = t.id AND f.seq = 1 ORDER BY t.created_at DESC LIMIT ?",
                (sample,),
            ).fetchall()
        )
        opened = sum(
            1 for turn_id, owner, body in rows if self._unseals(body, owner, turn_id, "frame", 1)
        )
        if rows and opened * 2 < len(rows):
            raise KeyringError(
                f"BEACON_KEYS opens {opened} of the {len(rows)} most recent turns in BEACON_DB: "
                "start with the key ring that sealed them (to rotate, put a new key first "
                "and keep the old ones)"
            )

    def _owner_of_turn(self, db: Tx, turn_id: str) -> str | None:
        row = db.execute("SELECT owner FROM turns WHERE id = ?", (turn_id,)).fetchone()
        return None if row is None else str(row[0])

    def _owner_of_session(self, db: Tx, session_id: str) -> str | None:
        row = db.execute("SELECT owner FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return None if row is None else str(row[0])

    def checkpoint_due(self) -> bool:
        return False

    def checkpoint(self) -> None:
        return None

    def notifications(
        self, listening: Callable[[], object] | None = None
    ) -> AsyncIterator[list[str]]:
        """Turn ids with newly committed frames, from every process (shared stores);
        ``listening`` is called once a commit from now on will be announced."""
        raise StoreError("this store is not shared between processes")

    def lock_slot(self, turn_id: str, slot: str) -> SlotHold:
        """Hold one load-more of (turn, slot) against other processes. One process's
        callers take turns in ``beacon.server.slots``; this is for a shared store."""
        return _NoHold()

    # --- turns and frames -------------------------------------------------------

    def _insert_turns(self, tx: Tx, opens: Sequence[OpenTurn], now: float) -> None:
        for turn_id, owner, session_id, mode in opens:
            if session_id is not None:
                found = None
                for _ in range(2):
                    tx.execute(
                        "INSERT INTO sessions (id, owner, created_at) VALUES (?, ?, ?) "
                        "ON CONFLICT (id) DO NOTHING",
                        (session_id, owner, now),
                    )
                    # Held to the commit (PostgreSQL): the pruner deletes only a session
                    # it could lock and found without turns. One it deleted under us is
                    # gone when the lock is granted: written again, as a new session.
                    found = tx.execute(
                        f"SELECT owner FROM sessions WHERE id = ?{self._lock_rows}", (session_id,)
                    ).fetchone()
                    if found is not None:
                        break
                if found is None or found[0] != owner:
                    raise SessionNotOwned(session_id)
            tx.execute(
                "INSERT INTO turns (id, session_id, owner, mode, status, created_at, worker) "
                "VALUES (?, ?, ?, ?, 'running', ?, ?)",
                (turn_id, session_id, owner, mode, now, self.worker),
            )

    def open_turn(self, turn_id: str, *, owner: str, session_id: str | None, mode: str) -> None:
        with self._transaction() as tx:
            self._insert_turns(tx, [OpenTurn(turn_id, owner, session_id, mode)], self.clock())

    def interrupt_running(
        self, make: Callable[[str, int], bytes], turn_id: str | None = None
    ) -> list[str]:
        """Finish running turns whose process is gone: each gets one ``error`` frame
        (``make(turn_id, seq)`` encodes it) after its last stored frame, and its
        status, in one commit. With ``turn_id``, only that turn. A turn another live
        process drives is left alone."""
        finished = []
        with self._transaction() as tx:
            for stuck in self._dead_running(tx, turn_id):
                owner = self._owner_of_turn(tx, stuck) or ""
                last = tx.execute(
                    "SELECT seq, body FROM frames WHERE turn_id = ? ORDER BY seq DESC LIMIT 1",
                    (stuck,),
                ).fetchone()
                if last is not None and not self._unseals(last[1], owner, stuck, "frame", last[0]):
                    # Sealed under keys this process lacks: a frame sealed here would
                    # make the turn unreadable to the processes that hold them.
                    continue
                seq = 1 if last is None else int(last[0]) + 1
                tx.execute(
                    "INSERT INTO frames (turn_id, seq, type, body) VALUES (?, ?, 'error', ?)",
                    (stuck, seq, self._seal(make(stuck, seq), owner, stuck, "frame", str(seq))),
                )
                tx.execute(
                    "UPDATE turns SET status = 'error', code = 'interrupted', ended_at = ?, "
                    "first_answer_at = COALESCE(first_answer_at, ?) WHERE id = ?",
                    (self.clock(), self.clock(), stuck),
                )
                finished.append(stuck)
            self._announce(tx, finished)
        return finished

    def _unseals(self, record: bytes, owner: str, *place: object) -> bool:
        try:
            self._unseal(record, owner, *(str(p) for p in place))
        except SealedRecordError:
            return False
        return True

    def append_frames(self, frames: Sequence[FrameRow], opens: Sequence[OpenTurn] = ()) -> None:
        """Many frames (of any turns) in one transaction: one writer, few commits.
        ``opens`` are turns whose row is written in the same commit as their first
        frame, so a turn costs no commit of its own before its ``start`` is out."""
        now = self.clock()
        terminals = [
            (t, _end_code(t, encoded), now, now, turn_id)
            for turn_id, _, t, encoded in frames
            if t in TERMINAL_FRAMES
        ]
        answering = sorted({turn_id for turn_id, _, t, _ in frames if t in ANSWER_FRAMES})
        with self._transaction() as tx:
            self._insert_turns(tx, opens, now)
            owners = {o.turn_id: o.owner for o in opens} | self._driven(
                tx, {turn_id for turn_id, *_ in frames} - {o.turn_id for o in opens}
            )
            rows = [
                (
                    turn_id,
                    seq,
                    frame_type,
                    self._seal(encoded, owners[turn_id], turn_id, "frame", str(seq)),
                )
                for turn_id, seq, frame_type, encoded in frames
            ]
            tx.executemany(
                "INSERT INTO frames (turn_id, seq, type, body) VALUES (?, ?, ?, ?)", rows
            )
            # The answer's first frame, and a terminal finishing its turn, in the same commit.
            tx.executemany(
                "UPDATE turns SET first_answer_at = ? WHERE id = ? AND first_answer_at IS NULL",
                [(now, turn_id) for turn_id in answering],
            )
            tx.executemany(
                "UPDATE turns SET status = ?, code = ?, ended_at = ?, "
                "first_answer_at = COALESCE(first_answer_at, ?) WHERE id = ?",
                terminals,
            )
            self._announce(tx, sorted({turn_id for turn_id, *_ in frames}))

    def _driven(self, tx: Tx, turn_ids: set[str]) -> dict[str, str]:
        """The owners of ``turn_ids``, each still running and driven by this process
        (rows held to the commit where the backend can); else ``TurnTaken``."""
        if not turn_ids:
            return {}
        ordered = sorted(turn_ids)
        marks = ", ".join("?" for _ in ordered)
        found = tx.execute(
            f"SELECT id, owner FROM turns WHERE id IN ({marks}) AND status = 'running' "
            f"AND worker = ?{self._lock_rows}",
            (*ordered, self.worker),
        ).fetchall()
        owners = {str(turn_id): str(owner) for turn_id, owner in found}
        taken = [turn_id for turn_id in ordered if turn_id not in owners]
        if taken:
            raise TurnTaken(taken)
        return owners

    def save_answer(
        self,
        turn_id: str,
        *,
        session_id: str | None,
        question: str,
        answer: str,
        sources: Sequence[dict[str, Any]],
        pages: Mapping[str, PageRecord] | None = None,
        audit: Sequence[AuditRow] = (),
        narrowing: tuple[str, NarrowingRecord | None] | None = None,
        narration: Sequence[Mapping[str, str]] = (),
        tool_calls: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        """Body and sources in one transaction — with the transcript (chat mode), the
        load-more pages, the turn's audit rows (the PEP's, the narration's: every
        dropped sentence and slot verdict, ``{kind, rule, token}``, and one
        ``tool_calls`` row per call) and the session's narrowing, so a turn is saved
        whole or not at all, in one commit."""
        now = self.clock()
        try:
            with self._transaction() as tx:
                owner = self._owner_of_turn(tx, turn_id)
                if owner is None:
                    raise SaveFailed("the answer could not be saved: its turn is not stored")
                tx.execute(
                    "INSERT INTO answers (turn_id, body, sources, saved_at) VALUES (?, ?, ?, ?)",
                    (
                        turn_id,
                        self._seal(answer, owner, turn_id, "answer"),
                        self._seal(json.dumps(list(sources)), owner, turn_id, "sources"),
                        now,
                    ),
                )
                if session_id is not None:
                    # The session's owner is the turn's (_insert_turns refuses another).
                    for role, text in (("user", question), ("assistant", answer)):
                        tx.execute(
                            "INSERT INTO messages (session_id, turn_id, role, body, created_at) "
                            "VALUES (?, ?, ?, ?, ?)",
                            (
                                session_id,
                                turn_id,
                                role,
                                self._seal(text, owner, session_id, "message", turn_id, role),
                                now,
                            ),
                        )
                for slot, record in (pages or {}).items():
                    self._write_pages(tx, turn_id, slot, record, owner)
                if audit:
                    tx.executemany(AUDIT_INSERT, [_audit_values(row) for row in audit])
                self._write_tool_calls(tx, tool_calls, now)
                tx.executemany(
                    "INSERT INTO narration_audit (turn_id, kind, rule, token, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [
                        (turn_id, n["kind"], n["rule"], self._seal_token(n, owner, turn_id), now)
                        for n in narration
                    ],
                )
                if narrowing is not None:
                    self._write_narrowing(tx, *narrowing)
        except self._save_errors() as exc:
            raise SaveFailed(f"the answer could not be saved: {exc}") from exc

    def _save_errors(self) -> tuple[type[Exception], ...]:
        return (StoreUnavailable, *self._db_errors)

    def turn(self, turn_id: str) -> TurnRecord | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT id, session_id, owner, mode, status FROM turns WHERE id = ?", (turn_id,)
            ).fetchone()
        )
        return TurnRecord(*row) if row else None

    def frames_after(self, turn_id: str, after: int) -> list[bytes]:
        return [body for _, body in self.frames_since(turn_id, after)[1]]

    def frames_since(self, turn_id: str, after: int) -> tuple[str | None, list[StoredFrame]]:
        """The turn's status and its frames with seq > ``after``. The status is read
        first: a status other than ``running`` means the terminal is among the frames."""

        def read(db: Tx) -> tuple[Any, list[Any]]:
            head = db.execute("SELECT status, owner FROM turns WHERE id = ?", (turn_id,))
            found = head.fetchone()
            rows = db.execute(
                "SELECT seq, body FROM frames WHERE turn_id = ? AND seq > ? ORDER BY seq",
                (turn_id, after),
            ).fetchall()
            return found, rows

        found, rows = self._read(read)
        if found is None:
            return None, []
        status, owner = str(found[0]), str(found[1])
        # Unsealed outside the read: the connection is not held for the decryption.
        return status, [
            (int(seq), self._unseal(body, owner, turn_id, "frame", str(seq))) for seq, body in rows
        ]

    def answer(self, turn_id: str) -> tuple[str, list[dict[str, Any]]] | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT a.body, a.sources, t.owner FROM answers a JOIN turns t "
                "ON t.id = a.turn_id WHERE a.turn_id = ?",
                (turn_id,),
            ).fetchone()
        )
        if row is None:
            return None
        owner = str(row[2])
        body = self._unseal_text(row[0], owner, turn_id, "answer")
        sources = self._unseal_text(row[1], owner, turn_id, "sources")
        return body, json.loads(sources)

    def session_owner(self, session_id: str) -> str | None:
        return self._read(lambda db: self._owner_of_session(db, session_id))

    def transcript(self, session_id: str) -> list[Message]:
        def read(db: Tx) -> tuple[str | None, list[Any]]:
            rows = db.execute(
                "SELECT turn_id, role, body FROM messages WHERE session_id = ? "
                f"ORDER BY created_at, {self._order}",
                (session_id,),
            ).fetchall()
            return self._owner_of_session(db, session_id), rows

        owner, rows = self._read(read)
        return [
            Message(
                turn_id,
                role,
                self._unseal_text(body, owner or "", session_id, "message", turn_id, role),
            )
            for turn_id, role, body in rows
        ]

    # --- per-session and per-slot records ---------------------------------------

    def _get_record(
        self, kind: type[R], sql: str, key: tuple[str, ...], owner_sql: str, *place: str
    ) -> R | None:
        """One sealed record, opened with its owner (read by ``owner_sql``) and
        parsed as ``kind``: one that does not parse is unreadable."""

        def read(db: Tx) -> tuple[Any, Any]:
            owner = db.execute(owner_sql, (key[0],)).fetchone()
            return db.execute(sql, key).fetchone(), owner

        row, owner = self._read(read)
        if row is None:
            return None
        text = self._unseal_text(row[0], "" if owner is None else str(owner[0]), *place)
        return parse_record(kind, text)

    def _write_narrowing(self, tx: Tx, session_id: str, record: NarrowingRecord | None) -> None:
        """The session's narrowing (None clears it): owned by dispatch, not the model."""
        if record is None:
            tx.execute("DELETE FROM narrowing WHERE session_id = ?", (session_id,))
            return
        owner = self._owner_of_session(tx, session_id) or ""
        body = self._seal(record.model_dump_json(), owner, session_id, "narrowing")
        tx.execute(
            "INSERT INTO narrowing (session_id, body, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (session_id) DO UPDATE SET body = excluded.body, "
            "updated_at = excluded.updated_at",
            (session_id, body, self.clock()),
        )

    def load_narrowing(self, session_id: str) -> NarrowingRecord | None:
        return self._get_record(
            NarrowingRecord,
            "SELECT body FROM narrowing WHERE session_id = ?",
            (session_id,),
            SESSION_OWNER,
            session_id,
            "narrowing",
        )

    def _write_pages(
        self, tx: Tx, turn_id: str, slot: str, record: PageRecord, owner: str | None = None
    ) -> None:
        owner = owner if owner is not None else self._owner_of_turn(tx, turn_id) or ""
        body = self._seal(record.model_dump_json(), owner, turn_id, "pages", slot)
        tx.execute(
            "INSERT INTO pages (turn_id, slot, body) VALUES (?, ?, ?) "
            "ON CONFLICT (turn_id, slot) DO UPDATE SET body = excluded.body",
            (turn_id, slot, body),
        )

    def save_pages(self, turn_id: str, slot: str, record: PageRecord) -> None:
        """What load-more needs to fetch and stitch the next page of one source."""
        with self._transaction() as tx:
            self._write_pages(tx, turn_id, slot, record)

    def page_slots(self, turn_id: str) -> list[str]:
        """The slots of a turn that kept a load-more record."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT slot FROM pages WHERE turn_id = ? ORDER BY slot", (turn_id,)
            ).fetchall()
        )
        return [str(r[0]) for r in rows]

    def load_page_record(self, turn_id: str, slot: str) -> PageRecord | None:
        return self._get_record(
            PageRecord,
            "SELECT body FROM pages WHERE turn_id = ? AND slot = ?",
            (turn_id, slot),
            TURN_OWNER,
            turn_id,
            "pages",
            slot,
        )

    def save_feedback(self, turn_id: str, *, owner: str, rating: str, comment: str) -> None:
        """The user's verdict on an answer; the comment is content, so it is sealed."""
        with self._transaction() as tx:
            owner = self._owner_of_turn(tx, turn_id) or owner
            body = self._seal(comment, owner, turn_id, "feedback")
            tx.execute(
                "INSERT INTO feedback (turn_id, owner, rating, body, at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (turn_id) DO UPDATE SET owner = excluded.owner, "
                "rating = excluded.rating, body = excluded.body, at = excluded.at",
                (turn_id, owner, rating, body, self.clock()),
            )

    def feedback(self, turn_id: str) -> tuple[str, str] | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT f.rating, f.body, t.owner FROM feedback f JOIN turns t "
                "ON t.id = f.turn_id WHERE f.turn_id = ?",
                (turn_id,),
            ).fetchone()
        )
        if row is None:
            return None
        return str(row[0]), self._unseal_text(row[1], str(row[2]), turn_id, "feedback")

    # --- audit ------------------------------------------------------------------

    def record_audit(
        self, rows: Sequence[AuditRow], tool_calls: Sequence[Mapping[str, Any]] = ()
    ) -> None:
        """A turn's audit rows without an answer (the turn ended in an error)."""
        with self._transaction() as tx:
            tx.executemany(AUDIT_INSERT, [_audit_values(row) for row in rows])
            self._write_tool_calls(tx, tool_calls, self.clock())

    def _write_tool_calls(self, tx: Tx, rows: Sequence[Mapping[str, Any]], now: float) -> None:
        # Codes and numbers only: the arguments are a digest (beacon.loop.evidence).
        tx.executemany(
            TOOL_CALL_INSERT,
            [
                tuple(
                    now if c == "at" else int(row[c]) if c == "total_is_lower_bound" else row.get(c)
                    for c in TOOL_CALL_COLUMNS
                )
                for row in rows
            ],
        )

    def tool_calls(self, turn_id: str) -> list[dict[str, Any]]:
        """The turn's ``tool_calls`` rows, in the order they were made."""
        columns = ", ".join(TOOL_CALL_COLUMNS)
        rows = self._read(
            lambda db: db.execute(
                f"SELECT {columns} FROM tool_calls WHERE turn_id = ? ORDER BY {self._order}",
                (turn_id,),
            ).fetchall()
        )
        return [dict(zip(TOOL_CALL_COLUMNS, row, strict=True)) for row in rows]

    def _seal_token(self, row: Mapping[str, str], owner: str, turn_id: str) -> str:
        """The dropped phrase is the model's or the user's words: sealed, as base64
        text in its text column (kind and rule, the guard's own codes, stay clear)."""
        sealed = self._seal(row["token"], owner, turn_id, "narration", row["kind"], row["rule"])
        return SEALED_TOKEN + base64.b64encode(sealed).decode("ascii")

    def narration_drops(self, turn_id: str) -> list[dict[str, str]]:
        """The turn's narration audit rows, in the order they were made."""

        def read(db: Tx) -> tuple[str | None, list[Any]]:
            rows = db.execute(
                "SELECT kind, rule, token FROM narration_audit WHERE turn_id = ? "
                f"ORDER BY {self._order}",
                (turn_id,),
            ).fetchall()
            return self._owner_of_turn(db, turn_id), rows

        owner, rows = self._read(read)

        def token(kind: str, rule: str, stored: str) -> str:
            if not stored.startswith(SEALED_TOKEN):
                return stored  # written before tokens were sealed
            sealed = base64.b64decode(stored.removeprefix(SEALED_TOKEN))
            return self._unseal_text(sealed, owner or "", turn_id, "narration", kind, rule)

        return [{"kind": k, "rule": r, "token": token(k, r, t)} for k, r, t in rows]

    def capabilities_used(self, turn_ids: Sequence[str]) -> dict[str, set[str]]:
        """The capabilities each turn's allowed calls used, by turn (the PEP's rows)."""
        if not turn_ids:
            return {}
        marks = ", ".join("?" for _ in turn_ids)
        rows = self._read(
            lambda db: db.execute(
                f"SELECT turn_id, capability FROM audit WHERE turn_id IN ({marks}) "
                "AND allowed = 1 AND capability IS NOT NULL",
                tuple(turn_ids),
            ).fetchall()
        )
        used: dict[str, set[str]] = {}
        for turn_id, capability in rows:
            used.setdefault(str(turn_id), set()).add(str(capability))
        return used

    def audit_rows(self, turn_id: str) -> list[AuditRow]:
        columns = ", ".join(AUDIT_COLUMNS)
        rows = self._read(
            lambda db: db.execute(
                f"SELECT {columns} FROM audit WHERE turn_id = ? ORDER BY {self._order}",
                (turn_id,),
            ).fetchall()
        )
        return [_audit_row(row) for row in rows]


def _end_code(frame_type: str, encoded: bytes) -> str | None:
    """An error frame's code (SSE text: its ``data:`` line is the frame's JSON)."""
    if frame_type != "error":
        return None
    for line in encoded.split(b"\n"):
        if line.startswith(b"data: "):
            try:
                code = json.loads(line[6:]).get("code")
            except (ValueError, AttributeError):
                return "unreadable"
            return code if isinstance(code, str) and _CODE.fullmatch(code) else "other"
    return "unreadable"


def _audit_values(row: AuditRow) -> tuple[object, ...]:
    # Flags are stored as 0/1 on every backend (PostgreSQL will not take a bool
    # into an integer column).
    values = row.as_record()
    return tuple(
        int(values[c]) if c in ("allowed", "hint_present") else values[c] for c in AUDIT_COLUMNS
    )


def _audit_row(stored: Sequence[Any]) -> AuditRow:
    """A stored audit row (columns in ``AUDIT_COLUMNS`` order) as the PEP wrote it;
    one whose time does not parse is unreadable."""
    turn_id, sub, tool, capability, allowed, reason, hint_present, at = stored
    try:
        when = datetime.fromisoformat(str(at))
    except ValueError as exc:
        raise SealedRecordError(
            SealedReason.MALFORMED_RECORD, "an audit row's time does not parse"
        ) from exc
    return AuditRow(
        turn_id=str(turn_id),
        sub=str(sub),
        tool=str(tool),
        capability=None if capability is None else str(capability),
        allowed=bool(allowed),
        reason=str(reason),
        hint_present=bool(hint_present),
        at=when,
    )


async def call_write(store: TurnStore, write: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run one of ``store``'s writes where that backend's writes belong: on the event
    loop for an embedded database, in a worker thread for one across a socket."""
    if store.writes_on_loop:
        return write(*args, **kwargs)
    return await anyio.to_thread.run_sync(partial(write, *args, **kwargs))
