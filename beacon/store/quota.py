"""The question quota's count: how many questions a user has asked on a (UTC) day.

One row per user and day in ``question_quota``, beside the turn store (the same
``BEACON_DB``): a question is spent by **one statement** — ``INSERT … ON CONFLICT
DO UPDATE … WHERE spent < limit RETURNING spent`` — so two processes spending at
once serialise on the row lock and never both take the last question (the house
pattern of ``buckets.py``). A refused spend changes nothing and returns no row.

* ``SqliteQuota``: its own connection to the SQLite file (the turn store's WAL
  lets it write beside the store's writer; it never checkpoints by itself either);
* ``PostgresQuota``: one connection of this process, the table created under an
  advisory lock when several processes start at once. psycopg is imported only
  for a PostgreSQL URL (an extra).

Every method blocks on I/O: callers run them in a worker thread.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from beacon.store.backends import is_postgres, psycopg_sql
from beacon.store.errors import StoreError

if TYPE_CHECKING:
    import psycopg

# Beside the buckets' schema lock (0x62656190), far from the turn store's.
QUOTA_SCHEMA_LOCK = 0x62656191
BUSY_MS = 5_000

POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS question_quota (
    sub   TEXT NOT NULL,
    day   DATE NOT NULL,
    spent INTEGER NOT NULL,
    PRIMARY KEY (sub, day)
)
"""
SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS question_quota (
    sub   TEXT NOT NULL,
    day   TEXT NOT NULL,
    spent INTEGER NOT NULL,
    PRIMARY KEY (sub, day)
)
"""
# (sub, day, limit)
_PG_SPEND = """
INSERT INTO question_quota AS q (sub, day, spent) VALUES (?, ?, 1)
ON CONFLICT (sub, day) DO UPDATE SET spent = q.spent + 1 WHERE q.spent < ?
RETURNING q.spent
"""
# (day, subs)
_PG_SPENT = "SELECT sub, spent FROM question_quota WHERE day = ? AND sub = ANY(?)"
_SQLITE_SPEND = """
INSERT INTO question_quota (sub, day, spent) VALUES (?, ?, 1)
ON CONFLICT (sub, day) DO UPDATE SET spent = spent + 1 WHERE spent < ?
RETURNING spent
"""


class QuotaCounts(Protocol):
    # Whether other processes spend from the same rows (then a watcher polls them).
    shared: bool

    def spend(self, sub: str, day: date, limit: int) -> int | None:
        """The day's count after spending one question, or None when ``limit`` are spent."""
        ...

    def spent(self, subs: Iterable[str], day: date) -> dict[str, int]:
        """The day's count of each of ``subs`` (0 for one with no row)."""
        ...

    def close(self) -> None: ...


class SqliteQuota:
    shared = False

    def __init__(self, path: str) -> None:
        self._lock = threading.Lock()
        try:
            db = sqlite3.connect(
                path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False
            )
            db.execute("PRAGMA wal_autocheckpoint=0")  # the turn store checkpoints the file
            db.execute(SQLITE_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the question quota in {path}: {exc}") from exc
        self._db: sqlite3.Connection | None = db

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the question quota is closed")
        return self._db

    def spend(self, sub: str, day: date, limit: int) -> int | None:
        if limit <= 0:
            return None
        with self._lock:
            try:
                row = self._conn().execute(_SQLITE_SPEND, (sub, day.isoformat(), limit)).fetchone()
            except sqlite3.Error as exc:
                raise StoreError(f"the question quota failed: {exc}") from exc
        return None if row is None else int(row[0])

    def spent(self, subs: Iterable[str], day: date) -> dict[str, int]:
        wanted = sorted(set(subs))
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        query = f"SELECT sub, spent FROM question_quota WHERE day = ? AND sub IN ({marks})"
        with self._lock:
            try:
                rows = self._conn().execute(query, (day.isoformat(), *wanted)).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"the question quota failed: {exc}") from exc
        found = {str(sub): int(spent) for sub, spent in rows}
        return {sub: found.get(sub, 0) for sub in wanted}

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


class PostgresQuota:
    """The count on one connection of this process (a spend is one short statement)."""

    shared = True

    def __init__(self, url: str) -> None:
        import psycopg

        self._url = url
        self._errors: tuple[type[Exception], ...] = (psycopg.Error,)
        self._lock = threading.Lock()
        self._db: psycopg.Connection[Any] | None = None
        with self._lock:
            self._connection()  # reach the database, and create the table, at start

    def _connection(self) -> psycopg.Connection[Any]:
        import psycopg

        if self._db is not None and not self._db.closed:
            return self._db
        try:
            conn = psycopg.connect(self._url, autocommit=True)
            with conn.transaction():
                conn.execute(
                    psycopg_sql("SELECT pg_advisory_xact_lock(?, 0)"), (QUOTA_SCHEMA_LOCK,)
                )
                conn.execute(POSTGRES_SCHEMA)
        except psycopg.Error as exc:
            raise StoreError(f"cannot reach PostgreSQL for the question quota: {exc}") from exc
        self._db = conn
        return conn

    def _run(self, sql: str, params: Sequence[object]) -> list[tuple[Any, ...]]:
        with self._lock:
            # A connection a restart broke is opened again, and the statement tried once more.
            for attempt in (1, 2):
                try:
                    return list(self._connection().execute(psycopg_sql(sql), params).fetchall())
                except self._errors as exc:
                    broken = self._db is not None and self._db.broken
                    if broken:
                        self._db = None
                    if attempt == 2 or not broken:
                        raise StoreError(f"the question quota failed: {exc}") from exc
            return []  # not reached: the second attempt returns or raises

    def spend(self, sub: str, day: date, limit: int) -> int | None:
        if limit <= 0:
            return None
        rows = self._run(_PG_SPEND, (sub, day, limit))
        return int(rows[0][0]) if rows else None

    def spent(self, subs: Iterable[str], day: date) -> dict[str, int]:
        wanted = sorted(set(subs))
        if not wanted:
            return {}
        found = dict(self._run(_PG_SPENT, (day, wanted)))
        return {sub: int(found.get(sub, 0)) for sub in wanted}

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def open_quota(location: str) -> QuotaCounts:
    """The count where the turn store is: shared on PostgreSQL, the SQLite file's otherwise."""
    if is_postgres(location):
        return PostgresQuota(location)
    return SqliteQuota(location)
