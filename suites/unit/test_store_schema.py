"""Both turn stores make the same tables, columns and indexes: read back from a real
SQLite file and a real PostgreSQL database, against the list below, written by hand
(not read from ``beacon.store.schema``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.opening import open_store

# table -> column -> type class (SQLite INTEGER and PostgreSQL INTEGER/BIGINT are "int";
# REAL and DOUBLE PRECISION "real"; BLOB and BYTEA "blob").
TABLES: dict[str, dict[str, str]] = {
    "sessions": {"id": "text", "owner": "text", "created_at": "real"},
    "turns": {
        "id": "text",
        "session_id": "text",
        "owner": "text",
        "mode": "text",
        "status": "text",
        "created_at": "real",
        "worker": "int",
        "code": "text",
        "first_answer_at": "real",
        "ended_at": "real",
        "granted": "text",
    },
    "frames": {"turn_id": "text", "seq": "int", "type": "text", "body": "blob"},
    "answers": {"turn_id": "text", "body": "blob", "sources": "blob", "saved_at": "real"},
    "messages": {
        "session_id": "text",
        "turn_id": "text",
        "role": "text",
        "body": "blob",
        "created_at": "real",
    },
    "audit": {
        "turn_id": "text",
        "sub": "text",
        "tool": "text",
        "capability": "text",
        "allowed": "int",
        "reason": "text",
        "hint_present": "int",
        "at": "text",
    },
    "narration_audit": {
        "turn_id": "text",
        "kind": "text",
        "rule": "text",
        "token": "text",
        "at": "real",
    },
    "narrowing": {"session_id": "text", "body": "blob", "updated_at": "real"},
    "pages": {"turn_id": "text", "slot": "text", "body": "blob"},
    "feedback": {
        "turn_id": "text",
        "owner": "text",
        "rating": "text",
        "body": "blob",
        "at": "real",
    },
    "tool_calls": {
        "turn_id": "text",
        "call_id": "text",
        "tool": "text",
        "args_digest": "text",
        "duration_ms": "real",
        "verdict": "text",
        "grade": "text",
        "returned": "int",
        "total": "int",
        "total_is_lower_bound": "int",
        "at": "real",
    },
}
# Tables no key orders: SQLite's rowid does; PostgreSQL's identity column ``n``.
ORDERED = {"messages", "audit", "narration_audit", "tool_calls"}
# name -> (table, columns, partial)
INDEXES: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "turns_by_created": ("turns", ("created_at",), False),
    "turns_running": ("turns", ("status",), True),
    "messages_by_session": ("messages", ("session_id", "created_at"), False),
    "audit_by_turn": ("audit", ("turn_id",), False),
    "audit_by_at": ("audit", ("at",), False),
    "narration_audit_by_turn": ("narration_audit", ("turn_id",), False),
    "narration_audit_by_at": ("narration_audit", ("at",), False),
    "tool_calls_by_turn": ("tool_calls", ("turn_id",), False),
    "tool_calls_by_at": ("tool_calls", ("at",), False),
}
SQLITE_CLASS = {"TEXT": "text", "REAL": "real", "INTEGER": "int", "BLOB": "blob"}
POSTGRES_CLASS = {
    "text": "text",
    "double precision": "real",
    "integer": "int",
    "bigint": "int",
    "bytea": "blob",
}
KEYS = parse_keys(format_key("k1", generate_key()))

Schema = tuple[dict[str, dict[str, str]], dict[str, tuple[str, tuple[str, ...], bool]]]


def sqlite_schema(path: Path) -> Schema:
    open_store(path, KEYS).close()
    db = sqlite3.connect(path)
    try:
        names = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        tables = {
            name: {r[1]: SQLITE_CLASS[r[2]] for r in db.execute(f"PRAGMA table_info({name})")}
            for name in names
        }
        indexes = {}
        for name in names:
            # index_list: (seq, name, unique, origin, partial); 'c' is a CREATE INDEX
            for _, index, _, origin, partial in db.execute(f"PRAGMA index_list({name})"):
                if origin == "c":
                    columns = tuple(r[2] for r in db.execute(f"PRAGMA index_info({index})"))
                    indexes[index] = (name, columns, bool(partial))
        return tables, indexes
    finally:
        db.close()


def postgres_schema(url: str) -> Schema:
    open_store(url, KEYS).close()
    with psycopg.connect(url, autocommit=True) as conn:
        tables: dict[str, dict[str, str]] = {}
        for table, column, kind in conn.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        ):
            tables.setdefault(table, {})[column] = POSTGRES_CLASS[kind]
        rows = conn.execute(
            "SELECT i.relname, t.relname, array_agg(a.attname ORDER BY k.ord), "
            "bool_or(x.indpred IS NOT NULL) "
            "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
            "JOIN pg_class t ON t.oid = x.indrelid "
            "JOIN pg_namespace s ON s.oid = t.relnamespace "
            "CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord) "
            "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum "
            "WHERE s.nspname = 'public' AND NOT x.indisprimary "
            "GROUP BY i.relname, t.relname"
        ).fetchall()
    indexes = {index: (table, tuple(columns), partial) for index, table, columns, partial in rows}
    return tables, indexes


def test_sqlite_makes_the_listed_tables_columns_and_indexes(tmp_path: Path) -> None:
    tables, indexes = sqlite_schema(tmp_path / "beacon.sqlite3")
    assert tables == TABLES
    assert indexes == INDEXES


def test_postgresql_makes_the_same_tables_columns_and_indexes(pg_url: str) -> None:
    tables, indexes = postgres_schema(pg_url)
    for table in ORDERED:
        assert tables[table].pop("n") == "int", table  # its insertion order
    assert tables == TABLES
    assert indexes == INDEXES
