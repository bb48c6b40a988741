"""The turn store's tables, described once (``TABLES``, ``INDEXES``) and written
out in SQLite's and PostgreSQL's words, kept apart from the code that reads them.

The two schemas hold the same columns; where a table has no key that orders it
(messages, audit rows), SQLite's ``rowid`` does and PostgreSQL gets an identity
column ``n``. ``worker`` is the process driving a running turn (a later column:
databases made before it get it on start), as are the turn's end: ``code`` (the
error frame's code, ``None`` for ``done``), ``first_answer_at`` (the commit of its
first ``delta`` or of its terminal: what a user waits for) and ``ended_at``.
``granted`` (later too) is what its starter's token granted, the capabilities
comma-joined: all a running turn may still use, so a follower whose token no
longer grants one of them is refused (``NULL`` in rows made before it).

``tool_calls`` is an analyst's row per call (no content: the arguments as a
sha256 digest); with ``audit`` (the PEP's verdicts) and ``narration_audit`` (the
guard's) it is what ``beacon report`` reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["text", "real", "int", "bigint", "blob"]
SQLITE_TYPES: dict[Kind, str] = {
    "text": "TEXT",
    "real": "REAL",
    "int": "INTEGER",
    "bigint": "INTEGER",
    "blob": "BLOB",
}
POSTGRES_TYPES: dict[Kind, str] = {
    "text": "TEXT",
    "real": "DOUBLE PRECISION",
    "int": "INTEGER",
    "bigint": "BIGINT",
    "blob": "BYTEA",
}


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    kind: Kind
    nullable: bool = False
    # Added after the first schema: ALTERed into a database that lacks it.
    later: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    # No key orders its rows: SQLite's rowid does, PostgreSQL gets an identity ``n``.
    ordered: bool = False


@dataclass(frozen=True, slots=True)
class Index:
    name: str
    table: str
    columns: tuple[str, ...]
    where: str | None = None


def _c(name: str, kind: Kind, *, null: bool = False, later: bool = False) -> Column:
    return Column(name, kind, nullable=null, later=later)


TABLES: tuple[Table, ...] = (
    Table("sessions", (_c("id", "text"), _c("owner", "text"), _c("created_at", "real")), ("id",)),
    Table(
        "turns",
        (
            _c("id", "text"),
            _c("session_id", "text", null=True),
            _c("owner", "text"),
            _c("mode", "text"),
            _c("status", "text"),
            _c("created_at", "real"),
            _c("worker", "bigint", null=True, later=True),
            _c("code", "text", null=True, later=True),
            _c("first_answer_at", "real", null=True, later=True),
            _c("ended_at", "real", null=True, later=True),
            _c("granted", "text", null=True, later=True),
        ),
        ("id",),
    ),
    Table(
        "frames",
        (_c("turn_id", "text"), _c("seq", "int"), _c("type", "text"), _c("body", "blob")),
        ("turn_id", "seq"),
    ),
    Table(
        "answers",
        (_c("turn_id", "text"), _c("body", "blob"), _c("sources", "blob"), _c("saved_at", "real")),
        ("turn_id",),
    ),
    Table(
        "messages",
        (
            _c("session_id", "text"),
            _c("turn_id", "text"),
            _c("role", "text"),
            _c("body", "blob"),
            _c("created_at", "real"),
        ),
        ordered=True,
    ),
    Table(
        "audit",
        (
            _c("turn_id", "text"),
            _c("sub", "text"),
            _c("tool", "text"),
            _c("capability", "text", null=True),
            _c("allowed", "int"),
            _c("reason", "text"),
            _c("hint_present", "int"),
            _c("at", "text"),
        ),
        ordered=True,
    ),
    Table(
        "narration_audit",
        (
            _c("turn_id", "text"),
            _c("kind", "text"),
            _c("rule", "text"),
            _c("token", "text"),
            _c("at", "real"),
        ),
        ordered=True,
    ),
    Table(
        "narrowing",
        (_c("session_id", "text"), _c("body", "blob"), _c("updated_at", "real")),
        ("session_id",),
    ),
    Table(
        "pages",
        (_c("turn_id", "text"), _c("slot", "text"), _c("body", "blob")),
        ("turn_id", "slot"),
    ),
    Table(
        "feedback",
        (
            _c("turn_id", "text"),
            _c("owner", "text"),
            _c("rating", "text"),
            _c("body", "blob"),
            _c("at", "real"),
        ),
        ("turn_id",),
    ),
    Table(
        "tool_calls",
        (
            _c("turn_id", "text"),
            _c("call_id", "text"),
            _c("tool", "text"),
            _c("args_digest", "text"),
            _c("duration_ms", "real", null=True),
            _c("verdict", "text"),
            _c("grade", "text"),
            _c("returned", "bigint", null=True),
            _c("total", "bigint", null=True),
            _c("total_is_lower_bound", "int"),
            _c("at", "real"),
        ),
        ordered=True,
    ),
)

INDEXES: tuple[Index, ...] = (
    Index("turns_by_created", "turns", ("created_at",)),
    # The running turns a restart or a dead process's check looks for.
    Index("turns_running", "turns", ("status",), where="status = 'running'"),
    Index("messages_by_session", "messages", ("session_id", "created_at")),
    Index("audit_by_turn", "audit", ("turn_id",)),
    Index("audit_by_at", "audit", ("at",)),
    Index("narration_audit_by_turn", "narration_audit", ("turn_id",)),
    Index("narration_audit_by_at", "narration_audit", ("at",)),
    Index("tool_calls_by_turn", "tool_calls", ("turn_id",)),
    Index("tool_calls_by_at", "tool_calls", ("at",)),
)


def _column(column: Column, types: dict[Kind, str]) -> str:
    return f"{column.name} {types[column.kind]}{'' if column.nullable else ' NOT NULL'}"


def _create(table: Table, types: dict[Kind, str], order_column: str | None) -> str:
    parts = [order_column] if table.ordered and order_column else []
    parts += [_column(c, types) for c in table.columns if not c.later]
    if table.key:
        parts.append(f"PRIMARY KEY ({', '.join(table.key)})")
    return f"CREATE TABLE IF NOT EXISTS {table.name} (\n  " + ",\n  ".join(parts) + ");"


def _index(index: Index) -> str:
    where = f" WHERE {index.where}" if index.where else ""
    columns = ", ".join(index.columns)
    return f"CREATE INDEX IF NOT EXISTS {index.name} ON {index.table} ({columns}){where};"


def _alter(table: Table, column: Column, types: dict[Kind, str], if_missing: str) -> str:
    return f"ALTER TABLE {table.name} ADD COLUMN {if_missing}{_column(column, types)}"


SQLITE_SCHEMA = "\n".join(
    [*(_create(t, SQLITE_TYPES, None) for t in TABLES), *(_index(i) for i in INDEXES)]
)
# SQLite has no ADD COLUMN IF NOT EXISTS: the store ALTERs in what a table lacks.
SQLITE_LATER_COLUMNS: dict[tuple[str, str], str] = {
    (t.name, c.name): _alter(t, c, SQLITE_TYPES, "") for t in TABLES for c in t.columns if c.later
}
POSTGRES_SCHEMA = "\n".join(
    [
        *(
            _create(t, POSTGRES_TYPES, "n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
            for t in TABLES
        ),
        *(
            _alter(t, c, POSTGRES_TYPES, "IF NOT EXISTS ") + ";"
            for t in TABLES
            for c in t.columns
            if c.later
        ),
        *(_index(i) for i in INDEXES),
    ]
)

AUDIT_COLUMNS = (
    "turn_id",
    "sub",
    "tool",
    "capability",
    "allowed",
    "reason",
    "hint_present",
    "at",
)
AUDIT_INSERT = (
    f"INSERT INTO audit ({', '.join(AUDIT_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in AUDIT_COLUMNS)})"
)

TOOL_CALL_COLUMNS = (
    "turn_id",
    "call_id",
    "tool",
    "args_digest",
    "duration_ms",
    "verdict",
    "grade",
    "returned",
    "total",
    "total_is_lower_bound",
    "at",
)
TOOL_CALL_INSERT = (
    f"INSERT INTO tool_calls ({', '.join(TOOL_CALL_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in TOOL_CALL_COLUMNS)})"
)
