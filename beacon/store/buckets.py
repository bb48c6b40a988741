"""Token buckets: how many turns a key (a user, the process) may start now.

A bucket holds at most ``burst`` tokens and gains ``per_minute / 60`` a second; a
turn takes one, and with none left the answer says when the next one is due.
Two homes, picked like the turn store (``open_buckets``):

* ``MemoryBuckets``: one process (SQLite, or the per-process limit), on the event loop;
* ``PostgresBuckets``: one row per key in ``rate_buckets``, shared by every process
  on the database. A take is one statement — ``INSERT … ON CONFLICT DO UPDATE``
  refilling by the database's own clock and taking a token only ``WHERE`` one is
  there — so two processes taking at once serialise on the row lock and never hand
  out the same token. psycopg is imported only for a PostgreSQL URL (an extra).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from beacon.store.backends import is_postgres, psycopg_sql
from beacon.store.errors import StoreError

if TYPE_CHECKING:
    import psycopg

# Far from the turn store's advisory lock keys (0x62656101…): creating the table is
# one process's job when several start at once.
BUCKETS_SCHEMA_LOCK = 0x62656190
# The most keys kept in memory before full buckets (the same as no entry) are dropped.
MEMORY_KEYS = 10_000

BUCKETS_SCHEMA = """
CREATE TABLE IF NOT EXISTS rate_buckets (
    key    TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    stamp  TIMESTAMPTZ NOT NULL
)
"""
# The tokens a row holds now: what it held, plus the refill since, at most the burst.
# (burst, rate)
_REFILLED = (
    "LEAST(?, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - b.stamp))::float8 * ?)"
)
# (key, burst, *refilled, *refilled)
_TAKE = f"""
INSERT INTO rate_buckets AS b (key, tokens, stamp)
VALUES (?, ? - 1, clock_timestamp())
ON CONFLICT (key) DO UPDATE
SET tokens = {_REFILLED} - 1, stamp = clock_timestamp()
WHERE {_REFILLED} >= 1
RETURNING b.tokens
"""
# (*refilled, key)
_LEVEL = f"SELECT {_REFILLED} FROM rate_buckets AS b WHERE b.key = ?"
# (burst, key)
_REFUND = "UPDATE rate_buckets SET tokens = LEAST(?, tokens + 1) WHERE key = ?"


@dataclass(frozen=True, slots=True)
class Rate:
    """``per_minute`` tokens a minute, at most ``burst`` at once; 0 a minute is no limit."""

    per_minute: int
    burst: int

    @property
    def per_second(self) -> float:
        return self.per_minute / 60.0

    @property
    def limited(self) -> bool:
        return self.per_minute > 0


@dataclass(frozen=True, slots=True)
class Take:
    granted: bool
    # When a token is next due (0 when granted).
    retry_after_s: float = 0.0

    @property
    def retry_after(self) -> int:
        """``Retry-After``: whole seconds, rounded up, at least 1."""
        return max(1, math.ceil(self.retry_after_s))


def _wait_for_one(level: float, rate: Rate) -> float:
    return max(0.0, 1.0 - level) / rate.per_second


class Buckets(Protocol):
    # Whether take and refund block on I/O (then a caller runs them in a thread).
    blocking: ClassVar[bool]

    def take(self, key: str) -> Take: ...

    def refund(self, key: str) -> None: ...

    def close(self) -> None: ...


class MemoryBuckets:
    blocking: ClassVar[bool] = False

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._held: dict[str, tuple[float, float]] = {}  # key → (tokens, when)

    def _level(self, key: str, now: float) -> float:
        tokens, then = self._held.get(key, (float(self.rate.burst), now))
        return min(float(self.rate.burst), tokens + max(0.0, now - then) * self.rate.per_second)

    def take(self, key: str) -> Take:
        now = self._clock()
        level = self._level(key, now)
        if level < 1:
            self._held[key] = (level, now)
            return Take(False, _wait_for_one(level, self.rate))
        self._held[key] = (level - 1, now)
        if len(self._held) > MEMORY_KEYS:
            self._forget_full(now)
        return Take(True)

    def refund(self, key: str) -> None:
        now = self._clock()
        self._held[key] = (min(float(self.rate.burst), self._level(key, now) + 1), now)

    def close(self) -> None:
        self._held.clear()

    def _forget_full(self, now: float) -> None:
        for key in [k for k in self._held if self._level(k, now) >= self.rate.burst]:
            del self._held[key]


class PostgresBuckets:
    """Buckets in ``rate_buckets`` on one connection of this process (a take is one
    short statement: a pool would only add threads)."""

    blocking: ClassVar[bool] = True

    def __init__(self, url: str, rate: Rate) -> None:
        import psycopg

        self.rate = rate
        self._url = url
        self._errors: tuple[type[Exception], ...] = (psycopg.Error,)
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        with self._lock:
            self._connection()  # reach the database, and create the table, at start

    def _connection(self) -> psycopg.Connection[Any]:
        import psycopg

        if self._conn is not None and not self._conn.closed:
            return self._conn
        try:
            conn = psycopg.connect(self._url, autocommit=True)
            with conn.transaction():
                conn.execute(
                    psycopg_sql("SELECT pg_advisory_xact_lock(?, 0)"), (BUCKETS_SCHEMA_LOCK,)
                )
                conn.execute(BUCKETS_SCHEMA)
        except psycopg.Error as exc:
            raise StoreError(f"cannot reach PostgreSQL for the rate buckets: {exc}") from exc
        self._conn = conn
        return conn

    def _run(self, sql: str, params: Sequence[object]) -> tuple[Any, ...] | None:
        with self._lock:
            # A connection a restart broke is opened again, and the take tried once more.
            for attempt in (1, 2):
                try:
                    cursor = self._connection().execute(psycopg_sql(sql), params)
                    return cursor.fetchone() if cursor.description is not None else None
                except self._errors as exc:
                    broken = self._conn is not None and self._conn.broken
                    if broken:
                        self._conn = None
                    if attempt == 2 or not broken:
                        raise StoreError(f"the rate buckets failed: {exc}") from exc
            return None  # not reached: the second attempt returns or raises

    def _refilled(self) -> tuple[float, float]:
        return float(self.rate.burst), self.rate.per_second

    def take(self, key: str) -> Take:
        refilled = self._refilled()
        if self._run(_TAKE, (key, refilled[0], *refilled, *refilled)) is not None:
            return Take(True)
        row = self._run(_LEVEL, (*refilled, key))
        level = float(row[0]) if row is not None else 0.0
        return Take(False, _wait_for_one(level, self.rate))

    def refund(self, key: str) -> None:
        self._run(_REFUND, (float(self.rate.burst), key))

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def open_buckets(location: str, rate: Rate) -> Buckets:
    """Shared buckets on a PostgreSQL ``BEACON_DB``; this process's own otherwise."""
    if is_postgres(location):
        return PostgresBuckets(location, rate)
    return MemoryBuckets(rate)
