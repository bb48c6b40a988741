"""What a turn store's backend provides, and whether a ``BEACON_DB`` names PostgreSQL
(a ``postgresql://`` or ``postgres://`` URL; anything else is a SQLite file path).

``Backend`` is every hook the record rules (``beacon.store.turns``) call; both
``SqliteStore`` and ``PostgresStore`` satisfy it (mypy checks each against it in
``suites/unit/test_store_backends.py``). Every statement is written with ``?``
placeholders and positional parameters — the turn store's, the question quota's
and the rate buckets' alike — and PostgreSQL's statements pass ``psycopg_sql`` on
their way to psycopg (its ``%s``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Any, ClassVar, Protocol

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


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


class Backend(Protocol):
    """The hooks a backend gives the record rules: connections, transactions, and
    what only it can know — which turns' processes are alive, who is listening."""

    # Whether writes may run on the event loop (an embedded database's commit takes
    # tens of microseconds) or must go to a worker thread (a network round trip).
    writes_on_loop: ClassVar[bool]
    # Whether several server processes may share this store (live follow across them).
    shared: ClassVar[bool]
    # The column that keeps insertion order where a table has no other.
    order_column: ClassVar[str]
    # The database's errors: an answer it refuses is SaveFailed, never half-saved.
    db_errors: ClassVar[tuple[type[Exception], ...]]
    # Appended to a SELECT that must hold its rows until the commit ("" where a
    # transaction already holds the whole database).
    lock_rows: ClassVar[str]
    # Appended to the pruner's SELECTs: rows another transaction holds are left for later.
    skip_locked: ClassVar[str]
    # This process's id in the turns it drives.
    worker: int

    def transaction(self) -> AbstractContextManager[Tx]:
        """A write transaction: committed when the block ends, rolled back on error."""
        ...

    def reading(self) -> AbstractContextManager[Tx]:
        """A connection to read on (a lost one raises ``StoreUnavailable``)."""
        ...

    def dead_running(self, tx: Tx, turn_id: str | None) -> list[str]:
        """Running turns (all, or just ``turn_id``) whose process is gone, locked
        for this transaction where the backend can lock rows."""
        ...

    def announce(self, tx: Tx, turn_ids: Sequence[str]) -> None:
        """Tell other processes these turns have new frames (in this transaction)."""
        ...

    def notifications(
        self, listening: Callable[[], object] | None = None
    ) -> AsyncIterator[list[str]]:
        """Turn ids with newly committed frames, from every process (shared stores);
        ``listening`` is called once a commit from now on will be announced."""
        ...

    def lock_slot(self, turn_id: str, slot: str) -> SlotHold:
        """Hold one load-more of (turn, slot) against other processes. One process's
        callers take turns in ``beacon.server.slots``; this is for a shared store."""
        ...

    def prune_hold(self) -> AbstractContextManager[bool]:
        """Whether this process may prune now (``beacon.store.retention``): one
        process at a time on a shared store; an embedded one has one writer."""
        ...

    def ready(self) -> bool:
        """Whether this process may take new turns: its store connection and its
        liveness lock are held (a shared store); an embedded one always is."""
        ...

    def keep_alive(self) -> bool:
        """Check the liveness connection and take it (and the lock) back if lost;
        returns ``ready()``. The server calls it every second."""
        ...

    def checkpoint_due(self) -> bool:
        """Whether enough has been written to move a write-ahead log into the file."""
        ...

    def checkpoint(self) -> None:
        """Move the write-ahead log into the file (slow: from a worker thread)."""
        ...

    def close(self) -> None: ...


@lru_cache(maxsize=256)
def psycopg_sql(sql: str) -> str:
    """A statement written with ``?`` in psycopg's placeholder, ``%s``. The store's
    SQL holds no literal ``?`` or ``%``."""
    return sql.replace("?", "%s")


def is_postgres(location: str) -> bool:
    return location.startswith(POSTGRES_SCHEMES)
