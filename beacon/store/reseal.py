"""Re-sealing every record under the active key (``beacon store reseal``), and
counting records per key id (``beacon store keys``, the server's start-up check).

Every sealed column is listed once (``SEALED``) with what opens it: the row's
owner (its turn's or session's) and its place — the associated data the record
rules seal with (``beacon.store.core``). Each column is walked in key order, a
batch at a time; a batch is opened and sealed again outside any transaction,
then written back in one short transaction with compare-and-set (``WHERE column
= the bytes read``): a record rewritten meanwhile (a page record replaced, a
narrowing updated) is already under the active key and is never overwritten
with the stale one. GCM nonces are random, so equal bytes are the same write.

A re-run skips what is already under the active key (``needs_reseal``), so an
interrupted pass is finished by running it again. Once no record names a key,
that key can leave ``BEACON_KEYS``; a server refuses to start while one it lacks
still seals records (``refuse_missing_keys``).
"""

from __future__ import annotations

import base64
import binascii
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from beacon.store.audit_rows import SEALED_TOKEN
from beacon.store.backends import Tx
from beacon.store.core import StoreCore
from beacon.store.crypto import HEADER_MAX, header_key_id
from beacon.store.errors import KeyringError, SealedReason, SealedRecordError

DEFAULT_BATCH = 500
ORDER = "{order}"  # the backend's insertion-order column, where a table has no key
# A sealed token's first characters: base64 of at least HEADER_MAX bytes.
TOKEN_PREFIX_CHARS = len(SEALED_TOKEN) + 4 * ((HEADER_MAX + 2) // 3)

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class SealedColumn:
    """One sealed column: how its rows are keyed, whose they are, where they sit."""

    table: str
    column: str
    key: tuple[str, ...]
    owner_table: str  # ``turns`` or ``sessions``: the owner is in the context
    owner_key: str
    place: Callable[[Row], tuple[str, ...]]
    extra: tuple[str, ...] = ()  # columns the place needs beyond the key
    # Stored as text: ``sealed:`` + base64 (narration tokens; unsealed ones are older).
    text: bool = False

    @property
    def label(self) -> str:
        return f"{self.table}.{self.column}"


def _turn(kind: str) -> Callable[[Row], tuple[str, ...]]:
    return lambda r: (r["turn_id"], kind)


SEALED: tuple[SealedColumn, ...] = (
    SealedColumn(
        "frames", "body", ("turn_id", "seq"), "turns", "turn_id",
        lambda r: (r["turn_id"], "frame", str(r["seq"])),
    ),
    SealedColumn("answers", "body", ("turn_id",), "turns", "turn_id", _turn("answer")),
    SealedColumn("answers", "sources", ("turn_id",), "turns", "turn_id", _turn("sources")),
    SealedColumn(
        "messages", "body", (ORDER,), "sessions", "session_id",
        lambda r: (r["session_id"], "message", r["turn_id"], r["role"]),
        extra=("session_id", "turn_id", "role"),
    ),
    SealedColumn(
        "narrowing", "body", ("session_id",), "sessions", "session_id",
        lambda r: (r["session_id"], "narrowing"),
    ),
    SealedColumn(
        "pages", "body", ("turn_id", "slot"), "turns", "turn_id",
        lambda r: (r["turn_id"], "pages", r["slot"]),
    ),
    SealedColumn("feedback", "body", ("turn_id",), "turns", "turn_id", _turn("feedback")),
    SealedColumn(
        "narration_audit", "token", (ORDER,), "turns", "turn_id",
        lambda r: (r["turn_id"], "narration", r["kind"], r["rule"]),
        extra=("turn_id", "kind", "rule"),
        text=True,
    ),
)  # fmt: skip


@dataclass(frozen=False, slots=True)  # the counts grow batch by batch while a pass runs
class Figures:
    label: str
    resealed: int = 0
    skipped: int = 0  # already under the active key (or not sealed: older tokens)
    # Rewritten meanwhile by a turn (under the active key already) or pruned: left alone.
    changed: int = 0
    unreadable: int = 0  # does not open with this ring: left as it is
    missing_keys: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        missing = ", ".join(f"{k} ×{n}" for k, n in sorted(self.missing_keys.items()))
        return (
            f"{self.label}: {self.resealed} re-sealed, {self.skipped} already under the "
            f"active key, {self.changed} rewritten meanwhile, {self.unreadable} unreadable"
            + (f" (keys not in the ring: {missing})" if missing else "")
        )


@dataclass(frozen=True, slots=True)
class ResealReport:
    columns: tuple[Figures, ...]
    seconds: float
    finished: bool  # False: stopped when asked, after the batch in hand

    @property
    def resealed(self) -> int:
        return sum(f.resealed for f in self.columns)

    @property
    def unreadable(self) -> int:
        return sum(f.unreadable for f in self.columns)

    def total_line(self) -> str:
        state = "done" if self.finished else "stopped (run it again to go on)"
        return (
            f"{state}: {self.resealed} re-sealed, "
            f"{sum(f.skipped for f in self.columns)} already under the active key, "
            f"{self.unreadable} unreadable, in {self.seconds:.2f}s"
        )


def _batches(
    store: StoreCore, col: SealedColumn, batch: int, value_sql: str
) -> Iterator[list[Row]]:
    """The column's rows in key order, ``batch`` at a time, each batch one read
    (``value_sql``: the sealed column, or its first bytes, as ``x.<column>``)."""
    key = [store.order_column if k == ORDER else k for k in col.key]
    names = [*key, *(e for e in col.extra if e not in key), "owner", "value"]
    select = ", ".join([*(f"x.{c}" for c in names[:-2]), "COALESCE(o.owner, '')", value_sql])
    keys = ", ".join(f"x.{k}" for k in key)
    base = (
        f"SELECT {select} FROM {col.table} x LEFT JOIN {col.owner_table} o "
        f"ON o.id = x.{col.owner_key}"
    )
    marks = ", ".join("?" for _ in key)
    downward = ", ".join(f"x.{k} DESC" for k in key)
    # The last key when the pass starts bounds it: a row added after it is sealed
    # under the active key already, and a pass never chases a table that grows.
    last = store.read(
        partial(_fetch, f"SELECT {keys} FROM {col.table} x ORDER BY {downward} LIMIT 1", ())
    )
    if not last:
        return
    after: Sequence[object] | None = None
    while True:
        where = f"({keys}) <= ({marks})" + (f" AND ({keys}) > ({marks})" if after else "")
        sql = f"{base} WHERE {where} ORDER BY {keys} LIMIT ?"
        params = (*last[0], *(after or ()), batch)
        rows = store.read(partial(_fetch, sql, params))
        if not rows:
            return
        got = [dict(zip(names, row, strict=True)) for row in rows]
        yield got
        after = tuple(got[-1][k] for k in key)
        if len(rows) < batch:
            return


def _fetch(sql: str, params: Sequence[object], db: Tx) -> list[Any]:
    return db.execute(sql, params).fetchall()


def _record(col: SealedColumn, value: object) -> bytes | None:
    """The sealed bytes a stored value holds (None: a token from before sealing)."""
    if not col.text:
        assert isinstance(value, bytes | memoryview)  # BLOB (SQLite), BYTEA (psycopg)
        return bytes(value)
    text = str(value)
    if not text.startswith(SEALED_TOKEN):
        return None
    try:
        return base64.b64decode(text.removeprefix(SEALED_TOKEN))
    except (binascii.Error, ValueError):
        raise SealedRecordError(SealedReason.MALFORMED_HEADER, "a token is not base64") from None


def _stored(col: SealedColumn, record: bytes) -> object:
    return SEALED_TOKEN + base64.b64encode(record).decode("ascii") if col.text else record


def _reseal_column(
    store: StoreCore, col: SealedColumn, batch: int, stop: Callable[[], bool]
) -> tuple[Figures, bool]:
    figures = Figures(col.label)
    key = [store.order_column if k == ORDER else k for k in col.key]
    update = (
        f"UPDATE {col.table} SET {col.column} = ? WHERE "
        + " AND ".join(f"{k} = ?" for k in key)
        + f" AND {col.column} = ?"
    )
    for rows in _batches(store, col, batch, f"x.{col.column}"):
        writes: list[tuple[object, ...]] = []
        for row in rows:
            record: bytes | None = None
            try:
                record = _record(col, row["value"])
                new = (
                    None
                    if record is None
                    else store.resealed(record, row["owner"], *col.place(row))
                )
            except SealedRecordError as exc:
                figures.unreadable += 1
                if exc.reason is SealedReason.UNKNOWN_KEY and record is not None:
                    figures.missing_keys[header_key_id(record)] += 1
                continue
            if new is None:
                figures.skipped += 1
                continue
            writes.append((_stored(col, new), *(row[k] for k in key), row["value"]))
        if writes:
            # One short transaction per batch: live turns write between them.
            with store.transaction() as tx:
                done = sum(tx.execute(update, w).rowcount for w in writes)
            figures.resealed += done
            figures.changed += len(writes) - done
        if stop():
            return figures, False
    return figures, True


def reseal(
    store: StoreCore,
    *,
    batch: int = DEFAULT_BATCH,
    stop: Callable[[], bool] = lambda: False,
    progress: Callable[[Figures], object] = lambda _: None,
) -> ResealReport:
    """Every sealed record under the active key; ``stop`` is asked after each batch,
    ``progress`` is told each column's figures once it is done."""
    started = time.perf_counter()
    done: list[Figures] = []
    for col in SEALED:
        figures, finished = _reseal_column(store, col, batch, stop)
        done.append(figures)
        progress(figures)
        if not finished:
            return ResealReport(tuple(done), time.perf_counter() - started, finished=False)
    return ResealReport(tuple(done), time.perf_counter() - started, finished=True)


def key_census(store: StoreCore, *, batch: int = 5_000) -> dict[str, Counter[str]]:
    """Records per key id, by sealed column, reading each record's header only
    (its first bytes: ``substr``, the same in SQLite and PostgreSQL)."""
    census: dict[str, Counter[str]] = {}
    for col in SEALED:
        chars = TOKEN_PREFIX_CHARS if col.text else HEADER_MAX
        counts: Counter[str] = Counter()
        for rows in _batches(store, col, batch, f"substr(x.{col.column}, 1, {chars})"):
            for row in rows:
                prefix = _header_prefix(col, row["value"])
                if prefix is not None:
                    counts[prefix] += 1
        census[col.label] = counts
    return census


def _header_prefix(col: SealedColumn, value: object) -> str | None:
    """The key id a stored value's first bytes name (None: not sealed; "?": malformed)."""
    try:
        record = _record(col, value)
        return None if record is None else header_key_id(record)
    except SealedRecordError:
        return "?"


def refuse_missing_keys(store: StoreCore) -> None:
    """Refuse a ring that lacks a key some record is still sealed under: those
    records would be unreadable (``record_unreadable``) for as long as it serves."""
    ring = store.keyring.keys
    missing: Counter[str] = Counter()
    for counts in key_census(store).values():
        missing.update({k: n for k, n in counts.items() if k not in ring and k != "?"})
    if missing:
        named = ", ".join(f"{k!r} ({n} records)" for k, n in sorted(missing.items()))
        raise KeyringError(
            f"BEACON_KEYS lacks keys that still seal records in BEACON_DB: {named}; put them "
            "back after the active key and run `beacon store reseal`, then remove them"
        )
