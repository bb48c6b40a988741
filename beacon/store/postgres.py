"""The shared turn store: PostgreSQL, for several server processes on one database.

Every record rule is ``TurnStore``'s; this module gives it the hooks of
``beacon.store.backends.Backend`` that several processes need, built on PostgreSQL
itself (no broker of our own):

* **Which process is alive.** Each store takes a session-level advisory lock
  ``(WORKER_LOCKS, worker)`` on a connection it holds for its life, and writes
  its ``worker`` id into every turn it opens. PostgreSQL drops the lock the
  moment that connection ends — a SIGKILLed process's socket is closed by the
  kernel — so "the process driving this running turn is gone" is one query on
  ``pg_locks``, exact, with no lease to wait out.
* **Live frames across processes.** Every commit of frames sends
  ``NOTIFY beacon_frames, '<turn ids>'`` inside its transaction (delivered only
  if it commits); ``notifications()`` is a LISTEN connection a server follows.
* **One load-more per slot across processes**: an advisory lock per (turn, slot).
* **Losing the database and getting it back.** ``keep_alive`` (every second,
  from the server) checks the liveness connection; when it is gone (a restart,
  ``pg_terminate_backend``) the store is not ready — the server takes no new
  turn and ``/healthz`` says so — until it has reconnected and taken its same
  worker lock back. A process that found the lock gone meanwhile may have
  finished this one's turns: their next frames are refused (``TurnTaken``) and
  the owner adopts that terminal. The pool checks a connection before handing
  it out, and a lost connection surfaces as ``StoreUnavailable``.

Writes go to a worker thread (``writes_on_loop`` is off): a commit is a round
trip, and a pool may make a caller wait for a connection.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

import psycopg
from psycopg_pool import ConnectionPool

from beacon.store.backends import SlotHold, Tx, psycopg_sql
from beacon.store.core import new_worker_id
from beacon.store.crypto import Keyring
from beacon.store.errors import StoreError, StoreUnavailable
from beacon.store.schema import POSTGRES_SCHEMA
from beacon.store.turns import TurnStore

FRAMES_CHANNEL = "beacon_frames"
# Advisory lock namespaces (the first int4 of a two-key lock).
SCHEMA_LOCK = 0x62656101  # migrations: one process at a time
WORKER_LOCKS = 0x62656102  # one per live store: (WORKER_LOCKS, worker)
SLOT_LOCKS = 0x62656103  # one per load-more in flight: (SLOT_LOCKS, hashtext(turn, slot))
PRUNE_LOCK = 0x62656104  # the one pruner across processes: (PRUNE_LOCK, 0)
# A NOTIFY payload is at most 8000 bytes; turn ids are ~30.
NOTIFY_IDS_PER_PAYLOAD = 200
POOL_MAX = 16
POOL_WAIT_S = 10.0
CONNECT_TIMEOUT_S = 5


def _execute(
    conn: psycopg.Connection[Any], sql: str, params: Sequence[object] = ()
) -> psycopg.Cursor[Any]:
    return conn.execute(psycopg_sql(sql), params)


class _PgTx:
    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[object] = (), /) -> psycopg.Cursor[Any]:
        return _execute(self._conn, sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[object]], /) -> None:
        if rows:
            with self._conn.cursor() as cursor:
                cursor.executemany(psycopg_sql(sql), rows)


class _SlotHold:
    def __init__(self, pool: ConnectionPool[Any], conn: psycopg.Connection[Any], key: str) -> None:
        self._pool, self._conn, self._key = pool, conn, key

    def release(self) -> None:
        try:
            _execute(
                self._conn, "SELECT pg_advisory_unlock(?, hashtext(?))", (SLOT_LOCKS, self._key)
            )
            self._conn.commit()
        finally:
            self._pool.putconn(self._conn)


class PostgresStore(TurnStore):
    writes_on_loop: ClassVar[bool] = False
    shared: ClassVar[bool] = True
    order_column: ClassVar[str] = "n"
    db_errors: ClassVar[tuple[type[Exception], ...]] = (psycopg.Error,)
    lock_rows: ClassVar[str] = " FOR UPDATE"
    skip_locked: ClassVar[str] = " FOR UPDATE SKIP LOCKED"

    def __init__(self, url: str, keyring: Keyring, *, pool_max: int = POOL_MAX) -> None:
        super().__init__(keyring)
        self.url = url
        try:
            self._life = self._connect()
        except psycopg.Error as exc:
            raise StoreError(f"cannot reach PostgreSQL: {_first_line(exc)}") from exc
        self._migrate()
        self.worker = self._claim_worker()
        self._ready = True
        self._pool: ConnectionPool[Any] | None = ConnectionPool(
            url,
            min_size=2,
            max_size=pool_max,
            timeout=POOL_WAIT_S,
            open=True,
            # A connection a restart closed is found here, not by the caller's query.
            check=ConnectionPool.check_connection,
            kwargs={"connect_timeout": CONNECT_TIMEOUT_S},
        )

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)

    def ready(self) -> bool:
        return self._ready and self._pool is not None

    def keep_alive(self) -> bool:
        if self._pool is None:
            return False
        try:
            _execute(self._life, "SELECT 1")
            return self.ready()
        except psycopg.Error:
            self._ready = False
        with contextlib.suppress(Exception):
            self._life.close()
        try:
            self._life = self._connect()
            held = _execute(
                self._life, "SELECT pg_try_advisory_lock(?, ?)", (WORKER_LOCKS, self.worker)
            ).fetchone()
            if held is None or not held[0]:
                # Our id is another process's now (it claimed it while we were away):
                # our running turns are theirs to finish; new ones take a new id.
                self.worker = self._claim_worker()
        except psycopg.Error:
            return False
        self._ready = True
        return True

    def _migrate(self) -> None:
        # Several workers start at once: one creates the tables, the others wait.
        with self._life.transaction():
            _execute(self._life, "SELECT pg_advisory_xact_lock(?, 0)", (SCHEMA_LOCK,))
            self._life.execute(POSTGRES_SCHEMA)

    def _claim_worker(self) -> int:
        for _ in range(32):
            worker = new_worker_id()
            row = _execute(
                self._life, "SELECT pg_try_advisory_lock(?, ?)", (WORKER_LOCKS, worker)
            ).fetchone()
            if row is not None and row[0]:
                return worker
        raise StoreError("no free worker id")  # 32 collisions in 2**31: not in practice

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        if self._pool is None:
            raise StoreError("the store is closed")
        # The pool's context commits when the block ends, rolls back on an error.
        try:
            with self._pool.connection() as conn:
                yield _PgTx(conn)
        except psycopg.OperationalError as exc:  # the connection, not the statement
            raise StoreUnavailable(f"PostgreSQL is unavailable: {_first_line(exc)}") from exc

    def reading(self) -> contextlib.AbstractContextManager[Tx]:
        return self.transaction()

    def dead_running(self, tx: Tx, turn_id: str | None) -> list[str]:
        # SKIP LOCKED: a turn another process is finishing right now is theirs.
        query = (
            "SELECT t.id FROM turns t WHERE t.status = 'running' AND NOT EXISTS ("
            " SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.classid = ?::oid AND l.objid::bigint = t.worker AND l.objsubid = 2)"
        )
        tail = " FOR UPDATE OF t SKIP LOCKED"
        rows = (
            tx.execute(query + " AND t.id = ?" + tail, (WORKER_LOCKS, turn_id))
            if turn_id is not None
            else tx.execute(query + tail, (WORKER_LOCKS,))
        )
        return [str(r[0]) for r in rows.fetchall()]

    def announce(self, tx: Tx, turn_ids: Sequence[str]) -> None:
        for start in range(0, len(turn_ids), NOTIFY_IDS_PER_PAYLOAD):
            payload = ",".join(turn_ids[start : start + NOTIFY_IDS_PER_PAYLOAD])
            tx.execute("SELECT pg_notify(?, ?)", (FRAMES_CHANNEL, payload))

    def lock_slot(self, turn_id: str, slot: str) -> SlotHold:
        if self._pool is None:
            raise StoreError("the store is closed")
        conn = self._pool.getconn()
        key = f"{turn_id}\x1f{slot}"
        try:
            # Session-level, on a connection kept out of the pool until release:
            # a process that dies holding it lets the next caller in at once.
            _execute(conn, "SELECT pg_advisory_lock(?, hashtext(?))", (SLOT_LOCKS, key))
            conn.commit()
        except BaseException:
            self._pool.putconn(conn)
            raise
        return _SlotHold(self._pool, conn, key)

    @contextmanager
    def prune_hold(self) -> Iterator[bool]:
        # Session-level, on a connection kept out of the pool for the pass: another
        # process's pruner finds it taken and skips its pass; a dead one's is freed.
        if self._pool is None:
            raise StoreError("the store is closed")
        conn = self._pool.getconn()
        try:
            row = _execute(conn, "SELECT pg_try_advisory_lock(?, 0)", (PRUNE_LOCK,)).fetchone()
            conn.commit()
            held = bool(row and row[0])
            try:
                yield held
            finally:
                if held:
                    _execute(conn, "SELECT pg_advisory_unlock(?, 0)", (PRUNE_LOCK,))
                    conn.commit()
        finally:
            self._pool.putconn(conn)

    async def notifications(
        self, listening: Callable[[], object] | None = None
    ) -> AsyncIterator[list[str]]:
        """Turn ids with new frames, as other processes (and this one) commit them.
        ``listening`` is called once the LISTEN is in place: a commit after it is
        announced. Ends when the connection does; the caller reconnects."""
        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
            await conn.execute(f"LISTEN {FRAMES_CHANNEL}")
            if listening is not None:
                listening()
            async for note in conn.notifies():
                yield note.payload.split(",")

    def checkpoint_due(self) -> bool:
        return False  # PostgreSQL checkpoints its own WAL

    def checkpoint(self) -> None:
        return None

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
        self._life.close()  # releases the worker lock: our running turns are now dead ones


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
