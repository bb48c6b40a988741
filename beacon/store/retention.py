"""How long the store keeps what, and the pruning that enforces it (both backends).

Defaults (README "Retention"), each an environment setting:

=============================  =======  =============================================
``BEACON_RETAIN_TURNS_DAYS``   365      chat sessions and turns: a turn's frames, answer,
                                        transcript lines and feedback go with it; a
                                        session goes once none of its turns is left
``BEACON_RETAIN_AUDIT_DAYS``   365      the analyst's rows: ``audit`` (permission
                                        verdicts), ``narration_audit``, ``tool_calls``
``BEACON_RETAIN_PAGES_HOURS``  24       page records (load-more state), after their turn
``BEACON_PRUNE_INTERVAL_S``    3600     how often a server prunes (0: it does not;
                                        ``beacon store prune`` still does)
``BEACON_PRUNE_BATCH``         200      rows (turns, sessions, records) per transaction
=============================  =======  =============================================

Ages are measured against the one clock (``beacon.lexicon.clock``): the real time,
moved by whole days when ``BEACON_TODAY`` pins the date (``retention_now``) — so a
test, or an operator rehearsing a prune, ages the store by setting the date.

Pruning deletes in bounded batches, each its own short transaction, so live turns
keep writing between them (SQLite's one writer waits one batch at most). A running
turn is never pruned. On PostgreSQL one process prunes at a time (an advisory lock
the others find taken and skip), sessions and turns are taken ``FOR UPDATE SKIP
LOCKED``, and a session is deleted only once it is locked and, read again, has no
turn: a turn opening in it meanwhile keeps it (or writes it again, see
``beacon.store.frames``). A pruned session or turn is simply missing: a 404.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from beacon.lexicon.clock import today
from beacon.store.backends import Tx
from beacon.store.errors import StoreError
from beacon.store.turns import TurnStore

DAY_S = 86_400.0
DEFAULT_BATCH = 200
# Tables keyed by their turn, deleted with it (``pages`` has its own, shorter, rule).
TURN_TABLES = ("frames", "answers", "messages", "pages", "feedback")
AUDIT_TABLES = ("audit", "narration_audit", "tool_calls")
# Every table the figures cover, in the order they are shown.
TABLES = ("sessions", "turns", *TURN_TABLES, "narrowing", *AUDIT_TABLES)


class RetentionSettingError(StoreError):
    """A retention setting is malformed: the server (or the prune) refuses to start."""

    code = "retention_setting"


@dataclass(frozen=True, slots=True)
class Retention:
    turns_days: float = 365.0
    audit_days: float = 365.0
    pages_hours: float = 24.0
    interval_s: float = 3600.0
    batch: int = DEFAULT_BATCH

    def describe(self) -> str:
        """The one start-up line."""
        every = f"every {self.interval_s:g}s" if self.interval_s > 0 else "off in the server"
        return (
            f"retention: sessions and turns {self.turns_days:g} days, audit rows "
            f"{self.audit_days:g} days, page records {self.pages_hours:g} hours after their "
            f"turn; pruning {every}, {self.batch} rows a batch"
        )


SETTINGS: dict[str, tuple[str, float, float]] = {
    # field: (environment name, lowest, highest)
    "turns_days": ("BEACON_RETAIN_TURNS_DAYS", 1, 36_500),
    "audit_days": ("BEACON_RETAIN_AUDIT_DAYS", 1, 36_500),
    "pages_hours": ("BEACON_RETAIN_PAGES_HOURS", 1, 24 * 36_500),
    "interval_s": ("BEACON_PRUNE_INTERVAL_S", 0, 7 * 86_400),
    "batch": ("BEACON_PRUNE_BATCH", 1, 100_000),
}


def retention_from_env(environ: Mapping[str, str] | None = None) -> Retention:
    env = os.environ if environ is None else environ
    values: dict[str, float] = {}
    for name, (variable, low, high) in SETTINGS.items():
        raw = env.get(variable)
        if raw is None or raw.strip() == "":
            continue
        try:
            value = float(raw)
        except ValueError:
            value = float("nan")
        if not low <= value <= high or (name == "batch" and not value.is_integer()):
            kind = "a whole number" if name == "batch" else "a number"
            raise RetentionSettingError(
                f"{variable} must be {kind} in [{low:g}, {high:g}], got {raw!r}"
            )
        values[name] = value
    batch = int(values.pop("batch", DEFAULT_BATCH))
    return Retention(**values, batch=batch)


def retention_now(environ: Mapping[str, str] | None = None, *, real: float | None = None) -> float:
    """Now, for ages: the real time, moved by whole days to ``BEACON_TODAY`` when set."""
    real = time.time() if real is None else real
    real_day = datetime.fromtimestamp(real, UTC).date()
    return real + (today(dict(environ) if environ is not None else None) - real_day).days * DAY_S


@dataclass(frozen=True, slots=True)
class Cutoffs:
    turns: float
    audit: float
    pages: float

    @classmethod
    def at(cls, now: float, retention: Retention) -> Cutoffs:
        return cls(
            turns=now - retention.turns_days * DAY_S,
            audit=now - retention.audit_days * DAY_S,
            pages=now - retention.pages_hours * 3600.0,
        )

    @property
    def audit_iso(self) -> str:
        # ``audit.at`` is ISO 8601 text in UTC (beacon.policy.audit): compared as text.
        return datetime.fromtimestamp(self.audit, UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class Figures:
    aged: int
    pruned: int
    kept: int


@dataclass(frozen=True, slots=True)
class PruneReport:
    dry_run: bool
    now: float
    # False: another process holds the prune lock (PostgreSQL); nothing was done.
    ran: bool = True
    tables: dict[str, Figures] = field(default_factory=dict)

    @property
    def pruned(self) -> int:
        return sum(f.pruned for f in self.tables.values())

    def lines(self) -> list[str]:
        if not self.ran:
            return ["prune: another process is pruning this store; nothing done"]
        head = "would prune" if self.dry_run else "pruned"
        rows = [f"{'table':<16} {'aged':>8} {head:>12} {'kept':>8}"]
        for name, f in self.tables.items():
            rows.append(f"{name:<16} {f.aged:>8} {f.pruned:>12} {f.kept:>8}")
        return rows


# --- what is aged, as SQL both backends speak -------------------------------------

_AGED_TURNS = "SELECT id FROM turns WHERE created_at < ? AND status != 'running'"
_AGED_SESSIONS = (
    "SELECT id FROM sessions s WHERE s.created_at < ? "
    "AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = s.id)"
)
_AGED_PAGES = (
    "SELECT p.turn_id, p.slot FROM pages p WHERE NOT EXISTS ("
    "SELECT 1 FROM turns t WHERE t.id = p.turn_id AND t.created_at >= ?)"
)


def _count(tx: Tx, sql: str, params: Sequence[object] = ()) -> int:
    row = tx.execute(f"SELECT COUNT(*) FROM ({sql}) aged", params).fetchone()
    return int(row[0])


def _aged_counts(tx: Tx, cut: Cutoffs) -> dict[str, int]:
    """Rows each rule would remove now (a dependent table: its rows of aged turns)."""
    turns = f"{_AGED_TURNS}"
    aged = {
        "turns": _count(tx, turns, (cut.turns,)),
        # Sessions left without turns once the aged turns are gone.
        "sessions": _count(
            tx,
            "SELECT id FROM sessions s WHERE s.created_at < ? AND NOT EXISTS ("
            "SELECT 1 FROM turns t WHERE t.session_id = s.id "
            "AND (t.created_at >= ? OR t.status = 'running'))",
            (cut.turns, cut.turns),
        ),
        "narrowing": _count(
            tx,
            "SELECT session_id FROM narrowing n JOIN sessions s ON s.id = n.session_id "
            "WHERE s.created_at < ? AND NOT EXISTS (SELECT 1 FROM turns t WHERE "
            "t.session_id = s.id AND (t.created_at >= ? OR t.status = 'running'))",
            (cut.turns, cut.turns),
        ),
    }
    for table in TURN_TABLES:
        if table == "pages":
            # Page records go after hours, or with their turn.
            aged[table] = _count(tx, _AGED_PAGES, (max(cut.pages, cut.turns),))
            continue
        aged[table] = _count(
            tx,
            f"SELECT x.turn_id FROM {table} x JOIN turns t ON t.id = x.turn_id "
            "WHERE t.created_at < ? AND t.status != 'running'",
            (cut.turns,),
        )
    aged["audit"] = _count(tx, "SELECT turn_id FROM audit WHERE at < ?", (cut.audit_iso,))
    for table in ("narration_audit", "tool_calls"):
        aged[table] = _count(tx, f"SELECT turn_id FROM {table} WHERE at < ?", (cut.audit,))
    return aged


def _totals(tx: Tx) -> dict[str, int]:
    return {t: int(tx.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in TABLES}


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


class Pruner:
    """One store's pruning: ``run`` is one pass over every rule (all batches)."""

    def __init__(
        self,
        store: TurnStore,
        retention: Retention,
        *,
        now: Callable[[], float] = retention_now,
        stop: threading.Event | None = None,
    ) -> None:
        self.store = store
        self.retention = retention
        self.now = now
        # Set (a server shutting down): the pass ends after the batch in hand.
        self.stop = stop or threading.Event()

    def _more(self, done: int) -> bool:
        return done >= self.retention.batch and not self.stop.is_set()

    def run(self, *, dry_run: bool = False) -> PruneReport:
        now = self.now()
        cut = Cutoffs.at(now, self.retention)
        report = PruneReport(dry_run=dry_run, now=now)
        with self.store.prune_hold() as held:
            if not held:
                return PruneReport(dry_run=dry_run, now=now, ran=False)
            aged = self.store.read(lambda tx: _aged_counts(tx, cut))
            pruned = dict.fromkeys(TABLES, 0)
            if not dry_run:
                self._pages(cut, pruned)
                self._turns(cut, pruned)
                self._sessions(cut, pruned)
                self._audit(cut, pruned)
            totals = self.store.read(_totals)
        for table in TABLES:
            kept = totals[table] - (aged[table] if dry_run else 0)
            report.tables[table] = Figures(
                aged[table], aged[table] if dry_run else pruned[table], kept
            )
        return report

    # Each loop: one batch a transaction, until a batch comes back short.

    def _pages(self, cut: Cutoffs, pruned: dict[str, int]) -> None:
        batch = self.retention.batch
        while True:
            with self.store.transaction() as tx:
                keys = tx.execute(f"{_AGED_PAGES} LIMIT ?", (cut.pages, batch)).fetchall()
                tx.executemany(
                    "DELETE FROM pages WHERE turn_id = ? AND slot = ?",
                    [(str(k[0]), str(k[1])) for k in keys],
                )
            pruned["pages"] += len(keys)
            if not self._more(len(keys)):
                return

    def _turns(self, cut: Cutoffs, pruned: dict[str, int]) -> None:
        batch = self.retention.batch
        lock = self.store.skip_locked
        while True:
            with self.store.transaction() as tx:
                ids = [
                    str(r[0])
                    for r in tx.execute(
                        f"{_AGED_TURNS} ORDER BY created_at LIMIT ?{lock}", (cut.turns, batch)
                    ).fetchall()
                ]
                if ids:
                    marks = _marks(ids)
                    for table in TURN_TABLES:
                        done = tx.execute(f"DELETE FROM {table} WHERE turn_id IN ({marks})", ids)
                        pruned[table] += max(done.rowcount, 0)
                    done = tx.execute(f"DELETE FROM turns WHERE id IN ({marks})", ids)
                    pruned["turns"] += max(done.rowcount, 0)
            if not self._more(len(ids)):
                return

    def _sessions(self, cut: Cutoffs, pruned: dict[str, int]) -> None:
        batch = self.retention.batch
        lock = self.store.skip_locked
        while True:
            with self.store.transaction() as tx:
                ids = [
                    str(r[0])
                    for r in tx.execute(
                        f"{_AGED_SESSIONS} LIMIT ?{lock}", (cut.turns, batch)
                    ).fetchall()
                ]
                found = len(ids)
                if ids:
                    # Read again now the rows are ours: a turn that opened in one of
                    # them since the statement above began keeps it.
                    busy = {
                        str(r[0])
                        for r in tx.execute(
                            f"SELECT DISTINCT session_id FROM turns WHERE session_id IN "
                            f"({_marks(ids)})",
                            ids,
                        ).fetchall()
                    }
                    ids = [i for i in ids if i not in busy]
                if ids:
                    marks = _marks(ids)
                    for table in ("messages", "narrowing"):
                        done = tx.execute(f"DELETE FROM {table} WHERE session_id IN ({marks})", ids)
                        pruned[table] += max(done.rowcount, 0)
                    done = tx.execute(f"DELETE FROM sessions WHERE id IN ({marks})", ids)
                    pruned["sessions"] += max(done.rowcount, 0)
            if not self._more(found):
                return

    def _audit(self, cut: Cutoffs, pruned: dict[str, int]) -> None:
        batch = self.retention.batch
        order = self.store.order_column
        for table in AUDIT_TABLES:
            before: object = cut.audit_iso if table == "audit" else cut.audit
            while True:
                with self.store.transaction() as tx:
                    done = tx.execute(
                        f"DELETE FROM {table} WHERE {order} IN "
                        f"(SELECT {order} FROM {table} WHERE at < ? LIMIT ?)",
                        (before, batch),
                    )
                    count = max(done.rowcount, 0)
                pruned[table] += count
                if not self._more(count):
                    break


def prune(
    store: TurnStore,
    retention: Retention,
    *,
    dry_run: bool = False,
    now: Callable[[], float] = retention_now,
    stop: threading.Event | None = None,
) -> PruneReport:
    return Pruner(store, retention, now=now, stop=stop).run(dry_run=dry_run)
